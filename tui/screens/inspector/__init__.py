"""The Inspector: one call (any platform's) with its findings, panels and links."""
