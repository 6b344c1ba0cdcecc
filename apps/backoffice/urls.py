from django.urls import path

from . import player_page, regulation_pages, views

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
    path("withdrawals/", regulation_pages.withdrawals, name="withdrawals"),
    path("withdrawals/<int:withdrawal_id>/<str:step>/", regulation_pages.withdrawal_step, name="withdrawal_step"),
    path("aml/", regulation_pages.aml_page, name="aml"),
    path("aml/cases/", regulation_pages.aml_case_open, name="aml_case_open"),
    path("aml/cases/<int:case_id>/", regulation_pages.aml_case_page, name="aml_case"),
    path("aml/cases/<int:case_id>/<str:step>/", regulation_pages.aml_case_step, name="aml_case_step"),
    path("tables/", views.tables, name="tables"),
    path("tables/<int:table_id>/close/", views.table_close_view, name="table_close"),
    path("tables/<int:table_id>/stand-up/", views.table_stand_up_view, name="table_stand_up"),
    path("tables/<int:table_id>/message/", views.table_message_view, name="table_message"),
    path("tables/<int:table_id>/chat/", views.table_chat_view, name="table_chat"),
]
