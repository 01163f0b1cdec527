"""`blah-tui blobfish export` and `blah-tui blobfish publish`: the verbs that write (a file, or a
publication), on the same application functions as the Evaluations screen.

    blah-tui blobfish export ID [ID ...] -o FILE.jsonl [--json]   (1-50 evaluations, in the order given)
    blah-tui blobfish export --all -o FILE.jsonl [--json]
    blah-tui blobfish publish ENVELOPE.json [--json]              (the file's bytes, as they are)
    blah-tui blobfish publish --evaluation ID [--json]            (the envelope built from its evidence)

Every export ends with its receipt: records (lines, one trace each), bytes and the SHA-256 of
the file as written, computed here (Blobfish documents no HTTP dataset export, so there is no
platform receipt: ``application.evaluations.dataset_export``). The Evaluations screen's export
of marked evaluations writes the same bytes, so the receipts match.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from api_client.blobfish import BlobfishClient
from api_client.blobfish.publication import Publication, prepare
from application.evaluations.dataset_export import (
    ExportReceipt,
    SelectionRefused,
    check_selection,
    unique_ids,
)
from cli.errors import CommandError
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option
from cli.output import cell, print_json
from common.gc_tuning import few_cycle_collections
from common.safe_strings import clip

__all__ = ["add_export_arguments", "add_publish_arguments", "export_command", "publish_command"]

_YOUNG_COLLECTION_DOCUMENTS = 100
"""Evaluations (one JSONL body each) between two collections of the young generations during
``export --all`` (``few_cycle_collections``; the bodies come over ``BulkGet``, which makes no
reference cycle per request, so the collections rarely find anything)."""


def add_export_arguments(export: argparse.ArgumentParser) -> None:
    export.add_argument("evaluation_ids", metavar="ID", nargs="*", help="1-50 evaluations, written in this order")
    export.add_argument("--all", action="store_true", help="every evaluation, newest first")
    export.add_argument("-o", "--output", metavar="FILE.jsonl", required=True, help="the file to write")
    add_json_option(export, "the receipt as JSON")


def add_publish_arguments(publish: argparse.ArgumentParser) -> None:
    which = publish.add_mutually_exclusive_group(required=True)
    which.add_argument("envelope", metavar="ENVELOPE.json", nargs="?", help="sent byte for byte as it is in the file")
    which.add_argument(
        "--evaluation",
        metavar="ID",
        help="publish this evaluation's job, the envelope built from its evidence (no file)",
    )
    add_json_option(publish, "the receipt as JSON")


def export_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the export's selection (said as a usage error), or None."""
    if args.all and args.evaluation_ids:
        return "give evaluation ids or --all, not both"
    if not args.all and not args.evaluation_ids:
        return "name 1-50 evaluation ids, or --all"
    return None


async def export_command(client: BlobfishClient, args: argparse.Namespace, out: TextIO) -> None:
    dest = Path(args.output)
    if dest.is_dir():
        raise CommandError(f"{clip(str(dest), 200)} is a directory; name a file", ExitCode.USAGE)
    if args.all:
        with few_cycle_collections(_YOUNG_COLLECTION_DOCUMENTS) as after_document:
            result = await client.export_all_jsonl(dest, progress=lambda _written, _total: after_document())
    else:
        ids = unique_ids(args.evaluation_ids)
        try:
            check_selection(len(ids))
        except SelectionRefused as refused:
            raise CommandError(f"{refused}; nothing was written", ExitCode.USAGE) from None
        result = await client.export_jsonl(ids[0], dest) if len(ids) == 1 else await client.export_many_jsonl(ids, dest)
    # the file's receipt from the bytes as they were written (the same as measuring the file
    # on disk, receipt_of_file: tests compare both), without reading 25 MB again at the end
    receipt = ExportReceipt(dest, result.evaluations, result.lines, result.bytes, result.sha256)
    if args.json:
        print_json(receipt.to_json(), out)
        return
    out.write(
        f"wrote {receipt.record_count:,} traces ({receipt.byte_count:,} bytes) of {result.evaluations:,} "
        f"evaluation{'s' if result.evaluations != 1 else ''} to {clip(str(dest), 200)}\n"
    )
    out.write(f"receipt: {receipt.sentence()}\n")


async def publish_command(client: BlobfishClient, args: argparse.Namespace, out: TextIO) -> None:
    same_as: str | None = None
    publication: Publication
    if args.evaluation is not None:
        # Imported here: diagnosis is ~70 ms of start-up that `blobfish export` does not need.
        from application.evaluations.diagnosed import read_diagnosed
        from application.evaluations.publish import plan_publication
        from application.evaluations.source import ClientSource

        # read as the Evaluations screen reads it; refused here, nothing sent, when it breaks a rule
        plan = plan_publication((await read_diagnosed(ClientSource(client), args.evaluation)).evaluation)
        publication, same_as = plan.publication, plan.evaluation_id
    else:
        try:
            body = Path(args.envelope).read_bytes()
        except OSError as exc:
            raise CommandError(
                f"cannot read {clip(args.envelope, 200)}: {exc.strerror or exc}", ExitCode.LOCAL_FILE
            ) from None
        publication = prepare(body)  # refused here, nothing sent, when it breaks a publish rule
    receipt = await client.publish(publication)
    if args.json:
        print_json(receipt.to_json(), out)
        return
    out.write(f"published evaluation {_wide(receipt.evaluation_id)} (job {_wide(receipt.job_id)})\n")
    if same_as is not None and receipt.evaluation_id == same_as:
        out.write("Blobfish already held this evidence: it answered with the same evaluation\n")
    out.write(f"dashboard: {_wide(receipt.dashboard_url)}\n")


def _wide(value: str | None) -> str:
    return cell(value, 300)
