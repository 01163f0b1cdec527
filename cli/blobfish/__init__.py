"""`blah-tui blobfish ...`: SDK evaluations on Blobfish. ``command`` parses and dispatches;
``search`` and ``write`` (export, publish) hold the verbs with more to them."""
