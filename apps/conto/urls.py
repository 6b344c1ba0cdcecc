"""The player's conto pages under /accounts/ (regulation.md §4.3's list)."""

from django.urls import path

from . import views_account, views_close, views_play_safe

app_name = "conto"

urlpatterns = [
    path("account/", views_account.account, name="account"),
    path("account/documents/", views_account.upload, name="upload"),
    path("account/identity/", views_account.identity, name="identity"),
    path("account/close/", views_close.close, name="close"),
    path("limits/", views_play_safe.limits, name="limits"),
    path("limits/<str:key>/cancel/", views_play_safe.limit_cancel, name="limit_cancel"),
    path("self-exclusion/", views_play_safe.self_exclusion, name="self_exclusion"),
    path("sessions/", views_play_safe.sessions, name="sessions"),
    path("session/reality-check/", views_play_safe.reality_check, name="reality_check"),
]
