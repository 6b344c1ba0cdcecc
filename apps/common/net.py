"""Client addresses, as recorded with chat lines and match seats (platform.md §7.1)."""

from __future__ import annotations

from django.conf import settings


def client_ip(remote_addr: str | None, forwarded_for: str | None) -> str | None:
    """The socket peer, or the first X-Forwarded-For hop when the peer is a trusted proxy."""
    if remote_addr and forwarded_for and remote_addr in settings.TRUSTED_PROXIES:
        first = forwarded_for.split(",")[0].strip()
        return first or remote_addr
    return remote_addr


def request_ip(request) -> str | None:
    return client_ip(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))
