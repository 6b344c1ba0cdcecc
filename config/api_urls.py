from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from apps.aml import api as aml_api
from apps.audit import api as audit_api
from apps.backoffice import adm_api
from apps.cashier import api as cashier_api
from apps.chat import api as chat_api
from apps.common.views import api_not_found
from apps.conto import api_account as conto_api
from apps.conto import api_kyc, api_play_safe, api_sessions, api_staff, api_status
from apps.play import api as play_api
from apps.players import api as players_api
from apps.players import two_factor_api
from apps.rankings import api as rankings_api
from apps.review import api as review_api
from apps.tables import api as tables_api
from apps.tournaments import api as tournaments_api
from apps.wallet import api as wallet_api

urlpatterns = [
    path("auth/token/", players_api.TokenView.as_view(), name="api-auth-token"),
    path("auth/2fa/verify/", two_factor_api.VerifyView.as_view(), name="api-auth-2fa-verify"),
    path("me/2fa/devices/", two_factor_api.DeviceCreateView.as_view(), name="api-me-2fa-devices"),
    path("me/2fa/confirm/", two_factor_api.ConfirmView.as_view(), name="api-me-2fa-confirm"),
    path("me/2fa/recovery-codes/", two_factor_api.RecoveryCodesView.as_view(), name="api-me-2fa-recovery-codes"),
    path("staff/<int:user_id>/2fa/reset/", two_factor_api.StaffResetView.as_view(), name="api-staff-2fa-reset"),
    path("auth/signup/", conto_api.SignupView.as_view(), name="api-auth-signup"),
    path("me/account/", conto_api.MeAccountView.as_view(), name="api-me-account"),
    path("me/limits/", api_play_safe.MeLimitsView.as_view(), name="api-me-limits"),
    path("me/limits/<str:key>/pending/", api_play_safe.MeLimitPendingView.as_view(), name="api-me-limit-pending"),
    path("me/self-exclusions/", api_play_safe.MeSelfExclusionsView.as_view(), name="api-me-self-exclusions"),
    path("me/self-exclusions/<int:exclusion_id>/revoke/", api_play_safe.MeSelfExclusionRevokeView.as_view(),
         name="api-me-self-exclusion-revoke"),
    path("me/account/close/", api_status.MeAccountCloseView.as_view(), name="api-me-account-close"),
    path("players/<int:player_id>/account/status/", api_status.PlayerAccountStatusView.as_view(),
         name="api-player-account-status"),
    path("players/<int:player_id>/account/", api_staff.PlayerAccountView.as_view(), name="api-player-account"),
    path("players/<int:player_id>/self-exclusions/", api_staff.PlayerSelfExclusionsView.as_view(),
         name="api-player-self-exclusions"),
    path("players/<int:player_id>/notes/", api_staff.PlayerNotesView.as_view(), name="api-player-notes"),
    path("audit/", audit_api.AuditListView.as_view(), name="api-audit"),
    path("me/session/", api_sessions.MeSessionView.as_view(), name="api-me-session"),
    path("me/sessions/", api_sessions.MeSessionsView.as_view(), name="api-me-sessions"),
    path("me/session/reality-check/", api_sessions.MeRealityCheckView.as_view(), name="api-me-reality-check"),
    path("players/<int:player_id>/sessions/", api_sessions.PlayerSessionsView.as_view(), name="api-player-sessions"),
    path("me/documents/", api_kyc.MeDocumentsView.as_view(), name="api-me-documents"),
    path("kyc/queue/", api_kyc.KycQueueView.as_view(), name="api-kyc-queue"),
    path("kyc/<int:player_id>/approve/", api_kyc.KycDecisionView.as_view(action="approve"), name="api-kyc-approve"),
    path("kyc/<int:player_id>/resubmit/", api_kyc.KycDecisionView.as_view(action="resubmit"), name="api-kyc-resubmit"),
    path("kyc/<int:player_id>/reject/", api_kyc.KycDecisionView.as_view(action="reject"), name="api-kyc-reject"),
    path("kyc/documents/<int:document_id>/", api_kyc.KycDocumentView.as_view(), name="api-kyc-document"),
    path("me/", players_api.MeView.as_view(), name="api-me"),
    path("me/nickname/", players_api.MeNicknameView.as_view(), name="api-me-nickname"),
    path("me/chat/", players_api.MeChatView.as_view(), name="api-me-chat"),
    path("me/wallet/", wallet_api.MeWalletView.as_view(), name="api-me-wallet"),
    # the cashier (regulation.md §5)
    path("me/instruments/", cashier_api.MeInstrumentsView.as_view(), name="api-me-instruments"),
    path("me/deposits/", cashier_api.MeDepositsView.as_view(), name="api-me-deposits"),
    path("me/withdrawals/", cashier_api.MeWithdrawalsView.as_view(), name="api-me-withdrawals"),
    path("me/withdrawals/<int:withdrawal_id>/cancel/", cashier_api.MeWithdrawalCancelView.as_view(),
         name="api-me-withdrawal-cancel"),
    path("cashier/callback/<str:provider>/", cashier_api.CallbackView.as_view(), name="api-cashier-callback"),
    path("withdrawals/", cashier_api.WithdrawalsView.as_view(), name="api-withdrawals"),
    path("withdrawals/<int:withdrawal_id>/review/", cashier_api.WithdrawalReviewView.as_view(),
         name="api-withdrawal-review"),
    path("withdrawals/<int:withdrawal_id>/approve/", cashier_api.WithdrawalApproveView.as_view(),
         name="api-withdrawal-approve"),
    path("withdrawals/<int:withdrawal_id>/reject/", cashier_api.WithdrawalRejectView.as_view(),
         name="api-withdrawal-reject"),
    # the ADM adapter's back office (regulation.md §7.5)
    path("adm/summary/", adm_api.AdmSummaryView.as_view(), name="api-adm-summary"),
    path("adm/messages/", adm_api.AdmMessagesView.as_view(), name="api-adm-messages"),
    path("adm/reconciliation/", adm_api.AdmReconciliationView.as_view(), name="api-adm-reconciliation"),
    # anti-money-laundering (regulation.md §6)
    path("aml/signals/", aml_api.SignalsView.as_view(), name="api-aml-signals"),
    path("aml/cases/", aml_api.CasesView.as_view(), name="api-aml-cases"),
    path("aml/cases/<int:case_id>/", aml_api.CaseView.as_view(), name="api-aml-case"),
    path("aml/cases/<int:case_id>/review/", aml_api.CaseReviewView.as_view(), name="api-aml-case-review"),
    path("aml/cases/<int:case_id>/close/", aml_api.CaseCloseView.as_view(), name="api-aml-case-close"),
    path("aml/cases/<int:case_id>/notes/", aml_api.CaseNotesView.as_view(), name="api-aml-case-notes"),
    path("me/ledger/", wallet_api.MeLedgerView.as_view(), name="api-me-ledger"),
    path("me/credits/recharge/", players_api.MeRechargeView.as_view(), name="api-me-recharge"),
    path("players/", players_api.PlayerListView.as_view(), name="api-players"),
    path("players/<int:player_id>/adjustments/", players_api.PlayerAdjustmentView.as_view(),
         name="api-player-adjustments"),
    path("players/<int:player_id>/passport/", players_api.PlayerPassportView.as_view(), name="api-player-passport"),
    path("players/<int:player_id>/nickname/", players_api.PlayerNicknameView.as_view(),
         name="api-player-nickname"),
    path("players/<int:player_id>/ledger/", players_api.PlayerLedgerView.as_view(), name="api-player-ledger"),
    path("tables/", tables_api.TableListView.as_view(), name="api-tables"),
    path("tables/<int:table_id>/", tables_api.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:table_id>/sit/", tables_api.TableSitView.as_view(), name="api-table-sit"),
    path("tables/<int:table_id>/leave/", tables_api.TableLeaveView.as_view(), name="api-table-leave"),
    path("tables/<int:table_id>/ready/", tables_api.TableReadyView.as_view(), name="api-table-ready"),
    path("tables/<int:table_id>/sit-out/", tables_api.TableSitOutView.as_view(), name="api-table-sit-out"),
    path("tables/<int:table_id>/robot/", tables_api.TableRobotView.as_view(), name="api-table-robot"),
    path("tables/<int:table_id>/invite/", tables_api.TableInviteView.as_view(), name="api-table-invite"),
    path("tables/<int:table_id>/watch/", tables_api.TableWatchView.as_view(), name="api-table-watch"),
    path("matches/<int:match_id>/", play_api.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:match_id>/actions/", play_api.MatchActionView.as_view(), name="api-match-actions"),
    path("matches/<int:match_id>/cancel-vote/", play_api.MatchCancelVoteView.as_view(),
         name="api-match-cancel-vote"),
    path("matches/<int:match_id>/log/", play_api.MatchLogView.as_view(), name="api-match-log"),
    path("tournaments/", tournaments_api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", tournaments_api.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/preview/", tournaments_api.TournamentPreviewView.as_view(),
         name="api-tournament-preview"),
    path("tournaments/<int:tournament_id>/register/", tournaments_api.TournamentRegisterView.as_view(),
         name="api-tournament-register"),
    path("tournaments/<int:tournament_id>/unregister/", tournaments_api.TournamentUnregisterView.as_view(),
         name="api-tournament-unregister"),
    path("tournaments/<int:tournament_id>/start/", tournaments_api.TournamentStartView.as_view(),
         name="api-tournament-start"),
    path("tournaments/<int:tournament_id>/registrations/pause/",
         tournaments_api.TournamentRegistrationsPauseView.as_view(action="pause")),
    path("tournaments/<int:tournament_id>/registrations/resume/",
         tournaments_api.TournamentRegistrationsPauseView.as_view(action="resume")),
    path("tournaments/<int:tournament_id>/cancel/", tournaments_api.TournamentCancelView.as_view(),
         name="api-tournament-cancel"),
    path("tournaments/<int:tournament_id>/standings/", tournaments_api.TournamentStandingsView.as_view(),
         name="api-tournament-standings"),
    path("tournaments/<int:tournament_id>/matches/", tournaments_api.TournamentMatchesView.as_view(),
         name="api-tournament-matches"),
    path("rankings/<str:game>/", rankings_api.LeaderboardView.as_view(), name="api-rankings"),
    path("chat/messages/", chat_api.ChatMessageListView.as_view(), name="api-chat-messages"),
    path("chat/messages/<int:message_id>/hide/", chat_api.ChatMessageHideView.as_view(), name="api-chat-hide"),
    path("sanctions/", review_api.SanctionListView.as_view(), name="api-sanctions"),
    path("sanctions/<int:sanction_id>/lift/", review_api.SanctionLiftView.as_view(), name="api-sanction-lift"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

# anything else under /api/ is a JSON 404 in the contract's format
api_fallback = [re_path(r"^.*$", api_not_found)]
