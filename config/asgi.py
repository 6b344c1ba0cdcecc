"""ASGI entry point: HTTP through Django, websockets through Channels.

Sockets sit behind SiteOriginValidator(AuthMiddlewareStack(...)) (platform.md §10.1): the
whole origin, port included, must be a configured or the site's own one. Inside, a socket
speaks its page's language (``SocketLanguageMiddleware``).
"""

import logging
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connections  # noqa: E402

from apps.common.collector import collector_settle, server_warm  # noqa: E402
from apps.common.origins import SiteOriginValidator  # noqa: E402
from apps.common.socket_language import SocketLanguageMiddleware  # noqa: E402
from apps.common.sockets import daphne_close_codes  # noqa: E402
from apps.tables.services import socket_server_started  # noqa: E402
from config.ws_urls import websocket_urlpatterns  # noqa: E402

daphne_close_codes()  # a frame too large closes with 1009, not a dropped connection (apps/common/sockets.py)
http_app = django_asgi_app
if settings.SERVE_STATIC:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter({
    "http": http_app,
    "websocket": SiteOriginValidator(AuthMiddlewareStack(SocketLanguageMiddleware(URLRouter(websocket_urlpatterns)))),
})

if settings.SERVER_NAME:
    # A server that starts removes the connection rows its earlier processes left behind
    # (platform.md §10.1): a killed daphne never ran their disconnects. Here, before the
    # reactor runs, the ORM is still synchronous.
    try:
        socket_server_started(server=settings.SERVER_NAME)
    except Exception:  # a database that is not up yet: the tick's lease expiry removes them later
        logging.getLogger(__name__).exception("connection rows of %s not cleared", settings.SERVER_NAME)

if settings.SERVER_GC_SETTLE:
    # what the server keeps is built now and frozen out of the collector's full passes:
    # they paused every socket of the process for 90-160 ms every few seconds (issue 15)
    server_warm()
    collector_settle()

# what the start read went through the main thread's connection: give it back to the pool
# (with the PostgreSQL pool, one kept by the reactor's thread would be a slot lost for good)
connections.close_all()
