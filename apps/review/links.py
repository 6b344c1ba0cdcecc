"""Where a review page links a match: the staff review in the admin (a match in play shows
only its public view there, platform.md §8.2)."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse


def match_url(match_id: int | None) -> str | None:
    if not match_id:
        return None
    for name in ("admin:matches_match_replay", "admin:tables_match_replay"):
        try:
            return reverse(name, args=[match_id])
        except NoReverseMatch:
            continue
    return None
