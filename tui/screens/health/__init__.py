"""The Health area: a model's health checks, outage windows and uptime."""
