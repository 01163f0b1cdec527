"""``KeyTable(columns=...)`` and ``set_columns``: the columns a screen names, in its order."""

from __future__ import annotations

from textual.app import App, ComposeResult

from widgets.key_table import KeyTable


class _Table(App[None]):
    def compose(self) -> ComposeResult:
        yield KeyTable(id="t", columns=(("Run", "id"), ("Status", "status")))


async def test_the_columns_start_as_named_and_set_columns_replaces_rows_and_columns() -> None:
    app = _Table()
    async with app.run_test():
        table = app.query_one("#t", KeyTable)
        assert [(str(c.label), c.key.value) for c in table.ordered_columns] == [("Run", "id"), ("Status", "status")]
        table.add_row("r1", "done", key="r1")
        table.set_columns((("Eval", "eval"),))
        assert [c.key.value for c in table.ordered_columns] == ["eval"]
        assert table.row_count == 0
