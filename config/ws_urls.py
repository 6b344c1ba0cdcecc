"""Websocket routes (platform.md §10.1)."""

from django.urls import path

from apps.backoffice.consumers import OnlineConsumer
from apps.chat.consumers import LobbyChatConsumer
from apps.tables.consumers import TableConsumer
from apps.tournaments.consumers import TournamentConsumer, TournamentMatchConsumer, TournamentPlayerConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyChatConsumer.as_asgi()),
    path("ws/backoffice/online/", OnlineConsumer.as_asgi()),
    path("ws/tournaments/me/", TournamentPlayerConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/matches/<int:match_id>/", TournamentMatchConsumer.as_asgi()),
]
