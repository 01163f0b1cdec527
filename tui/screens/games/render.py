"""Rows and turn text for the Games screen (pure: Rich ``Text`` only). Turn content and the
judge's reasoning are untrusted: both go through ``safe_text``."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from api_client.models import Game, GameTurn
from common.format import DASH, format_utc
from tui.screens.chatroom.render import indented
from widgets.safe_text import one_line_text

__all__ = ["DASH", "GAME_TYPES", "WINNER_MARK", "fmt_score", "game_row", "game_summary_text", "turn_text"]

GAME_TYPES: dict[str, str] = {
    "evidence_locker": "Evidence locker: argue who took the painting from the clues",
    "comedy_night": "Comedy night: one short, clean joke each",
}
FINISHED = frozenset({"completed", "failed", "cancelled"})


def _when(ms: int | None) -> str:
    return format_utc(ms, zone="")


def fmt_score(score: float | None) -> str:
    return "not scored" if score is None else f"{score:.2f}"


def _name(model_id: str | None, names: Mapping[str, str]) -> str:
    if model_id is None:
        return DASH
    return names.get(model_id) or model_id


WINNER_MARK = " ★"


def game_row(game: Game, names: Mapping[str, str], person_model_id: str) -> tuple[Text, ...]:
    """Cells: game (id, type and start on three lines), status, players (one a line, the
    person's model bold, the winner marked ★), so the list fits its pane and cuts no name."""
    about = Text(end="")
    about.append_text(one_line_text(game.id, max_len=24))
    about.append("\n")
    about.append_text(one_line_text(game.game_type or DASH, max_len=24, style="dim"))
    about.append(f"\n{_when(game.created_at)}", style="dim")
    players = Text(end="")
    for index, model_id in enumerate(game.model_ids or []):
        if index:
            players.append("\n")
        players.append_text(one_line_text(_name(model_id, names), max_len=24, style="bold" if model_id == person_model_id else ""))
        if model_id == game.winner_model_id:
            players.append(WINNER_MARK, style="bold")
    if not game.model_ids:
        players.append(DASH)
    if game.winner_model_id and game.winner_model_id not in (game.model_ids or []):
        players.append("\nwon: ")
        players.append_text(one_line_text(_name(game.winner_model_id, names), max_len=24))
    status = one_line_text(game.status or DASH, max_len=12)
    if (game.status or "") not in FINISHED:
        status.append("\nplaying…", style="dim")
    return about, status, players


def game_summary_text(game: Game, names: Mapping[str, str]) -> Text:
    text = Text(end="")
    text.append_text(one_line_text(game.game_type or "game", max_len=30, style="bold"))
    text.append(" ")
    text.append_text(one_line_text(game.id, max_len=40, style="dim"))
    text.append(f" · {game.status or DASH} · started {_when(game.created_at)} UTC")
    if game.completed_at is not None:
        text.append(f" · ended {_when(game.completed_at)} UTC")
    text.append("\nwinner: ")
    if game.winner_model_id:
        text.append_text(one_line_text(_name(game.winner_model_id, names), max_len=40, style="bold"))
    else:
        text.append("none yet" if (game.status or "") not in FINISHED else "none declared", style="dim")
    turns = game.turns
    text.append(" · turns: " + (DASH if turns is None else str(len(turns))))
    if turns:
        text.append(" · Enter on a turn opens its call in the inspector", style="dim")
    return text


def turn_text(turn: GameTurn, names: Mapping[str, str], person_model_id: str) -> Text:
    """One turn: who, score, what they said, and the judge's reasoning (all inert)."""
    text = Text(end="")
    text.append("#" + (str(turn.index) if turn.index is not None else "?") + " ", style="dim")
    author = turn.author_name or _name(turn.model_id, names)
    text.append_text(one_line_text(author, max_len=40, style="bold"))
    if turn.model_id == person_model_id:
        text.append(" ◆ your model", style="italic")
    text.append(f" · score {fmt_score(turn.score)}")
    text.append("\n  ")
    if turn.content is None:
        text.append("(no answer: the call failed)", style="dim italic")
    elif not turn.content.strip():
        text.append("(empty answer)", style="dim italic")
    else:
        text.append_text(indented(turn.content))
    text.append("\n  Judge: ", style="bold")
    if turn.judge_reasoning:
        text.append_text(indented(turn.judge_reasoning, style="italic"))
    else:
        text.append("no reasoning given", style="dim")
    return text
