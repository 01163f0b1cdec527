"""Reusable Textual pieces (LogList, TextViewer, plots, bars, badges, the footer, ConfirmScreen,
form dialogs, ...). They import no tui and no api_client, and talk upward with Messages.
"""
