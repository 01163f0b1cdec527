"""LogList in a real (headless) Textual app: keys, messages, follow mode, history, scale."""

from __future__ import annotations

from datetime import UTC

from textual.app import App, ComposeResult
from textual.message import Message

from api_client.blahdev.shapes import LogEntry
from application.logs.rows import row_from_entry
from widgets.log_list import LogList, LogRow

BASE_MS = 1_700_000_000_000
SIZE = (140, 24)  # 24 lines: 1 header + 23 rows


def make_row(i: int, **overrides: object) -> LogRow:
    fields: dict[str, object] = {
        "id": f"log-{i}",
        "created_at": BASE_MS + i * 1000,
        "source": "eval",
        "latency_ms": 100 + i,
        "finish_reason": "stop",
        "status": "ok",
        "badges": (),
        "prompt_preview": f"prompt number {i}",
        "reply_preview": f"reply number {i}",
    }
    fields.update(overrides)
    return LogRow(**fields)  # type: ignore[arg-type]


def rows(start: int, stop: int) -> list[LogRow]:
    return [make_row(i) for i in range(start, stop)]


class ListApp(App[None]):
    def __init__(self, initial: object) -> None:
        super().__init__()
        self.initial = initial
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield LogList(self.initial, tz=UTC)  # type: ignore[arg-type]

    def on_log_list_selected(self, message: LogList.Selected) -> None:
        self.messages.append(message)

    def on_log_list_highlighted(self, message: LogList.Highlighted) -> None:
        self.messages.append(message)

    def on_log_list_new_while_paused(self, message: LogList.NewWhilePaused) -> None:
        self.messages.append(message)

    def on_log_list_need_older(self, message: LogList.NeedOlder) -> None:
        self.messages.append(message)

    def of(self, kind: type[Message]) -> list[Message]:
        return [m for m in self.messages if type(m) is kind]


def screen_lines(log_list: LogList) -> list[str]:
    return [log_list.render_line(y).text for y in range(log_list.scrollable_content_region.height)]


