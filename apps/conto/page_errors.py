"""A domain refusal as the sign-up and identity pages show it: each message beside its field."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.common.errors import DomainError

#: where a check's refusal belongs on the form (regulation.md §1.1's checks 2-5)
FIELD_OF_CODE = {"codice_fiscale_invalid": "codice_fiscale", "codice_fiscale_taken": "codice_fiscale",
                 "underage": "birth_date"}


def form_errors(exc: DomainError) -> tuple[dict[str, list[str]], str | None]:
    """(messages per field, a message for the top of the form)."""
    fields: dict[str, list[str]] = {}
    if exc.code == "validation_error":
        for name, messages in (exc.extra.get("fields") or {}).items():
            fields[name] = [str(m) for m in messages]
        return fields, _("Some fields need fixing: see the messages next to them.")
    if exc.code == "codice_fiscale_mismatch":
        fields["codice_fiscale"] = [exc.detail]
        for name in exc.extra.get("fields") or []:
            fields.setdefault(name, []).append(_("Does not agree with the codice fiscale."))
        return fields, None
    if exc.code in FIELD_OF_CODE:
        fields[FIELD_OF_CODE[exc.code]] = [exc.detail]
        return fields, None
    return fields, exc.detail


def field_rows(groups: list[tuple[Any, list[tuple]]], values: dict[str, str],
               errors: dict[str, list[str]], hints: dict[str, str]) -> list[dict[str, Any]]:
    """What the template draws: each section with its fields, value, error and hint."""
    rows = []
    for title, fields in groups:
        items = []
        for name, label, kind, attrs in fields:
            attrs = dict(attrs)
            default = attrs.pop("value", "")
            items.append({"name": name, "id": "f-" + name.replace(".", "-").replace("_", "-"), "label": label,
                          "kind": kind, "choices": attrs.pop("choices", None), "attrs": attrs,
                          "value": values.get(name, default) if kind != "password" else "",
                          "errors": errors.get(name, []), "hint": hints.get(name, "")})
        rows.append({"title": title, "fields": items})
    return rows
