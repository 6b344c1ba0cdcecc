"""Small helpers of the review pages."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from apps.common.templatetags.money import euro

from ..links import match_url

register = template.Library()


@register.filter
def get_item(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.simple_tag
def match_link(match_id: int) -> str:
    url = match_url(match_id)
    return format_html('<a href="{}">#{}</a>', url, match_id) if url else format_html("#{}", match_id)


@register.simple_tag
def amount(value: int, currency: str) -> str:
    return euro(value) if currency == "cash" else f"{value} cr"
