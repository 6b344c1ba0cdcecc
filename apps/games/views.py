"""Game pages: the lobby of games on offer and each game's rules."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe

from .engines import ENGINES
from .selectors import game_catalogue

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


def lobby(request):
    """The lobby: the games on offer (tables and tournaments join it as they land)."""
    return render(request, "lobby.html", {"games": game_catalogue()})


@lru_cache(maxsize=32)
def _rules_html(game: str) -> str:
    """A game's rules file as HTML (files of this repository, so trusted markup)."""
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    return markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists"])


def rules(request, game: str):
    """The rules of one game, rendered from ``docs/rules/<game>.md``."""
    if game not in ENGINES or not (RULES_DIR / f"{game}.md").is_file():
        raise Http404
    return render(request, "games/rules.html", {
        "game": ENGINES[game], "games": game_catalogue(),
        "rules": mark_safe(_rules_html(game)),  # noqa: S308 (the repository's own rules files)
    })
