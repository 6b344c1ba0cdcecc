"""Websocket routes (platform.md §10.1); each domain app adds its consumers here."""

websocket_urlpatterns: list = []
