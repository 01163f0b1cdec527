"""The Models & evals area: lists, search, details and a model's registration."""
