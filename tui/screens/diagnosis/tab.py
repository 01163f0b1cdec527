"""What the Diagnosis screen's table tabs (Rates, Groups) share: they draw from the screen's
latest ``DiagnosisView``, and Enter on a row asks the screen to list the calls behind it."""

from __future__ import annotations

from typing import ClassVar

from textual.message import Message
from textual.widgets import TabPane

from application.diagnosis.analysis import DiagnosisView
from tui.screens.diagnosis.calls import CallSet
from widgets.key_table import KeyTable


class DiagnosisTab(TabPane):
    """A tab around one ``KeyTable`` (id ``TABLE_ID``), filled by the subclass's ``show(view)``."""

    TABLE_ID: ClassVar[str]

    class CallsChosen(Message):
        """Enter on a row (a number, a group, a cluster): the screen lists the calls behind it."""

        def __init__(self, calls: CallSet) -> None:
            super().__init__()
            self.calls = calls

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(title, id=id)
        self._view: DiagnosisView | None = None
        """The diagnosis shown (None: none has arrived)."""

    @property
    def table(self) -> KeyTable:
        return self.query_one(f"#{self.TABLE_ID}", KeyTable)
