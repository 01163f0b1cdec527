"""The Webhooks area: registrations, the local listener and the events it receives."""
