"""ASGI entry point: HTTP through Django, websockets through Channels.

Sockets sit behind SiteOriginValidator(AuthMiddlewareStack(...)) (platform.md §10.1): the
whole origin, port included, must be a configured or the site's own one.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from apps.common.origins import SiteOriginValidator  # noqa: E402
from config.ws_urls import websocket_urlpatterns  # noqa: E402

http_app = django_asgi_app
if settings.SERVE_STATIC:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter({
    "http": http_app,
    "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
