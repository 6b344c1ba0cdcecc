"""Template filters for the conto's pages."""

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_datetime

register = template.Library()


@register.filter
def when(value: str | None) -> str:
    """An ISO instant from the API shapes as a person reads it: dd/mm/yyyy HH:MM, Rome time."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%d/%m/%Y %H:%M")
