"""Demo tables for ``seed_demo``: an open table to join, and a practice table of robots playing."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from . import services
from .models import Table


def demo_tables(stdout) -> None:
    User = get_user_model()
    anna = User.objects.filter(username="anna").first()
    mario = User.objects.filter(username="mario").first()
    if anna is None or mario is None:
        return
    if not Table.objects.filter(status=Table.OPEN, game="scopa", leader=anna).exists():
        robots = services.table_create(user=anna, data={"game": "scopa", "players": 4, "turn_seconds": 30})
        services.table_leave(user=anna, table_id=robots.pk)
        for seat in range(4):
            services.table_robot_add(user=anna, table_id=robots.pk, seat=seat)
        stdout.write(f"demo: robots playing Scopa (4 players) at table {robots.pk}")
    if not Table.objects.filter(status=Table.OPEN, game="briscola", leader=mario).exists():
        table = services.table_create(user=mario, data={"game": "briscola", "official": True, "stake": 50,
                                                        "currency": "credits"})
        stdout.write(f"demo: {table.pk} is a Briscola table for credits waiting for a second player")
