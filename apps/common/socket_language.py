"""The language of a websocket: the page's, so live fragments match the page they update.

Django's ``LocaleMiddleware`` runs for HTTP only; without this a socket would render every
fragment and error in the default language (Italian) even on an English page. The language
comes from the same places as a page's: the ``django_language`` cookie the language switch
sets, else the browser's Accept-Language, else ``LANGUAGE_CODE``. It stays active for the
socket's whole life (the consumer runs in the context this call sets; its database threads
copy that context).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real


def socket_language(scope: dict[str, Any]) -> str:
    """The language a page with these cookies and headers would be in."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in supported:
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in trans_real.parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class SocketLanguageMiddleware:
    """ASGI middleware for websockets; it sits inside ``AuthMiddlewareStack`` (cookies parsed)."""

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        language = socket_language(scope)
        with translation.override(language):
            return await self.inner({**scope, "language": language}, receive, send)
