"""Reusable Textual pieces (LogList, TextViewer, plots, bars, badges, the footer, KeyTable, the
dialogs: ``dialog.DialogScreen`` (every modal's frame, its button row, one answer), ConfirmScreen
and ``form_dialog.FormDialog`` on it, ...). They import no tui and no api_client, and talk upward
with Messages.
"""
