"""blah.dev eval runs, without Textual: the three writes (``actions``), following one to its end
(``events``, ``follow``, ``progress``, gathered for importers in ``watch``), which runs to list
(``listing``), the statuses that matter (``statuses``) and the judge's verdict on a result read
for people (``judge_verdict``). The ETA estimator they use is shared: ``application.runs.eta``.
"""
