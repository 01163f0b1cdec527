"""One game as the Games screen shows it: a summary line (type, status, times, winner) over
its turns, each with its score and the judge's reasoning. Turn content and the judge's
reasoning are untrusted: both go through ``safe_text``."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from api_client.blahdev.shapes import Game, GameTurn
from common.format import DASH, format_utc
from tui.screens.chatroom.render import indented
from widgets.safe_text import one_line_text

__all__ = ["FINISHED", "GameView", "fmt_score", "game_summary_text", "player_name", "turn_text", "when"]

FINISHED = frozenset({"completed", "failed", "cancelled"})
"""The statuses of a game that is over (no more turns will come)."""


def when(ms: int | None) -> str:
    return format_utc(ms, zone="")


def fmt_score(score: float | None) -> str:
    return "not scored" if score is None else f"{score:.2f}"


def player_name(model_id: str | None, names: Mapping[str, str]) -> str:
    if model_id is None:
        return DASH
    return names.get(model_id) or model_id


def game_summary_text(game: Game, names: Mapping[str, str]) -> Text:
    text = Text(end="")
    text.append_text(one_line_text(game.game_type or "game", max_len=30, style="bold"))
    text.append(" ")
    text.append_text(one_line_text(game.id, max_len=40, style="dim"))
    text.append(f" · {game.status or DASH} · started {when(game.created_at)} UTC")
    if game.completed_at is not None:
        text.append(f" · ended {when(game.completed_at)} UTC")
    text.append("\nwinner: ")
    if game.winner_model_id:
        text.append_text(one_line_text(player_name(game.winner_model_id, names), max_len=40, style="bold"))
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
    author = turn.author_name or player_name(turn.model_id, names)
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


class GameView(Vertical):
    """The summary (``#game-summary``) over the turns (``#turns``, an ``OptionList``: selecting
    a turn posts ``OptionList.OptionSelected``, with the turn's index as the option id)."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Highlight a game to read its turns.", style="italic"), id="game-summary")
        yield OptionList(id="turns")

    def show(self, game: Game, names: Mapping[str, str], person_model_id: str, *, turns_changed: bool) -> None:
        """Show ``game``; its turns are redrawn only when ``turns_changed`` (the highlighted
        turn stays where it was)."""
        self.query_one("#game-summary", Static).update(game_summary_text(game, names))
        if not turns_changed:
            return
        turns = self.query_one("#turns", OptionList)
        keep = turns.highlighted
        turns.set_options(
            [Option(turn_text(t, names, person_model_id), id=str(i)) for i, t in enumerate(game.turns or [])]
        )
        if not game.turns:
            turns.set_options(
                [
                    Option(
                        Text(
                            "no turns yet" if (game.status or "") not in FINISHED else "the platform returned no turns",
                            style="italic",
                        ),
                        disabled=True,
                    )
                ]
            )
        else:
            turns.highlighted = min(keep, turns.option_count - 1) if keep is not None else 0

    def show_problem(self, text: Text) -> None:
        """Why the game could not be (re)loaded, in place of its summary."""
        self.query_one("#game-summary", Static).update(text)

    @property
    def highlighted_turn(self) -> int | None:
        return self.query_one("#turns", OptionList).highlighted
