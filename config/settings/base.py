"""Settings shared by every environment.

Embedded defaults (SQLite, in-process channel layer, filesystem Celery broker) make
`make run` work on a machine with only Python; DATABASE_URL and REDIS_URL switch to
PostgreSQL, channels-redis and a Redis broker without any other change.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(os.environ.get("MAZZIERE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    if os.environ.get("DJANGO_SECRET_KEY"):
        return os.environ["DJANGO_SECRET_KEY"]
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000").split(",") if o
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "channels",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "apps.common",
    "apps.audit",
    "apps.adm",
    "apps.players",
    "apps.wallet",
    "apps.compliance",
    "apps.conto",
    "apps.aml",
    "apps.cashier",
    "apps.games",
    "apps.matches",
    "apps.play",
    "apps.tables",
    "apps.tournaments",
    "apps.chat",
    "apps.rankings",
    "apps.review",
    "apps.lobby",
    "apps.demo",
    "apps.ops",
    "apps.backoffice",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "apps.common.middleware.ApiLanguageMiddleware",
    "apps.common.middleware.BadInputMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "apps.common.otp.StaffOtpMiddleware",  # regulation.md §10: staff pages need a verified second factor
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "apps.players.access_log.DeviceCookieMiddleware",  # regulation.md §4.3: the device id the access log names
    "apps.players.account_state.ContoStateMiddleware",  # regulation.md §1.5: blocked, closed, dormant
    "apps.players.game_session.GameSessionMiddleware",  # regulation.md §4.1: game sessions and their timeout
    "apps.players.middleware.NicknameRequiredMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked login into apps.players.logins.lockout_response
    "apps.common.middleware.ServiceOutageMiddleware",  # Redis/broker unreachable under a view: 503, logged once
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.players.context_processors.player",
                "apps.conto.context_processors.regulation",
            ],
        },
    },
    {
        # a match's fragments, drawn after every move: Jinja2 draws them in half the CPU of
        # Django's engine (issue 30, bench/README.md); apps/play/jinja.py
        "NAME": "fragments",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "apps.play.jinja.environment"},
    },
]
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),  # reuse connections: sockets query often
        conn_health_checks=True,
    )
}
#: PostgreSQL: each process keeps a bounded pool of connections (Django's psycopg pool) instead of
#: one kept connection per thread (under daphne every request thread kept its own: 40 parallel
#: GETs left 56 open and the server refused clients). A process never holds more than
#: DB_POOL_MAX_SIZE; a request waits up to DB_POOL_TIMEOUT seconds for a free one. Size it so
#: that the pools of every process fit PostgreSQL's max_connections (README, "Connections").
#: MAZZIERE_DB_POOL_MAX=0 turns the pool off (a connection per thread, DJANGO_CONN_MAX_AGE).
DB_POOL_MIN_SIZE = int(os.environ.get("MAZZIERE_DB_POOL_MIN", "1"))
DB_POOL_MAX_SIZE = int(os.environ.get("MAZZIERE_DB_POOL_MAX", "10"))
DB_POOL_TIMEOUT = float(os.environ.get("MAZZIERE_DB_POOL_TIMEOUT", "10"))
if DATABASES["default"]["ENGINE"].endswith("postgresql") and DB_POOL_MAX_SIZE > 0:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections (Django requires 0 with it)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(DB_POOL_MIN_SIZE, DB_POOL_MAX_SIZE), "max_size": DB_POOL_MAX_SIZE,
        "timeout": DB_POOL_TIMEOUT,
        "max_idle": 300,  # an idle connection above min_size is closed after 5 minutes
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # several processes (daphne, the Celery worker and beat) share the file
    DATABASES["default"]["OPTIONS"] = {"timeout": 30, "transaction_mode": "IMMEDIATE",
                                       "init_command": "PRAGMA journal_mode=WAL;"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

#: django-axes first: it refuses a locked username or IP before any password is checked
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# -- login limits (platform.md §12): 10 failures a username, 50 an IP, within 15 minutes ------
AXES_FAILURE_LIMIT = 10
LOGIN_IP_FAILURE_LIMIT = 50
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_HANDLER = "apps.players.logins.LoginLimitsHandler"
AXES_LOCKOUT_CALLABLE = "apps.players.logins.lockout_response"
AXES_CLIENT_IP_CALLABLE = "apps.players.logins.client_ip"
AXES_RESET_ON_SUCCESS = False  # a login of one's own must not wipe an IP's failures
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "players:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italiano")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Rome"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
#: daphne serves static files itself (ASGIStaticFilesHandler) unless a proxy does
SERVE_STATIC = os.environ.get("MAZZIERE_SERVE_STATIC", "1") == "1"

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 times reads out after 5 s by default, exactly how long channels-redis
            # blocks waiting for a message: an idle socket would die with 1011. Wait longer.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                       "prefix": os.environ.get("MAZZIERE_CHANNEL_PREFIX", "mazziere")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

#: The in-process layer does not cross processes: what the Celery worker changes (robot
#: moves, timeouts, the next match) would never reach daphne's sockets. Without Redis,
#: each table socket therefore also looks for changes itself, this often (seconds).
TABLE_POLL_SECONDS = float(os.environ.get("MAZZIERE_TABLE_POLL_SECONDS", "0" if REDIS_URL else "1"))
#: the dashboard's staff socket folds a burst of online changes into one push per this many
#: seconds; without Redis it also re-reads every BACKOFFICE_ONLINE_POLL_SECONDS (other processes)
BACKOFFICE_ONLINE_COALESCE_SECONDS = float(os.environ.get("MAZZIERE_BACKOFFICE_ONLINE_COALESCE_SECONDS", "1"))
BACKOFFICE_ONLINE_POLL_SECONDS = float(os.environ.get("MAZZIERE_BACKOFFICE_ONLINE_POLL_SECONDS",
                                                      "0" if REDIS_URL else "10"))

#: DRF's throttles count in the cache: shared through Redis when there is one
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": os.environ.get("MAZZIERE_CHANNEL_PREFIX", "mazziere")}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# -- Celery -----------------------------------------------------------------------
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": 3600}
else:
    _broker_dir = VAR_DIR / "celery-broker"
    for sub in ("queue", "processed", "control"):
        (_broker_dir / sub).mkdir(parents=True, exist_ok=True)
    from apps.common.kombu_fs import register as _register_fs_broker

    _register_fs_broker()
    CELERY_BROKER_URL = "mazzierefs://localhost/"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "store_processed": False,
        "control_folder": str(_broker_dir / "control"),
    }
#: countdowns longer than this are never used for timers (they would be redelivered)
CELERY_VISIBILITY_TIMEOUT = CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
#: Celery's Django fixup closes every database connection before and after each task unless
#: told to reuse them: a robot move then paid a new PostgreSQL backend (issue 15: 12 % of the
#: worker, and the server's fork). Reused here for this many tasks; ``config/celery.py`` still
#: drops a connection that failed or outlived ``CONN_MAX_AGE``, as a request does.
CELERY_DB_REUSE_MAX = 10_000
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER", "0") == "1"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "tick": {"task": "apps.common.tasks.tick", "schedule": timedelta(seconds=5)},
    # regulation.md §11.1: daily at 03:30 Rome (CELERY_TIMEZONE)
    "regulation_nightly": {"task": "apps.conto.tasks.regulation_nightly", "schedule": crontab(hour=3, minute=30)},
}
CELERY_TIMEZONE = TIME_ZONE

# -- REST API ---------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.players.authentication.OtpAwareTokenAuthentication",  # regulation.md §10
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "apps.common.api.CheckedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "apps.common.api.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "apps.common.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # platform.md §12 (it supersedes §0.7): per user and per anonymous IP, 429 throttled
    "DEFAULT_THROTTLE_CLASSES": ["apps.common.api.UserThrottle", "apps.common.api.AnonThrottle"],
    "DEFAULT_THROTTLE_RATES": {"user": "600/min", "anon": "120/min"},
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Mazziere API",
    # names exactly the endpoints served (tests/common/test_schema.py checks it both ways)
    "DESCRIPTION": (
        "The REST API of the Mazziere card-games platform (API.md and platform.md give the rules). "
        "Errors are `{\"detail\", \"code\"}`; money is integer cents, credits are integers.\n\n"
        "- **Auth**: `/api/auth/token/` (username and password for a token; login limits apply).\n"
        "- **Two-factor** (staff, regulation.md §10): `/api/me/2fa/devices/`, `/api/me/2fa/confirm/`, "
        "`/api/auth/2fa/verify/`, `/api/me/2fa/recovery-codes/`, `/api/staff/{id}/2fa/reset/` (superuser).\n"
        "- **Me** (a player): `/api/me/`, `/api/me/nickname/`, `/api/me/wallet/`, `/api/me/ledger/`, "
        "`/api/me/credits/recharge/`, `/api/me/chat/` (hide the table chat for oneself).\n"
        "- **Players** (staff): `/api/players/`, `/api/players/{id}/adjustments/`, `/api/players/{id}/passport/`, "
        "`/api/players/{id}/nickname/`, `/api/players/{id}/ledger/`.\n"
        "- **Tables**: `/api/tables/`, `/api/tables/{id}/`, `/api/tables/{id}/sit/`, `/api/tables/{id}/leave/`, "
        "`/api/tables/{id}/robot/`, `/api/tables/{id}/invite/`, `/api/tables/{id}/watch/`, `/api/tables/{id}/ready/`, `/api/tables/{id}/sit-out/`.\n"
        "- **Matches**: `/api/matches/{id}/`, `/api/matches/{id}/actions/`, `/api/matches/{id}/cancel-vote/`, "
        "`/api/matches/{id}/log/`.\n"
        "- **Tournaments**: `/api/tournaments/`, `/api/tournaments/{id}/`, `/api/tournaments/{id}/preview/`, "
        "`/api/tournaments/{id}/register/`, `/api/tournaments/{id}/unregister/`, `/api/tournaments/{id}/start/`, "
        "`/api/tournaments/{id}/cancel/`, `/api/tournaments/{id}/standings/`, `/api/tournaments/{id}/matches/`, "
        "`/api/tournaments/{id}/registrations/pause/`, `/api/tournaments/{id}/registrations/resume/` (operators).\n"
        "- **Rankings**: `/api/rankings/{game}/`.\n"
        "- **Chat and sanctions** (staff): `/api/chat/messages/`, `/api/chat/messages/{id}/hide/`, "
        "`/api/sanctions/`, `/api/sanctions/{id}/lift/`.\n"
        "- **Conto di gioco** (regulation.md §1-§4, §9, §11): `/api/auth/signup/` (anonymous), "
        "`/api/me/account/`, `/api/me/account/close/`, `/api/players/{id}/account/status/`, `/api/me/limits/`, `/api/me/limits/{key}/pending/`, `/api/me/self-exclusions/`, "
        "`/api/me/self-exclusions/{id}/revoke/`, `/api/me/session/`, `/api/me/sessions/`, "
        "`/api/me/session/reality-check/`, `/api/me/documents/`; KYC review: `/api/kyc/queue/`, "
        "`/api/kyc/{player_id}/approve/`, `/api/kyc/{player_id}/resubmit/`, `/api/kyc/{player_id}/reject/`, "
        "`/api/kyc/documents/{id}/`; staff: `/api/players/{id}/account/`, `/api/players/{id}/self-exclusions/`, "
        "`/api/players/{id}/notes/`, `/api/players/{id}/sessions/`, `/api/audit/`.\n"
        "- **Cashier** (regulation.md §5): `/api/me/instruments/`, `/api/me/deposits/`, `/api/me/withdrawals/`, "
        "`/api/me/withdrawals/{id}/cancel/` (players); `/api/cashier/callback/{provider}/` (the provider, signed); "
        "`/api/withdrawals/`, `/api/withdrawals/{id}/review/`, `/api/withdrawals/{id}/approve/`, "
        "`/api/withdrawals/{id}/reject/` (finance).\n"
        "- **Anti-money-laundering** (§6): `/api/aml/signals/`, `/api/aml/cases/`, `/api/aml/cases/{id}/`, "
        "`/api/aml/cases/{id}/review/`, `/api/aml/cases/{id}/close/`, `/api/aml/cases/{id}/notes/`.\n"
        "- **ADM** (§7.5, staff): `/api/adm/summary/`, `/api/adm/messages/`, `/api/adm/reconciliation/`.\n"
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# -- the platform's own settings ---------------------------------------------------
TRUSTED_PROXIES: list[str] = [p for p in os.environ.get("MAZZIERE_TRUSTED_PROXIES", "").split(",") if p]
CHAT_FLAG_WORDS: list[str] = ["truffa", "imbroglio", "cheat", "scam"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"client_error_brief": {"()": "apps.common.logging.ClientErrorWithoutTraceback"},
                "outage_once": {"()": "apps.common.logging.OutageLoggedOnce"}},
    # a refused request (403, 400) is one line, not a traceback (apps/common/logging.py):
    # on django.request itself, and on the handler for django.security.<Kind> records
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["client_error_brief"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {"django.request": {"filters": ["client_error_brief", "outage_once"]}},
}

CSRF_FAILURE_VIEW = "apps.common.views.csrf_failure"

# -- tables (platform.md §8) --------------------------------------------------------
#: pause between two robot moves, so people can follow them (0: robots play at once)
ROBOT_MOVE_DELAY = float(os.environ.get("MAZZIERE_ROBOT_MOVE_DELAY", "0.8"))
DISCONNECT_GRACE_SECONDS = 180
#: a tournament match starts on its own (platform.md §5.7): each player's turn clock waits this
#: long for them to sit (open the match's page) before it runs without them
TOURNAMENT_SEAT_GRACE_SECONDS = 60
NEXT_MATCH_CONFIRM_SECONDS = 60  # platform.md §8.1: confirm the next match within this
POKER_NEXT_HAND_SECONDS = 5  # platform.md §8.5: the next poker hand is dealt this long after the last
POKER_SIT_OUT_STAND_UP_SECONDS = 300  # platform.md §8.5: sitting out this long stands a player up
SETTINGS_POSTPONE_SECONDS = 15
TABLE_IDLE_CLOSE_SECONDS = 300
CANCEL_VOTE_SECONDS = 60
AWAY_AFTER_TIMEOUTS = 3
WS_MAX_FRAME_BYTES = 8 * 1024
#: a frame above this (no page sends one) gets bad_frame and closes the socket with 1009
#: (apps/common/sockets.py); daphne itself refuses above WS_SERVER_MAX_MESSAGE_BYTES, also with 1009
WS_CLOSE_FRAME_BYTES = 64 * 1024
WS_SERVER_MAX_MESSAGE_BYTES = 4 * 1024 * 1024
WS_MAX_FRAMES_PER_SECOND = 20
WS_ABUSE_LIMIT = 5
#: the dashboard's staff socket folds a burst of online changes into one push per this many seconds
#: deepest JSON nesting a socket frame may have (platform.md §10.1)
WS_MAX_FRAME_DEPTH = 32
#: connection leases (platform.md §10.1): a socket renews its row this often; the tick
#: removes a row not renewed for WS_LEASE_SECONDS (its process crashed or was killed)
WS_LEASE_RENEW_SECONDS = float(os.environ.get("MAZZIERE_WS_LEASE_RENEW_SECONDS", "20"))
WS_LEASE_SECONDS = 60
#: this server's name: a daphne that starts with a name removes the connection rows its
#: earlier processes of the same name left behind. ``serve`` names its daphne host:port;
#: give each hand-run daphne its own (two live processes must never share one).
SERVER_NAME = os.environ.get("MAZZIERE_SERVER_NAME", "")
#: daphne and the Celery worker build what they keep (views, catalogues, templates) at start,
#: then freeze it out of the garbage collector's full passes (apps/common/collector.py)
SERVER_GC_SETTLE = os.environ.get("MAZZIERE_SERVER_GC_SETTLE", "1") == "1"
CHAT_MAX_LENGTH = 300
CHAT_RATE = (5, 10)  # at most 5 messages in any 10 seconds per user and room

#: regulation.md §10: staff need a verified TOTP second factor (False in config/settings/test.py;
#: the browser tests' served processes set MAZZIERE_STAFF_OTP_REQUIRED=0)
STAFF_OTP_REQUIRED = os.environ.get("MAZZIERE_STAFF_OTP_REQUIRED", "1") != "0"
OTP_TOTP_ISSUER = "Mazziere"


# --- regulation.md: the conto di gioco (§1) -----------------------------------------------
# Every setting is read at each use (getattr(settings, ...)), never copied at import (§0.1).
#: §1.6: legacy accounts (players made before the conto) keep money play
LEGACY_ACCOUNTS_MAY_PLAY = True
#: §1.6 legacy mode: an in_verifica conto may deposit and play until sign-up + N days (off: the current regime)
KYC_PLAY_BEFORE_VERIFICATION = False
KYC_PLAY_BEFORE_VERIFICATION_DAYS = 30
#: §1.3: where identity documents are kept (outside STATIC_ROOT and every served path), and the size cap
KYC_DOCUMENTS_DIR = os.environ.get("MAZZIERE_KYC_DOCUMENTS_DIR", str(VAR_DIR / "kyc"))
KYC_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024
#: §1.7: pending submissions older than this are overdue (a red row)
KYC_REVIEW_SLA_HOURS = 72
#: §1.4, §11.1: an expired approved document suspends the conto after N days; notice N days before
DOCUMENT_EXPIRED_GRACE_DAYS = 0
DOCUMENT_EXPIRY_NOTICE_DAYS = 30
#: §1.8: idle conti become dormant after N calendar months
DORMANT_AFTER_MONTHS = 36
#: §0.4: how long regulated records are kept (nothing here deletes them)
RETENTION_YEARS = 10
#: §2.1: the first value of a day limit may not exceed these (young: aged 18-24)
FIRST_ACTIVATION_CAPS = {"deposit_day": 20000, "spend_day": 10000, "time_day": 180}
YOUNG_FIRST_ACTIVATION_CAPS = {"deposit_day": 5000, "spend_day": 5000, "time_day": 120}
#: §3.4: the national self-exclusion registry's provider (dotted path); the local stand-in by default
SELF_EXCLUSION_REGISTRY = "apps.conto.registry.LocalRegistry"
#: §7.2: the ADM transport (dotted path): the local simulator by default
ADM_TRANSPORT = "apps.adm.transport.Simulator"
ADM_SYNC_TIMEOUT_SECONDS = 5
ADM_SIMULATOR_REJECT: list[str] = []
ADM_SIMULATOR_UNAVAILABLE = False
ADM_RETRY_BASE_SECONDS = 30
ADM_RETRY_MAX_SECONDS = 3600
ADM_RECONCILE_HOURS = 24
ADM_CONCESSION_CODE = os.environ.get("MAZZIERE_ADM_CONCESSION_CODE", "GAD 15000")
#: §2.2: a raised limit takes effect after N days
LIMIT_RAISE_DELAY_DAYS = 7
#: §3: self-exclusion periods, and revoking an indefinite one (calendar months, then a delay)
SELF_EXCLUSION_MIN_DAYS = 7
SELF_EXCLUSION_MAX_DAYS = 270
SELF_EXCLUSION_REVOKE_AFTER_MONTHS = 6
SELF_EXCLUSION_REVOKE_DELAY_DAYS = 7
#: §4.1, §4.2, §2.5: game sessions end after N idle minutes; a reality check every N minutes; the time
#: limit warns N minutes before
SESSION_INACTIVITY_MINUTES = 30
REALITY_CHECK_MINUTES = 60
TIME_LIMIT_WARNING_MINUTES = 5

# -- regulation.md §5, §6, §8: cashier, anti-money-laundering, regimes (read at each use) --------
CASHIER_PROVIDER = os.environ.get("MAZZIERE_CASHIER_PROVIDER", "apps.cashier.providers.TestProvider")
CASHIER_TEST_SECRET = os.environ.get("MAZZIERE_CASHIER_TEST_SECRET", "")  # empty: a random key kept in var/
WITHDRAWAL_WINNINGS_HOLD_HOURS = 0
AML_WINDOW_DAYS = 30
AML_LOW_PLAY_MIN_DEPOSIT_CENTS = 5_000
AML_LOW_PLAY_PERCENT = 30
AML_MAX_INSTRUMENTS = 3
AML_PAIR_MIN_MATCHES = 5
AML_PAIR_MIN_NET_CENTS = 5_000
#: the bank's share per game before the cash regime's cap (empty: each game's own, seeds 002/004)
TABLE_BANK_PERCENT: dict[str, int] = {}
REGIME_CASH_MAX_BANK_PERCENT = 10
REGIME_CASH_SESSION_MAX_CENTS = 100_000
REGIME_TORNEO_ENTRY_MAX_CENTS = 10_000
REGIME_TORNEO_MIN_POOL_PERCENT = 80
ADM_RECONCILE_HOURS = 24

#: /health/ says the worker is down when the tick has not run for this long (it runs every 5 s)
HEALTH_WORKER_STALE_SECONDS = int(os.environ.get("MAZZIERE_HEALTH_WORKER_STALE_SECONDS", "60"))
