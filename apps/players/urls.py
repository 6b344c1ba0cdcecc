from django.contrib.auth import views as auth_views
from django.urls import path

from . import two_factor_views, views
from .forms import PlayerLoginForm

app_name = "players"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(template_name="players/login.html", authentication_form=PlayerLoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("nickname/", views.nickname, name="nickname"),
    path("profile/", views.profile, name="profile"),
    path("history/", views.history, name="history"),
    path("profile/cards/", views.profile_cards, name="profile_cards"),
    path("profile/recharge/", views.recharge, name="recharge"),
    path("2fa/", two_factor_views.two_factor_page, name="two_factor"),
]
