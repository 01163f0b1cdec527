"""The Training area: training sets, and building one from the diagnosis suggestions."""
