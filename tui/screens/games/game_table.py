"""The Games screen's list: one row a game (its id, type and start; its status; its players,
the person's model bold and the winner marked ★), three lines high so no name is cut."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.widgets import DataTable

from api_client.blahdev.shapes import Game
from common.format import DASH
from tui.screens.games.game_view import FINISHED, player_name, when
from widgets.safe_text import one_line_text

__all__ = ["GAME_COLUMNS", "WINNER_MARK", "GameTable", "game_row"]

GAME_COLUMNS = ("Game (UTC)", "Status", "Players (★ won)")
WINNER_MARK = " ★"


def game_row(game: Game, names: Mapping[str, str], person_model_id: str) -> tuple[Text, ...]:
    """Cells: game (id, type and start on three lines), status, players (one a line, the
    person's model bold, the winner marked ★), so the list fits its pane and cuts no name."""
    about = Text(end="")
    about.append_text(one_line_text(game.id, max_len=24))
    about.append("\n")
    about.append_text(one_line_text(game.game_type or DASH, max_len=24, style="dim"))
    about.append(f"\n{when(game.created_at)}", style="dim")
    players = Text(end="")
    for index, model_id in enumerate(game.model_ids or []):
        if index:
            players.append("\n")
        players.append_text(
            one_line_text(player_name(model_id, names), max_len=24, style="bold" if model_id == person_model_id else "")
        )
        if model_id == game.winner_model_id:
            players.append(WINNER_MARK, style="bold")
    if not game.model_ids:
        players.append(DASH)
    if game.winner_model_id and game.winner_model_id not in (game.model_ids or []):
        players.append("\nwon: ")
        players.append_text(one_line_text(player_name(game.winner_model_id, names), max_len=24))
    status = one_line_text(game.status or DASH, max_len=12)
    if (game.status or "") not in FINISHED:
        status.append("\nplaying…", style="dim")
    return about, status, players


class GameTable(DataTable[Text]):
    """Every game; a row's key is the game's id."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.add_columns(*GAME_COLUMNS)

    @property
    def highlighted_id(self) -> str | None:
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    def show(
        self, games: Sequence[Game], names: Mapping[str, str], person_model_id: str, select: str | None = None
    ) -> None:
        """Fill the list, the cursor on ``select`` or else on the game it was on."""
        keep = select or self.highlighted_id
        self.clear()
        for game in games:
            self.add_row(*game_row(game, names, person_model_id), key=game.id, height=None)
        if keep is not None and any(g.id == keep for g in games):
            self.move_cursor(row=self.get_row_index(keep))

    def update_game(self, game: Game, names: Mapping[str, str], person_model_id: str) -> None:
        """Redraw one game's row in place (nothing when a refresh took the row away)."""
        if game.id not in self.rows:
            return
        for column, cell in zip(self.columns, game_row(game, names, person_model_id), strict=True):
            self.update_cell(game.id, column, cell)
