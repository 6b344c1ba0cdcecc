from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.lobby_page, name="lobby"),
    path("<int:tournament_id>/", views.detail_page, name="detail"),
    path("<int:tournament_id>/register/", views.register_page, name="register"),
    path("<int:tournament_id>/unregister/", views.unregister_page, name="unregister"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
]
