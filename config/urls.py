from django.contrib import admin
from django.urls import include, path

from apps.games.views import rules
from apps.lobby.views import lobby, responsible_gaming
from apps.ops import views as ops_views
from apps.rankings.views import leaderboard_page

from .api_urls import api_fallback
from .api_urls import urlpatterns as api_urlpatterns

urlpatterns = [
    path("", lobby, name="lobby"),
    path("lobby/", include("apps.lobby.urls")),
    path("games/<str:game>/rules/", rules, name="game_rules"),
    path("responsible-gaming/", responsible_gaming, name="responsible_gaming"),
    path("accounts/cashier/", include("apps.cashier.urls")),
    path("accounts/", include("apps.conto.urls")),
    path("accounts/", include("apps.players.urls")),
    path("tables/", include("apps.tables.urls")),
    path("chat/", include("apps.chat.urls")),
    path("compliance/", include("apps.review.urls")),
    path("tournaments/", include("apps.tournaments.urls")),
    path("rankings/<str:game>/", leaderboard_page, name="leaderboard"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("backoffice/", include("apps.backoffice.urls")),
    path("admin/", admin.site.urls),
    path("health/", ops_views.health, name="health"),  # the balancer's (docs/deploy.md)
    path("metrics", ops_views.metrics, name="metrics"),  # Prometheus's
    path("api/", include(api_urlpatterns + api_fallback)),
]

handler404 = "apps.common.views.handler404"
handler500 = "apps.common.views.handler500"
handler403 = "apps.common.views.handler403"
