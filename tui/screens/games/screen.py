"""Games between models: the list, one game's turns with the judge's reasoning, and starting
a new ``evidence_locker`` or ``comedy_night`` (confirmed first, sent once, then watched while
it plays out)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from api_client.blahdev.shapes import Game
from api_client.errors import (
    AuthError,
    BlahError,
    MissingKeyError,
    NotFoundError,
    OutcomeUnknownError,
)
from application.poller import Poller, PollStep
from common.format import plural
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import open_list, platform_work
from tui.screens.games.game_table import GameTable
from tui.screens.games.game_view import FINISHED, GameView
from tui.send_once import SendOnce
from widgets.dialog import ListDialog, list_keys
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["GameTypeScreen", "GamesScreen"]

GAME_TYPES: dict[str, str] = {
    "evidence_locker": "Evidence locker: argue who took the painting from the clues",
    "comedy_night": "Comedy night: one short, clean joke each",
}
"""The games the platform plays, each with what it is about."""
GAME_POLL_S = 0.5
"""How often a game being played is polled while turns keep coming."""
GAME_MAX_POLL_S = 5.0
"""The slowest a game being played is polled while nothing changes."""


class GameTypeScreen(ListDialog[str]):
    """Pick the kind of game to start."""

    DEFAULT_CSS = """
    GameTypeScreen > Vertical { width: 70; }
    GameTypeScreen #game-type-title { margin-bottom: 1; }
    GameTypeScreen OptionList { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = list_keys("game_type")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(Text("Start which game?"), id="game-type-title", classes="dialog-title")
            yield OptionList(*(Option(Text(f"{kind}\n  {about}"), id=kind) for kind, about in GAME_TYPES.items()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_id)


class GamesScreen(bindings.VimCursor, BlahScreen):
    """Top-level screen (key 0)."""

    SCREEN_TITLE = "Games"

    DEFAULT_CSS = """
    GamesScreen #games-status { height: 1; padding: 0 1; color: $foreground-muted; }
    GamesScreen #games-body { height: 1fr; }
    GamesScreen #games-table { width: 2fr; height: 1fr; }
    GamesScreen #game-pane { width: 3fr; height: 1fr; border-left: solid $panel; }
    GamesScreen #game-summary { height: auto; padding: 0 1; }
    GamesScreen #turns { height: 1fr; max-height: 100%; }
    GamesScreen.-narrow #games-body { layout: vertical; }
    GamesScreen.-narrow #games-table { width: 1fr; height: 1fr; }
    GamesScreen.-narrow #game-pane { width: 1fr; height: 1fr; border-left: none; border-top: solid $panel; }
    """
    # Under 120 columns the list and the game stack, so the players column is not cut.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.new("games", "new_game", "New game"),
        bindings.refresh("games"),
        Binding("o", "open_turn", "Open turn's call", id="games.open_turn"),
        *bindings.vim_cursor("games"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[Game] = []
        self.names: dict[str, str] = {}
        self.current: Game | None = None
        self.creator = SendOnce(self, group="games-create")  # one new game at a time, sent once

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading…", end=""), id="games-status")
        with Horizontal(id="games-body"):
            yield GameTable(id="games-table")
            yield GameView(id="game-pane")
        yield KeyFooter()

    def on_mount(self) -> None:
        open_list(
            self,
            "#games-table",
            self.load,
            lambda: self._status(Text("offline: games need the platform", style="italic")),
        )

    def _status(self, text: Text) -> None:
        self.query_one("#games-status", Static).update(text)

    # ----------------------------------------------------------------- data

    @platform_work(exclusive=True, group="games-load")
    async def load(self, client: BlahClient, select: str | None = None) -> None:
        try:
            games = await client.list_games()
        except BlahError as error:
            self._status(Text(f"couldn't load: {describe_error(error)}", end=""))
            raise
        if not self.names:
            try:
                self.names = {m.id: m.name or m.id for m in await client.list_models()}
            except BlahError:
                self.names = {}  # ids are shown instead of names
        self.games = sorted(games, key=lambda g: (g.created_at or 0, g.id), reverse=True)
        self._fill(select)
        if self.games:
            self._status(Text(f"{plural(len(self.games), 'game')}, newest first · n starts one", end=""))
        else:
            self._status(Text("the platform returned no games · n starts one", end=""))

    def _fill(self, select: str | None = None) -> None:
        self.query_one("#games-table", GameTable).show(self.games, self.names, self.ctx.model_id, select)

    def highlighted_game_id(self) -> str | None:
        return self.query_one("#games-table", GameTable).highlighted_id

    @on(DataTable.RowHighlighted, "#games-table")
    def _game_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value:
            self.load_game(event.row_key.value)

    @platform_work(exclusive=True, group="games-detail")
    async def load_game(self, client: BlahClient, game_id: str) -> None:
        """Show one game; while it is still being played, keep polling it (the app's one
        Poller: a new turn or status is progress; a transient error is retried, a fatal one,
        such as a game that does not exist, ends the polling and says why)."""

        async def fetch() -> Game:
            return await client.get_game(game_id)

        def judge(game: Game) -> PollStep:
            before = self.current if self.current is not None and self.current.id == game.id else None
            self._show_game(game)
            if (game.status or "") in FINISHED:
                return "done"
            moved = before is None or (before.status, len(before.turns or [])) != (game.status, len(game.turns or []))
            return "progress" if moved else "idle"

        def failed(error: BlahError, retry_in: float | None) -> None:
            if isinstance(error, NotFoundError):
                text = Text("couldn't load: the platform has no such game", end="")
            else:
                text = Text(f"couldn't load: {describe_error(error)}", end="")
            if retry_in is not None:
                text.append(f" · retrying in {retry_in:.0f} s")
            self.query_one("#game-pane", GameView).show_problem(text)

        poller = Poller(fetch, judge=judge, interval=GAME_POLL_S, max_interval=GAME_MAX_POLL_S, on_error=failed)
        await poller.run()

    def _show_game(self, game: Game) -> None:
        previous = self.current
        self.current = game
        same_turns = (
            previous is not None and previous.id == game.id and len(previous.turns or []) == len(game.turns or [])
        )
        self.query_one("#game-pane", GameView).show(game, self.names, self.ctx.model_id, turns_changed=not same_turns)
        if same_turns:
            return
        if self.games and any(g.id == game.id for g in self.games):
            self.games = [game if g.id == game.id else g for g in self.games]
            self.query_one("#games-table", GameTable).update_game(game, self.names, self.ctx.model_id)

    # ----------------------------------------------------------------- actions

    def action_refresh(self) -> None:
        self.load()

    @on(OptionList.OptionSelected, "#turns")
    def _turn_selected(self) -> None:
        self.action_open_turn()

    def action_open_turn(self) -> None:
        highlighted = self.query_one("#game-pane", GameView).highlighted_turn
        if self.current is None or highlighted is None or not self.current.turns:
            self.notify("Highlight a turn first (Tab to the turns)", severity="warning", markup=False)
            return
        turn = self.current.turns[highlighted]
        if not turn.log_id:
            self.notify("The platform gave no log for this turn", severity="warning", markup=False)
            return
        self.blah_app.open_log(turn.log_id)

    def action_new_game(self) -> None:
        if self.creator.busy:
            return
        if self.ctx.client is None:
            self.notify("offline: cannot start a game", severity="warning", markup=False)
            return
        self.creator.start(self._new_game)

    async def _new_game(self) -> None:
        client = self.ctx.client
        assert client is not None
        game_type = await self.app.push_screen_wait(GameTypeScreen())
        if not game_type:
            return
        body = Text(
            f"Start a {game_type} game on the platform? "
            "Models take turns and a judge scores each; it plays out on its own.",
            end="",
        )
        if not await self.creator.confirm(f"Start {game_type}?", body, label="Start"):
            return
        before = {g.id for g in self.games}

        async def settle(_: OutcomeUnknownError) -> None:
            self.notify(
                "The request timed out: outcome unknown. Checking the games list…", severity="warning", markup=False
            )
            games = await client.list_games()
            fresh = [g for g in games if g.id not in before and g.game_type == game_type]
            self.notify(
                "It started (found in the list)" if fresh else "It did not start (not in the list)", markup=False
            )
            self.load(fresh[0].id if fresh else None)

        try:
            game = await self.creator.send(lambda: client.create_game(game_type), settle=settle)
        except MissingKeyError:
            self.notify("Starting a game needs an API key", severity="error", markup=False)
            return
        except AuthError as error:
            self.notify(
                "The platform refused the key"
                + (": this endpoint may need council tier" if error.status == 403 else ""),
                severity="error",
                markup=False,
            )
            return
        if game is None:  # settled by the list
            return
        self.notify(f"Started {one_line(game_type, max_len=30)} game {one_line(game.id, max_len=40)}", markup=False)
        self.games = [game, *(g for g in self.games if g.id != game.id)]
        self._fill(select=game.id)
        self._status(Text(f"{plural(len(self.games), 'game')}, newest first · n starts one", end=""))
        self.load_game(game.id)
