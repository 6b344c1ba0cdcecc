"""Bad input caught once, before any view (platform.md §12).

A NUL byte cannot be stored by PostgreSQL, a lone surrogate cannot be encoded as UTF-8,
JSON nested thousands deep overflows Python's recursion, and an integer beyond any
column's range overflows the database: each used to end in a 500 wherever it reached
the ORM. Here they become a ``BadInput`` naming the field, which the middleware and the
REST parser render as 400 ``validation_error``.

Messages are in the active language: the API is always English (``ApiLanguageMiddleware``),
so its answers keep their contract, while a page or a socket says it in its player's words.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

#: JSON deeper than this is refused (§12)
MAX_JSON_DEPTH = 32
#: no field of the API holds an integer beyond this (2**53: what every JSON reader keeps exact);
#: fields with a smaller range check it themselves (stakes, adjustments)
MAX_JSON_INT = 2**53


class BadInput(ValueError):
    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def text_problem(value: str) -> str | None:
    """Why a piece of text cannot be accepted, or None."""
    if "\x00" in value:
        return _("Contains a NUL character, which is not allowed.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _("Contains an unpaired surrogate, which is not valid text.")
    return None


def check_pairs(pairs: Iterable[tuple[str, str]], *, where: str = "") -> None:
    """Query parameters, form fields or headers: the first bad name or value raises."""
    for name, value in pairs:
        problem = text_problem(name)
        if problem:
            raise BadInput(f"{where}parameter name", problem)
        problem = text_problem(value)
        if problem:
            raise BadInput(f"{where}{name}", problem)


def json_depth_check(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse nesting deeper than ``limit`` before ``json.loads`` can recurse into it."""
    if text.count("[") + text.count("{") <= limit:
        return  # cannot be deeper: skip the scan (the usual small body)
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise BadInput("body", _("JSON nested deeper than %(limit)s levels is not accepted.") % {"limit": limit})
        elif char in "]}":
            depth -= 1


def _walk(value: Any, path: str) -> None:
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            raise BadInput(path or "body", problem)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise BadInput(path or "body", _("The number is out of range."))
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            raise BadInput(path or "body", _("The number is out of range."))
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(key)
            if problem:
                raise BadInput(f"{path}.{key!a}" if path else "body", problem)
            _walk(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, f"{path}[{index}]" if path else f"[{index}]")


def _no_constant(name: str) -> Any:
    raise BadInput("body", _("%(name)s is not a JSON number.") % {"name": name})


def json_loads_checked(text: str, *, depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses deep nesting, NUL, lone surrogates and huge integers
    (request bodies here, socket frames in the table consumer)."""
    json_depth_check(text, depth)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise BadInput("body", _("The JSON is nested too deeply.")) from None
    except BadInput:
        raise
    except ValueError as exc:
        # the parser's reason is Python's English: kept where English is spoken (the API)
        raise BadInput("body", _("Malformed JSON: %(reason)s") % {"reason": exc} if translation.get_language() == "en"
                       else _("The JSON is not well formed.")) from None
    _walk(data, "")
    return data


def euros_to_cents(raw: Any) -> Any:
    """A page's euro amount ("12,50", "12.5", "1.000,00" is not one) as whole cents; None when
    empty; the text itself when it is not an amount, so the service's check names the field."""
    text = (raw or "").strip().replace(",", ".") if isinstance(raw, str) else ""
    if not text:
        return None
    try:
        euros = Decimal(text)
    except InvalidOperation:
        return raw
    if not euros.is_finite() or euros < 0 or euros != euros.quantize(Decimal("0.01")) or euros > 10**9:
        return raw
    return int(euros * 100)
