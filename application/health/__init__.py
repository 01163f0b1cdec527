"""Health of a model's host, without Textual: outage windows and uptime (``windows``)."""
