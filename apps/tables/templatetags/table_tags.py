"""Small template helpers of the table page."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` in a template (a card's controls by its code); None when absent."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def team_names(name: Any) -> str:
    """A team's names ("Mario_88 & Robot Bice") that never break inside a nickname: on a wide
    sheet they read "A & B", on a phone's (table.css) one name a line, so that the sheet keeps
    every column in sight."""
    parts = [format_html('<span class="team-name">{}</span>', part) for part in str(name or "").split(" & ")]
    return mark_safe('<span class="team-amp"> &amp; </span>'.join(parts))  # noqa: S308 (parts escaped by format_html)