class LazySource:
    """A million rows without a million objects: rows are made when painted."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.made = 0

    def __len__(self) -> int:
        return self.count

    def row(self, index: int) -> LogRow:
        if not 0 <= index < self.count:
            raise IndexError(index)
        self.made += 1
        return make_row(index)


async def test_starts_live_on_newest_row_and_keys_move_cursor() -> None:
    app = ListApp(rows(0, 100))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        assert ll.cursor_index == 99 and ll.following
        assert ll.current_entry_id == "log-99"
        assert "prompt number 99" in screen_lines(ll)[-1]
        await pilot.press("up", "k")
        assert ll.cursor_index == 97 and not ll.following
        await pilot.press("j")
        assert ll.cursor_index == 98
        await pilot.press("pageup")
        page = ll.cursor_index
        assert 70 <= page < 98
        await pilot.press("pagedown")
        assert ll.cursor_index == 98
        await pilot.press("home")
        assert ll.cursor_index == 0 and ll.scroll_y == 0
        assert "prompt number 0" in screen_lines(ll)[1]
        await pilot.press("G")
        assert ll.cursor_index == 99 and ll.following
        await pilot.press("g")
        assert ll.cursor_index == 0
        await pilot.press("end")
        assert ll.cursor_index == 99


async def test_highlighted_and_selected_messages_carry_the_entry() -> None:
    app = ListApp(rows(0, 30))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.messages.clear()
        await pilot.press("up", "up", "enter")
        await pilot.pause()
        highlighted = app.of(LogList.Highlighted)
        assert [(m.entry_id, m.index) for m in highlighted] == [("log-28", 28), ("log-27", 27)]  # type: ignore[attr-defined]
        selected = app.of(LogList.Selected)
        assert [(m.entry_id, m.index) for m in selected] == [("log-27", 27)]  # type: ignore[attr-defined]
        assert selected[0].control is app.query_one(LogList)  # type: ignore[attr-defined]


async def test_click_moves_cursor_then_selects() -> None:
    app = ListApp(rows(0, 10))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        await pilot.click(LogList, offset=(30, 3))  # header is line 0 -> row 2
        await pilot.pause()
        assert ll.cursor_index == 2
        assert not app.of(LogList.Selected)
        await pilot.click(LogList, offset=(30, 3))
        await pilot.pause()
        assert [m.entry_id for m in app.of(LogList.Selected)] == ["log-2"]  # type: ignore[attr-defined]


async def test_follow_mode_tails_appended_rows() -> None:
    app = ListApp(rows(0, 50))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        ll.append_rows(rows(50, 60))
        await pilot.pause()
        assert ll.cursor_index == 59 and ll.current_entry_id == "log-59"
        assert ll.scroll_y == ll.max_scroll_y
        assert "prompt number 59" in screen_lines(ll)[-1]
        assert ll.new_since_pause == 0
        assert not app.of(LogList.NewWhilePaused)


async def test_paused_list_stays_put_and_counts_new_rows_until_follow() -> None:
    app = ListApp(rows(0, 50))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        await pilot.press("pageup", "pageup")
        cursor, scroll, before = ll.cursor_index, ll.scroll_y, screen_lines(ll)
        assert not ll.following
        ll.append_rows(rows(50, 55))
        ll.append_rows(rows(55, 58))
        await pilot.pause()
        assert (ll.cursor_index, ll.scroll_y) == (cursor, scroll)
        assert screen_lines(ll) == before
        assert ll.new_since_pause == 8
        assert [m.count for m in app.of(LogList.NewWhilePaused)] == [5, 8]  # type: ignore[attr-defined]
        ll.follow()
        await pilot.pause()
        assert ll.following and ll.new_since_pause == 0
        assert ll.cursor_index == 57 and ll.scroll_y == ll.max_scroll_y


async def test_scrolling_up_with_the_wheel_pauses_follow() -> None:
    app = ListApp(rows(0, 80))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        ll.scroll_up(animate=False)
        await pilot.pause()
        assert not ll.following
        scroll = ll.scroll_y
        ll.append_rows(rows(80, 82))
        await pilot.pause()
        assert ll.scroll_y == scroll and ll.cursor_index == 79 and ll.new_since_pause == 2


async def test_need_older_posted_once_until_rows_are_prepended() -> None:
    app = ListApp(rows(100, 130))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        await pilot.press("home")
        await pilot.press("up", "up", "pageup")
        await pilot.pause()
        assert len(app.of(LogList.NeedOlder)) == 1
        ll.prepend_rows(rows(80, 100))
        await pilot.pause()
        assert ll.current_entry_id == "log-100" and ll.cursor_index == 20
        await pilot.press("home")
        await pilot.pause()
        assert len(app.of(LogList.NeedOlder)) == 2
        ll.prepend_rows(rows(70, 80))
        ll.has_older = False
        await pilot.press("home", "up")
        await pilot.pause()
        assert len(app.of(LogList.NeedOlder)) == 2


async def test_prepend_keeps_the_viewport_on_the_same_entries() -> None:
    app = ListApp(rows(1000, 1200))
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        for _ in range(3):
            await pilot.press("pageup")
        entry, before = ll.current_entry_id, screen_lines(ll)
        scroll = ll.scroll_y
        ll.prepend_rows(rows(500, 1000))
        await pilot.pause()
        assert ll.current_entry_id == entry
        assert ll.scroll_y == scroll + 500
        assert screen_lines(ll) == before
        assert ll.row_count == 700


async def test_search_terms_are_highlighted_case_insensitively() -> None:
    data = [make_row(0, prompt_preview="find the NEEDLE here", reply_preview="no match")]
    app = ListApp(data)
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        match_style = ll.get_component_rich_style("log-list--match", partial=True)
        ll.set_highlight(["needle"])
        await pilot.pause()
        hits = [s for s in ll.render_line(1) if s.text == "NEEDLE"]
        assert hits and hits[0].style is not None and hits[0].style.bgcolor == match_style.bgcolor
        ll.set_highlight([])
        await pilot.pause()
        assert not [s for s in ll.render_line(1) if s.text == "NEEDLE"]


async def test_badges_missing_values_and_errors_are_shown_honestly() -> None:
    data = [
        make_row(0, badges=("loop", "TRUNCATION", "template_leak"), finish_reason="length"),
        make_row(
            1, latency_ms=None, finish_reason=None, source=None, created_at=None, status="error", reply_preview=None
        ),
    ]
    app = ListApp(data)
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        first, second = ll.render_line(1), ll.render_line(2)
        assert " LOOP " in first.text and " CUT " in first.text and "length" in first.text
        loop = next(s for s in first if s.text == " LOOP ")
        error_colour = app.get_css_variables()["error"]
        assert loop.style is not None and loop.style.bgcolor is not None
        assert loop.style.bgcolor.triplet is not None and loop.style.bgcolor.triplet.hex == error_colour.lower()
        assert "ERR" in second.text and "0ms" not in second.text
        assert second.text.count("—") >= 5  # time, source, latency, finish, reply


async def test_million_rows_construct_paint_and_navigate() -> None:
    source = LazySource(1_000_000)
    app = ListApp(source)
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        await pilot.pause()
        assert ll.row_count == 1_000_000 and ll.cursor_index == 999_999
        assert "prompt number 999999" in screen_lines(ll)[-1]
        await pilot.press("up", "pageup", "home")
        assert ll.cursor_index == 0 and "prompt number 0" in screen_lines(ll)[1]
        await pilot.press("end")
        assert ll.current_entry_id == "log-999999"
        assert source.made < 2_000  # only painted rows were ever built
        source.count += 3
        ll.notify_appended(3)
        await pilot.pause()
        assert ll.current_entry_id == "log-1000002"


async def test_from_entry_uses_last_user_message_and_error_text() -> None:
    entry = LogEntry.model_validate(
        {
            "id": "x1",
            "created_at": BASE_MS,
            "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi there"}],
            "error": "upstream 502",
            "latency_ms": 30,
        }
    )
    row = row_from_entry(entry, badges=["error"])
    assert row.prompt_preview == "hi there" and row.reply_preview == "upstream 502"
    assert row.status == "error" and row.badges == ("error",) and row.finish_reason is None


async def test_custom_source_cannot_be_appended_to_directly() -> None:
    app = ListApp(LazySource(10))
    async with app.run_test(size=SIZE):
        ll = app.query_one(LogList)
        try:
            ll.append_rows(rows(10, 11))
        except TypeError as error:
            assert "notify_appended" in str(error)
        else:  # pragma: no cover - the assertion is the point
            raise AssertionError("append to a custom RowSource must fail loudly")


async def test_cursor_and_badge_colours_follow_focus_and_theme() -> None:
    from textual.widgets import Input

    class FocusApp(ListApp):
        def compose(self) -> ComposeResult:
            yield from super().compose()
            yield Input()

    app = FocusApp([make_row(0, badges=("loop",)), make_row(1)])
    async with app.run_test(size=SIZE) as pilot:
        ll = app.query_one(LogList)
        ll.focus()
        await pilot.pause()

        def cursor_bg() -> str:
            style = ll.render_line(2)._segments[0].style
            assert style is not None and style.bgcolor is not None and style.bgcolor.triplet is not None
            return style.bgcolor.triplet.hex

        focused = cursor_bg()
        assert focused == app.get_css_variables()["block-cursor-background"].lower()
        app.query_one(Input).focus()
        await pilot.pause()
        assert cursor_bg() != focused
        app.theme = "nord"
        await pilot.pause()
        loop = next(s for s in ll.render_line(1) if s.text == " LOOP ")
        assert loop.style is not None and loop.style.bgcolor is not None
        assert loop.style.bgcolor.triplet.hex == app.get_css_variables()["error"].lower()  # type: ignore[union-attr]


def test_time_column_formats_and_narrow_layouts_keep_badges() -> None:
    from application.logs.row import format_time
    from widgets.log_columns import layout_for, time_format

    day = 86_400_000
    at = 1_750_000_000_123  # 2025-06-15 15:06:40.123 UTC
    assert format_time(at, UTC) == "15:06:40.123"
    assert format_time(at, UTC, "day") == "Jun 15 15:06:40.123"
    assert format_time(at, UTC, "year") == "2025-06-15 15:06:40.123"
    assert time_format(at - 1000, at, UTC) == "time"
    assert time_format(at - day, at, UTC) == "day"
    assert time_format(at - 200 * day, at, UTC) == "year"
    assert time_format(None, at, UTC) == "time"
    wide, normal, narrow = layout_for(160), layout_for(78), layout_for(58)
    assert wide.badges == 16 and wide.source and wide.latency and wide.finish
    # 80 columns: badges, status and readable previews stay; source, finish and latency fold (issue 31)
    assert normal.badges >= 12 and normal.status and normal.prompt + normal.reply >= 40
    assert not (normal.source or normal.finish or normal.latency)
    assert narrow.badges >= 12 and not (narrow.source or narrow.finish or narrow.latency)
    shown = [w for w in (narrow.time, narrow.status, narrow.badges, narrow.prompt, narrow.reply) if w]
    assert sum(shown) + len(shown) - 1 == 58  # every cell used, one separator between columns
    assert layout_for(58, 19).badges >= 12  # with dates too


async def test_work_waiting_for_the_rows_frame_runs_once_after_it_went_to_the_terminal() -> None:
    """The Logs screen draws its plots after the frame that shows the rows: the callback runs
    once, after a frame with the rows was handed to the driver, not before."""
    app = ListApp(rows(0, 50))
    frames: list[str] = []
    ran: list[int] = []
    async with app.run_test(size=SIZE) as pilot:
        original = app._display

        def display(screen: object, renderable: object) -> None:
            if renderable is not None:
                frames.append("frame")
            original(screen, renderable)  # type: ignore[arg-type]

        app._display = display  # type: ignore[method-assign]
        await pilot.pause()
        log_list = app.query_one(LogList)
        frames.clear()
        log_list.set_rows(rows(0, 80))
        log_list.call_after_paint(lambda: ran.append(len(frames)))
        log_list.call_after_paint(lambda: ran.append(-1))
        assert ran == []  # not at once: the frame is not drawn yet
        await pilot.pause()
        await pilot.pause()
        assert ran and ran[0] >= 1 and ran.count(-1) == 1, (ran, frames)
        ran.clear()
        log_list.refresh()
        await pilot.pause()
        assert ran == []  # once


class CountingSource:
    """A million rows made on demand, remembering which were asked for (an archive's reads)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.read: set[int] = set()

    def __len__(self) -> int:
        return self.count

    def row(self, index: int) -> LogRow:
        self.read.add(index)
        return make_row(index)


async def test_a_list_built_with_rows_first_paints_its_newest_rows_only() -> None:
    """Its first frame is the newest screenful: no frame of the oldest rows first (which read
    the far end of an archive and painted two screenfuls for one)."""
    source = CountingSource(1_000_000)
    app = ListApp(source)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        log_list = app.query_one(LogList)
        assert "prompt number 999999" in screen_lines(log_list)[-1]
        assert min(source.read) >= 1_000_000 - SIZE[1], sorted(source.read)[:5]
