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
    path("withdrawals/<int:withdrawal_id>/review/", regulation_pages.withdrawal_step, {"step": "review"},
         name="withdrawal_review"),
    path("withdrawals/<int:withdrawal_id>/approve/", regulation_pages.withdrawal_step, {"step": "approve"},
         name="withdrawal_approve"),
    path("withdrawals/<int:withdrawal_id>/reject/", regulation_pages.withdrawal_step, {"step": "reject"},
         name="withdrawal_reject"),
    path("aml/", regulation_pages.aml_page, name="aml"),
    path("adm/", regulation_pages.adm_page, name="adm"),
    path("adm/reconciliation/", regulation_pages.adm_reconciliation_page, name="adm_reconciliation"),
    path("aml/cases/", regulation_pages.aml_case_open, name="aml_case_open"),
    path("aml/cases/<int:case_id>/", regulation_pages.aml_case_page, name="aml_case"),
    path("aml/cases/<int:case_id>/review/", regulation_pages.aml_case_step, {"step": "review"}, name="aml_case_review"),
    path("aml/cases/<int:case_id>/note/", regulation_pages.aml_case_step, {"step": "note"}, name="aml_case_note"),
    path("aml/cases/<int:case_id>/close/", regulation_pages.aml_case_step, {"step": "close"}, name="aml_case_close"),
    path("tables/", views.tables, name="tables"),
    path("tables/<int:table_id>/close/", views.table_close_view, name="table_close"),
    path("tables/<int:table_id>/stand-up/", views.table_stand_up_view, name="table_stand_up"),
    path("tables/<int:table_id>/message/", views.table_message_view, name="table_message"),
    path("tables/<int:table_id>/chat/", views.table_chat_view, name="table_chat"),
]
