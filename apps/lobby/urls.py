from django.urls import path

from . import views

app_name = "lobby"

urlpatterns = [
    path("live/", views.lobby_live_part, name="live"),
    path("play/<str:game>/", views.play_now, name="play_now"),
    path("sit/<int:table_id>/", views.sit, name="sit"),
]
