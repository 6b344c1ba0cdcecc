"""The player's conto pages under /accounts/ (regulation.md §4.3's list)."""

from django.urls import path  # noqa: F401

app_name = "conto"

urlpatterns: list = []
