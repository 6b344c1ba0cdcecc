"""Small template helpers of the table page."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` in a template (a card's controls by its code); None when absent."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
