"""`blah-tui chatroom ...`: the blah.dev chatroom from the shell (no Textual import).

    blah-tui chatroom [--limit N] [--follow] [--json]
    blah-tui chatroom post TEXT [--reply-from MODEL] [--json] [--yes]
    blah-tui chatroom mute MODEL [--json] [--yes]
    blah-tui chatroom unmute MODEL [--json] [--yes]

Reading prints the room newest last (the platform answers newest first); ``--follow`` then
tails it with ``since`` polling by the Chatroom screen's own rules (``application.chatroom``:
``since`` one millisecond before the newest message held, ids already printed dropped, the
wait growing while the room is quiet), each new message once, until interrupted; with
``--json`` one message per line (JSON Lines). Posting and muting are the screen's writes
(``application.chatroom.actions``): confirmed on a terminal or by ``--yes``, sent once, a lost
answer settled by a read. Message text is printed verbatim and inert (no escape sequence
reaches the terminal). Exit codes: see ``cli.blah.connection``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TextIO

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import ChatroomMessage
from api_client.errors import BlahError
from application.chatroom.actions import ChatWrite, already_in_state, post_message, set_chatroom_enabled
from application.chatroom.feed import ChatFeed
from application.chatroom.poll import INITIAL_PAGE, RoomPoller
from cli.blah.connection import (
    EXIT_CODES_HELP,
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    GlobalOptions,
    VerbError,
    confirm,
    connection_parent,
    describe,
    exit_for,
    resolve,
    run_verb,
    when,
)
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option, parse_command
from cli.output import cell, print_json
from cli.parsing import OneLineParser
from common.safe_strings import clip, inert_json, sanitize

PROG = "blah-tui chatroom"
Sleep = Callable[[float], Awaitable[None]]
PACE: dict[str, Sleep] = {"sleep": asyncio.sleep}
"""The follow's wait between polls (tests put their own here)."""


def build_parser() -> argparse.ArgumentParser:
    connection = connection_parent()
    parser = OneLineParser(
        prog=PROG,
        parents=[connection],
        description="The blah.dev chatroom: read it (newest last), follow it, post, mute or unmute a model.",
        epilog=EXIT_CODES_HELP,
    )
    parser.add_argument(
        "--limit", type=int, default=50, metavar="N", help="how many recent messages (1-100, default 50)"
    )
    parser.add_argument("--follow", action="store_true", help="keep printing new messages (since-polling) until ^C")
    add_json_option(parser, "JSON (with --follow: one message per line)")
    sub = parser.add_subparsers(dest="chat_command", metavar="ACTION")
    post = sub.add_parser("post", parents=[connection], help="post a message as you (sent once)")
    post.add_argument("text", metavar="TEXT")
    post.add_argument("--reply-from", metavar="MODEL", help="the one model asked to reply (default: every unmuted one)")
    for name, what in (
        ("mute", "stop a model taking turns (council tier; keeps its scores and history)"),
        ("unmute", "let a muted model take turns again (council tier)"),
    ):
        verb = sub.add_parser(name, parents=[connection], help=what)
        verb.add_argument("model", metavar="MODEL")
    for verb in (post, *[sub.choices[n] for n in ("mute", "unmute")]):
        add_json_option(verb)
        verb.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    return parser


# ---------------------------------------------------------------------------- printing


def message_line(message: ChatroomMessage) -> str:
    who = message.author_name or message.model_id or ("a person" if message.author_kind == "human" else None)
    kind = "model" if message.author_kind == "model" else ("person" if message.author_kind == "human" else None)
    author = f"{cell(who, 40)}" + (
        f" ({kind}{': ' + cell(message.model_id, 40) if message.model_id else ''})" if kind else ""
    )
    reply = f" ↳ {cell(message.reply_to, 30)}" if message.reply_to else ""
    # continuation lines are marked so each message stays one block (the text itself is as sent)
    content = sanitize(message.content or "", keep_newlines=True).replace("\n", "\n    │ ")
    return f"{when(message.created_at)}  {author}{reply}: {content}"


def message_json(message: ChatroomMessage) -> dict[str, object]:
    return message.model_dump(mode="json")


def _write_messages(messages: Sequence[ChatroomMessage], as_json_lines: bool, out: TextIO) -> None:
    for message in messages:
        if as_json_lines:
            out.write(inert_json(json.dumps(message_json(message), ensure_ascii=False)) + "\n")
        else:
            out.write(message_line(message) + "\n")
    out.flush()


# ---------------------------------------------------------------------------- commands


def _outcome(write: ChatWrite, base_url: str, what: str) -> None:
    if write.kind == "unknown":
        raise VerbError(write.message, EXIT_UNKNOWN)
    if write.kind == "not_done":
        raise VerbError(write.message, ExitCode.REFUSED)
    if not write.ok:
        if write.error is not None:
            raise VerbError(
                describe(write.error, what=what, base_url=base_url) if write.kind == "failed" else write.message,
                exit_for(write.error),
            )
        raise VerbError(write.message, ExitCode.REFUSED)


