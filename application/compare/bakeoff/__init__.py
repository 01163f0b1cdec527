"""Bake-offs on the errorbar eval-run queue, Textual-free: a run's results as rows and
sentences (``results``), its samples losses first with the doubtful-verdict rule
(``samples``), the samples as Inspector calls (``calls``), the gate's checks (``gate``) and
a running run's progress (``progress``); a new run's fields, checks and parsing
(``new_run``), what it spends on (``cost``), its confirmation (``confirm``), a refused create
in words (``refusals``), a judge's plain reading (``judge_quality``) and a run's assertion
results (``assertions``)."""
