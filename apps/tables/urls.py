from django.urls import path

from . import views

app_name = "tables"

urlpatterns = [
    path("", views.tables_lobby, name="lobby"),
    path("new/", views.table_create_page, name="create"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/chat/", views.table_chat_hide, name="chat_hide"),
    path("<int:table_id>/<str:what>/", views.table_seat_action, name="seat_action"),
    path("matches/mine/", views.my_matches, name="my_matches"),
    path("matches/<int:match_id>/replay/", views.match_replay_page, name="replay"),
]