async def _read(
    client: BlahClient, args: argparse.Namespace, out: TextIO, err: TextIO, sleep: Sleep, stop: Callable[[], bool]
) -> int:
    feed = ChatFeed()
    page = await client.chatroom(limit=args.limit)
    new, _ = feed.add(page.messages)
    if not args.follow:
        if args.json:
            print_json([message_json(m) for m in new], out)
        else:
            _write_messages(new, False, out) if new else out.write("the chatroom is empty\n")
        return EXIT_OK
    _write_messages(new, args.json, out)
    problem: list[BlahError] = []

    def on_messages(messages: list[ChatroomMessage]) -> list[ChatroomMessage]:
        fresh, _ = feed.add(messages)
        _write_messages(fresh, args.json, out)
        return fresh

    def on_error(error: BlahError, retry_in: float | None) -> None:
        if retry_in is None:
            problem.append(error)
        else:
            err.write(f"poll failed ({clip(error.message, 160)}); trying again in {retry_in:.0f} s\n")

    async def paced_sleep(seconds: float) -> None:
        if stop():
            poller.poller.stop()
        await sleep(seconds)

    poller = RoomPoller(
        client, feed, on_messages=on_messages, on_error=on_error, on_quiet=lambda quiet: None, sleep=paced_sleep
    )
    await poller.run()
    if feed.page_was_full:
        err.write("more messages arrived between two polls than one page holds: some may be missing\n")
    if problem:
        raise VerbError(describe(problem[0]), exit_for(problem[0]))
    return EXIT_OK


async def _dispatch(
    args: argparse.Namespace,
    base_url: str,
    api_key: str | None,
    out: TextIO,
    err: TextIO,
    sleep: Sleep,
    stop: Callable[[], bool],
) -> int:
    async with BlahClient(base_url, api_key=api_key) as client:
        try:
            command = args.chat_command
            if command is None:
                return await _read(client, args, out, err, sleep, stop)
            if command == "post":
                newest = (await client.chatroom(limit=1)).messages
                since = newest[0].created_at - 1 if newest else None
                write = await post_message(client, args.text, reply_from=args.reply_from, since=since)
                _outcome(write, base_url, f"model {args.reply_from!r}")
                if args.json:
                    print_json(
                        {
                            "message": message_json(write.posted) if write.posted else None,
                            "replies_expected_from": write.replies_expected_from,
                        },
                        out,
                    )
                else:
                    if write.posted is not None:
                        out.write(message_line(write.posted) + "\n")
                    err.write(clip(write.message, 400) + "\n")
                return EXIT_OK
            enable = command == "unmute"
            write = await already_in_state(client, args.model, enable) or await set_chatroom_enabled(
                client, args.model, enable
            )
            _outcome(write, base_url, f"model {args.model!r}")
            if args.json:
                print_json({"model_id": args.model, "chatroom_enabled": write.chatroom_enabled}, out)
            else:
                out.write(clip(write.message, 300) + "\n")
            return EXIT_OK
        except BlahError as error:
            what = f"model {args.model!r}" if getattr(args, "model", None) else None
            raise VerbError(describe(error, what=what, base_url=base_url), exit_for(error)) from None


def chatroom_main(
    argv: Sequence[str],
    globals_: GlobalOptions | None = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    sleep: Sleep | None = None,
    stop: Callable[[], bool] | None = None,
) -> int:
    """Run one `blah-tui chatroom` command; the exit code. ``stop``: ends a ``--follow`` at its
    next wait (tests; a person presses ^C)."""
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    args = parse_command(build_parser(), argv, (globals_ or GlobalOptions()).before())
    args.json = getattr(args, "json", False)

    def body() -> int:
        if not 1 <= args.limit <= INITIAL_PAGE:
            raise VerbError(f"--limit must be 1-{INITIAL_PAGE}", EXIT_USAGE)
        connection = resolve(args, globals_ or GlobalOptions(), err)
        if args.chat_command == "post":
            if not args.text.strip():
                raise VerbError("the message is empty; nothing was sent", EXIT_USAGE)
            target = f" (reply from {clip(args.reply_from, 60)})" if args.reply_from else ""
            confirm(f"post {clip(args.text, 80)!r} in the chatroom{target}?", args.yes, stdin, err)
        elif args.chat_command in ("mute", "unmute"):
            confirm(f"{args.chat_command} {clip(args.model, 60)} in the chatroom?", args.yes, stdin, err)
        try:
            return asyncio.run(
                _dispatch(
                    args,
                    connection.base_url,
                    connection.api_key,
                    out,
                    err,
                    sleep or PACE["sleep"],
                    stop or (lambda: False),
                )
            )
        except KeyboardInterrupt:
            if args.follow:
                return EXIT_OK  # a tail ends when the person stops it
            raise

    return run_verb(PROG, body, err)


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] chatroom ...` (:mod:`cli.tree`)."""
    return chatroom_main(argv, GlobalOptions.of(given))
