"""`blah-tui bench ...`: Blobfish benchmark runs and the community board. ``command`` parses and
dispatches; ``print`` holds what it prints."""
