"""Models & evals, without Textual: a model registration checked before it is sent."""
