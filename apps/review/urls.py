from django.urls import path

from . import kyc_views, views

app_name = "review"

urlpatterns = [
    path("", views.queue, name="queue"),
    path("messages/", views.search, name="search"),
    path("messages/export.csv", views.export_csv, name="export"),
    path("messages/<int:message_id>/", views.message_context, name="message"),
    path("messages/<int:message_id>/hide/", views.message_hide, name="hide"),
    path("messages/<int:message_id>/reviewed/", views.message_reviewed, name="reviewed"),
    path("sanctions/", views.sanctions, name="sanctions"),
    path("sanctions/new/", views.sanction_new, name="sanction_new"),
    path("sanctions/<int:sanction_id>/lift/", views.sanction_lift_page, name="lift"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("words/", views.words, name="words"),
    path("signals/", views.signals, name="signals"),
    path("kyc/", kyc_views.kyc_queue, name="kyc_queue"),
    path("kyc/<int:player_id>/", kyc_views.kyc_player, name="kyc_player"),
    path("kyc/<int:player_id>/<str:decision>/", kyc_views.kyc_decide, name="kyc_decide"),
    path("kyc/documents/<int:document_id>/", kyc_views.kyc_document, name="kyc_document"),
]
