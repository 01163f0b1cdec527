"""The Diagnosis area, without Textual: the data a diagnosis reads (``data``) and the analysis
behind the Diagnosis screen and ``blah-tui report`` (``analysis``).
"""
