"""Training sets, without Textual: building the JSONL from the diagnosis suggestions and
sending it (``upload``).
"""
