"""The Lens area: a model's bundle and a streamed layer-by-layer analysis."""
