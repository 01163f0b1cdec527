"""Bake-offs on the errorbar eval-run queue, Textual-free: a run's results as rows and
sentences (``results``), its samples losses first with the doubtful-verdict rule
(``samples``), the samples as Inspector calls (``calls``), the gate's checks (``gate``) and
a running run's progress (``progress``)."""
