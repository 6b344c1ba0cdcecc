"""``{% fragment "tables/_board.html" %}``: a match fragment (a Jinja2 template of the "fragments"
engine, ``apps/play/jinja.py``) drawn inside a Django page, from the page's own context."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def fragment(context: template.Context, name: str, **extra: Any) -> SafeString:
    jinja = engines["fragments"].env  # type: ignore[attr-defined]
    return mark_safe(jinja.get_template(name).render({**context.flatten(), **extra}))  # noqa: S308 (autoescaped)
