"""Names of the things a ledger reference points to (``tournament:12`` → its name), for pages
of a lower floor that must not import the app that owns them (docs/layers.md): each owner
registers a namer for its prefix in its ``AppConfig.ready``, the page asks by reference."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

#: prefix -> a function from ids to names (one query for all of them)
_NAMERS: dict[str, Callable[[list[int]], dict[int, str]]] = {}


def reference_namer(prefix: str, namer: Callable[[list[int]], dict[int, str]]) -> None:
    """Register ``namer`` for references ``<prefix>:<id>``; registering again replaces it."""
    _NAMERS[prefix] = namer


def reference_names(references: Iterable[str]) -> dict[str, str]:
    """``{reference: name}`` for every reference whose owner registered a namer and knows it."""
    wanted: dict[str, set[int]] = defaultdict(set)
    for ref in references:
        prefix, _, rest = (ref or "").partition(":")
        if prefix in _NAMERS and rest.isdigit():
            wanted[prefix].add(int(rest))
    names: dict[str, str] = {}
    for prefix, ids in wanted.items():
        for pk, name in _NAMERS[prefix](sorted(ids)).items():
            names[f"{prefix}:{pk}"] = name
    return names
