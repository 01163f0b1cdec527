"""Blobfish benchmark runs in the Runs area: their rows (``rows``), starting one (``start``,
``start_dialog``) and watching it (``watch``).
"""
