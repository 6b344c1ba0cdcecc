"""The AML scan is a step of the nightly job (regulation.md §11.1), told by the conto's hook."""

from __future__ import annotations

from typing import Any

from .services import aml_scan


def nightly_scan(sender: Any, now: Any = None, **kwargs: Any) -> dict[str, int]:
    return aml_scan(now=now)
