"""The websocket origin check: the whole origin, port included (platform.md §10.1).

Channels' ``AllowedHostsOriginValidator`` compares only the host with ``ALLOWED_HOSTS``,
so a page served from any port of an allowed host (``http://127.0.0.1:9999``, another
program on the player's machine) could open a player's table socket with their session
cookie. This validator accepts an origin whose scheme, host and port equal one of
``CSRF_TRUSTED_ORIGINS`` (a ``*.`` wildcard host as Django reads it) or the site's own
origin: the scheme of the request (``wss`` is ``https``) and its ``Host`` header, when
that host is an allowed one. This is the comparison Django's CSRF check makes for forms.
"""

from __future__ import annotations

from urllib.parse import urlparse, urlsplit

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _secure(scope) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:  # ("HTTP_X_FORWARDED_PROTO", "https") as Django reads it for requests
        name, expected = proxy
        header = name.lower().removeprefix("http_").replace("_", "-").encode()
        value = _header(scope, header)
        return value is not None and value.split(",")[0].strip() == expected
    return False


def configured_origins() -> list[str]:
    """``CSRF_TRUSTED_ORIGINS`` as channels' patterns: ``https://*.example.com`` becomes
    ``https://.example.com`` (the domain and its subdomains)."""
    patterns = []
    for origin in settings.CSRF_TRUSTED_ORIGINS:
        parts = urlsplit(origin)
        netloc = parts.netloc[1:] if parts.netloc.startswith("*.") else parts.netloc
        patterns.append(f"{parts.scheme}://{netloc}".lower())
    return patterns


def site_origin(scope) -> str | None:
    """The origin this request was made to, if its ``Host`` is an allowed host."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS or (["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    if not domain or not validate_host(domain, allowed):
        return None
    return f"{'https' if _secure(scope) else 'http'}://{host}".lower()


class SiteOriginValidator(OriginValidator):
    """Refuses a socket whose ``Origin`` is not exactly a configured or the site's own
    origin (scheme, host, port); a missing or unreadable ``Origin`` is refused too."""

    def __init__(self, application) -> None:
        super().__init__(application, allowed_origins=())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator guards websockets only")
        origin = _header(scope, b"origin")
        parsed = urlparse(origin) if origin else None
        own = site_origin(scope)
        allowed = configured_origins() + ([own] if own else [])
        if parsed is not None and any(self.match_allowed_origin(parsed, p) for p in allowed):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
