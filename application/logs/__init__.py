"""The Logs area, without Textual: the feed of a model's calls (live and archived), its history,
the rows and their badges, and the time series behind the charts.
"""
