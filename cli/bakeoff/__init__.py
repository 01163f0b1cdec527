"""`blah-tui bakeoff ...`: bake-offs on the errorbar eval-run queue. ``command`` parses and
dispatches; one module per verb family (``create``, ``plan``, ``screen``, ``calibration``) and
what they print (``print``, ``screen_print``, ``readings``); ``connection``: the queue's address
and key. Nothing here is imported until `blah-tui bakeoff` runs."""
