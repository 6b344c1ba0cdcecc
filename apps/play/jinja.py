"""The Jinja2 environment of a match's fragments (``jinja2/tables/``): the board, the seats, the
timer, the settings line and a seat's controls, rendered after every move.

They are Jinja2 templates because they are the hot path of a move: the same fragments draw in
half the CPU of Django's engine (issue 30, ``bench/move_cost.py --templates``). Every other page
stays a Django template; a page that shows a fragment includes it with ``{% fragment %}``
(``templatetags/table_tags.py``). What the fragments call is what the Django card tags call, so
both engines draw the same cards, words and money."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template import engines
from django.urls import reverse
from django.utils.html import json_script
from django.utils.translation import get_language, trans_real
from markupsafe import Markup

from apps.common.templatetags import money
from jinja2 import ChainableUndefined, Environment, TemplateNotFound, pass_context

from .templatetags import card_games, cards, table_tags

#: the engine's name in ``settings.TEMPLATES``
ENGINE = "fragments"


def _facts(context: Any) -> tuple[str, str]:
    """The deck and language of this render, found once (a board draws dozens of cards)."""
    facts = context.get("_card_facts")
    if facts is None:
        facts = context.vars["_card_facts"] = (cards.deck_in(context), get_language())
    return facts


@pass_context
def card(context: Any, code: str, face: str = "italian", css: str = "") -> Markup:
    """``{{ card(code, face, "small") }}``: one card face (the ``{% card %}`` tag's)."""
    return Markup(cards.card_svg(str(code), face, css, *_facts(context)))  # noqa: S704 (fixed markup)


@pass_context
def card_back(context: Any, css: str = "", face: str = "") -> Markup:
    return Markup(cards.card_back_svg(css, face or context.get("face") or "italian", *_facts(context)))  # noqa: S704


@pass_context
def card_backs(context: Any, count: Any, face: str = "") -> Markup:
    """A fanned row of ``count`` backs (the ``{% card_backs %}`` tag's)."""
    return Markup(cards.card_backs_html(count, face or context.get("face") or "italian", *_facts(context)))  # noqa: S704


def _catalog(context: Any) -> Any:
    """The active language's catalogue, found once a render: Django's ``gettext`` looks it up
    again for every string (a context-local read), and a table's fragments ask for about
    seventy strings a render (issue 30: a tenth of a render's CPU)."""
    found = context.get("_catalog")
    if found is None:
        found = context.vars["_catalog"] = trans_real.catalog()
    return found


@pass_context
def _gettext(context: Any, message: str) -> str:
    """Django's ``gettext`` for the fragments (``{{ _("...") }}``), its catalogue read once a render."""
    return _catalog(context).gettext(message) if message else message  # "" is not the catalogue's header


@pass_context
def _ngettext(context: Any, singular: str, plural: str, number: int) -> str:
    return _catalog(context).ngettext(singular, plural, number)


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    """Django's Jinja2 backend calls this with its options (autoescape on, the loader)."""
    options["undefined"] = ChainableUndefined  # as Django's templates: a missing name draws ""
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)
    env.globals.update(card=card, card_back=card_back, card_backs=card_backs, url=url,
                       game_controls=card_games.game_controls, poker_pots=card_games.poker_pots,
                       poker_showdown=card_games.poker_showdown)
    env.filters.update(team_names=table_tags.team_names, cash_stake=table_tags.cash_stake,
                       get_item=table_tags.get_item, suit_name=cards.suit_name, euro=money.euro,
                       amount_in=money.amount_in, pick_rule=card_games.pick_rule, card_label=card_games.card_label,
                       waste_shown=card_games.waste_shown, at=card_games.at, json_script=json_script)
    return env


def fragment_render(name: str, context: dict[str, Any]) -> str:
    """One fragment template drawn with ``context``."""
    return engines[ENGINE].env.get_template(name).render(context)


@lru_cache(maxsize=256)
def fragment_exists(name: str) -> bool:
    """Whether the fragments hold ``name`` (a game's own board), asked once a process."""
    try:
        engines[ENGINE].env.get_template(name)
    except TemplateNotFound:
        return False
    return True
