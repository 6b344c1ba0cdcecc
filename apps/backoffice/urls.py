from django.urls import path

from . import player_page, views

app_name = "backoffice"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("reconciliation/", views.reconciliation, name="reconciliation"),
    path("ledger/", views.ledger, name="ledger"),
    path("exports/", views.exports, name="exports"),
    path("exports/<int:export_id>/", views.export_page, name="export"),
    path("exports/<int:export_id>/progress/", views.export_progress, name="export_progress"),
    path("exports/<int:export_id>/download/", views.export_download, name="export_download"),
    path("players/<int:player_id>/", player_page.player_page, name="player"),
    path("players/<int:player_id>/notes/", player_page.player_note, name="player_note"),
    path("players/<int:player_id>/status/", player_page.player_status, name="player_status"),
    path("tables/", views.tables, name="tables"),
    path("tables/<int:table_id>/close/", views.table_close_view, name="table_close"),
    path("tables/<int:table_id>/stand-up/", views.table_stand_up_view, name="table_stand_up"),
    path("tables/<int:table_id>/message/", views.table_message_view, name="table_message"),
    path("tables/<int:table_id>/chat/", views.table_chat_view, name="table_chat"),
]
