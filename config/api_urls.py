from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from apps.common.views import api_not_found
from apps.players import api as players_api
from apps.wallet import api as wallet_api

urlpatterns = [
    path("me/", players_api.MeView.as_view(), name="api-me"),
    path("me/nickname/", players_api.MeNicknameView.as_view(), name="api-me-nickname"),
    path("me/wallet/", wallet_api.MeWalletView.as_view(), name="api-me-wallet"),
    path("me/ledger/", wallet_api.MeLedgerView.as_view(), name="api-me-ledger"),
    path("me/credits/recharge/", wallet_api.MeRechargeView.as_view(), name="api-me-recharge"),
    path("players/", players_api.PlayerListView.as_view(), name="api-players"),
    path("players/<int:player_id>/adjustments/", wallet_api.PlayerAdjustmentView.as_view(),
         name="api-player-adjustments"),
    path("players/<int:player_id>/passport/", wallet_api.PlayerPassportView.as_view(), name="api-player-passport"),
    path("players/<int:player_id>/nickname/", players_api.PlayerNicknameView.as_view(),
         name="api-player-nickname"),
    path("players/<int:player_id>/ledger/", wallet_api.PlayerLedgerView.as_view(), name="api-player-ledger"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

# anything else under /api/ is a JSON 404 in the contract's format
api_fallback = [re_path(r"^.*$", api_not_found)]
