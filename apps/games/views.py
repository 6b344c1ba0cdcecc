"""Game pages: each game's rules (the lobby is ``apps.lobby``'s)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils import translation
from django.utils.safestring import mark_safe

from .engines import ENGINES
from .selectors import game_catalogue

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


#: sections of a rules file written for the engine's developers, not for players
DEVELOPER_SECTIONS = re.compile(r"^(sources|actions|view|robot)\b", re.IGNORECASE)


def rules_for_players(text: str) -> str:
    """The rules file without its title and the developers' sections (sources, action JSON,
    the engine's view, the robot): what a player reads before sitting down."""
    kept, keep = [], False  # the title and the engine's identity before the first section go too
    for line in text.splitlines():
        if line.startswith("## "):
            title = re.sub(r"^##\s*[\d.]*\s*", "", line)
            keep = not DEVELOPER_SECTIONS.match(title)
            line = f"## {title}"  # the numbering has holes once sections are left out
        if keep:
            kept.append(line)
    return "\n".join(kept)


def rules_file(game: str, language: str) -> tuple[Path, str]:
    """The rules file of ``game`` for ``language`` and the language it is written in: the
    translation ``docs/rules/<language>/<game>.md`` where there is one, else the English."""
    translated = RULES_DIR / language / f"{game}.md"
    if language != "en" and translated.is_file():
        return translated, language
    return RULES_DIR / f"{game}.md", "en"


@lru_cache(maxsize=64)
def _rules_html(path: Path) -> str:
    """A rules file as HTML (files of this repository, so trusted markup)."""
    text = path.read_text(encoding="utf-8")
    return markdown.markdown(rules_for_players(text), extensions=["tables", "fenced_code", "sane_lists"])


def rules(request, game: str):
    """The rules of one game in the page's language (``docs/rules/it/<game>.md`` on Italian
    pages, ``docs/rules/<game>.md`` on English ones)."""
    if game not in ENGINES or not (RULES_DIR / f"{game}.md").is_file():
        raise Http404
    path, written_in = rules_file(game, translation.get_language() or "it")
    return render(request, "games/rules.html", {
        "game": ENGINES[game], "games": game_catalogue(), "rules_language": written_in,
        "rules": mark_safe(_rules_html(path)),  # noqa: S308 (the repository's own rules files)
    })
