"""Split the card sprites into one small SVG file per card.

A page drew every card as ``<svg><use href="<sprite>.svg#<id>"/></svg>``: the browser clones
the referenced drawing into the page for each card, and svg-cards' French faces are deep trees
of nested ``<use>`` (a Hearts page held about 815,000 elements; each socket frame cost 1-3 s of
main thread, issue 25). A card drawn as an image of its own file (``<image href=...>``) is
parsed once, rasterised and cached by the browser, and costs the page two elements.

Each file holds exactly the sprite's drawing of one card: the card's element and every element
it references (``href="#..."``, ``url(#...)``), copied unmodified, with the sprite's own header
(the svg-cards licence notice), then one ``<use>`` of the card, as the page's ``<use>`` drew it.
The French back took its colour from the page (svg-cards' ``fill: inherit``): its file sets the
colour the page set (``board.css``, ``back-french``) on the ``<use>``.

Writes ``static/cards/<deck>/<id>.svg`` for ``french`` (svg-cards.svg: 52 cards, ``joker_red``,
``back``), ``napoletane`` and ``piacentine`` (40 cards and ``back``). Run
``python scripts/split_card_sprites.py`` after changing a sprite; a test checks the files are
what this script writes.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from xml.dom import minidom

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "static" / "cards"

SPRITES = {"french": "svg-cards.svg", "napoletane": "napoletane.svg", "piacentine": "piacentine.svg"}
VIEWBOX = {"french": (169.075, 244.64), "napoletane": (120, 180), "piacentine": (120, 180)}
#: the page's colour of svg-cards' back (``fill: inherit``), as board.css gave it
FRENCH_BACK_FILL = "#1f4f9c"
FRENCH_SUITS = ("heart", "diamond", "club", "spade")
FRENCH_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
ITALIAN_CODES = tuple(r + s for s in "dcsb" for r in ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R"))

_REF = re.compile(r"url\(#([^)]+)\)")


def card_ids(deck: str) -> list[str]:
    """The ids of a deck's sprite that pages draw (``templatetags/cards.symbol_id``)."""
    if deck == "french":
        return [f"{suit}_{rank}" for suit in FRENCH_SUITS for rank in FRENCH_RANKS] + ["joker_red", "back"]
    return [f"c-{code}" for code in ITALIAN_CODES] + ["back"]


def _refs(element: minidom.Element) -> set[str]:
    """The ids ``element`` and its descendants reference."""
    found: set[str] = set()
    for node in [element, *element.getElementsByTagName("*")]:
        for name, value in node.attributes.items():
            if name in ("href", "xlink:href") and value.startswith("#"):
                found.add(value[1:])
            found.update(_REF.findall(value))
    return found


def _inside(element: minidom.Node, others: set[minidom.Node]) -> bool:
    parent = element.parentNode
    while parent is not None:
        if parent in others:
            return True
        parent = parent.parentNode
    return False


def split(sprite_text: str, deck: str) -> dict[str, str]:
    """``{id: file text}`` for every card of ``deck`` in ``sprite_text``."""
    dom = minidom.parseString(sprite_text)
    root = dom.documentElement
    by_id = {el.getAttribute("id"): el for el in root.getElementsByTagName("*") if el.hasAttribute("id")}
    order = {el: i for i, el in enumerate(root.getElementsByTagName("*"))}
    header = "".join(node.toxml() for node in root.childNodes if node.nodeType == node.COMMENT_NODE)
    namespaces = " ".join(f'{name}="{value}"' for name, value in root.attributes.items()
                          if name.startswith("xmlns"))
    width, height = VIEWBOX[deck]
    files = {}
    for card in card_ids(deck):
        needed: set[minidom.Node] = set()
        todo = [card]
        while todo:
            element = by_id[todo.pop()]
            if element in needed:
                continue
            needed.add(element)
            todo.extend(ref for ref in _refs(element) if ref in by_id)
        # an element inside another copied one comes with it (ids stay unique)
        kept = sorted((el for el in needed if not _inside(el, needed)), key=order.__getitem__)
        use_attrs = 'xlink:href' if "xmlns:xlink" in namespaces else "href"
        fill = f' fill="{FRENCH_BACK_FILL}"' if deck == "french" and card == "back" else ""
        files[card] = (f'<svg {namespaces} viewBox="0 0 {width} {height}" width="{width}" height="{height}">'
                       f"{header}<defs>{''.join(el.toxml() for el in kept)}</defs>"
                       f'<use {use_attrs}="#{card}"{fill}/></svg>\n')
    return files


def all_files() -> dict[Path, str]:
    """Every per-card file, by its path."""
    out: dict[Path, str] = {}
    for deck, name in SPRITES.items():
        for card, text in split((CARDS / name).read_text(), deck).items():
            out[CARDS / deck / f"{card}.svg"] = text
    return out


def main() -> int:
    for path, text in all_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    print(f"static/cards/{{{','.join(SPRITES)}}}/*.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
