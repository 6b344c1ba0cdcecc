"""Draw the Italian decks (Napoletane and Piacentine) as SVG sprites.

Writes ``static/cards/napoletane.svg`` and ``static/cards/piacentine.svg``: one
``<symbol id="c-<code>">`` per card (``c-7d``, ``c-Rb``...) and one ``<symbol id="back">``.
Pages draw a card with ``<svg><use href="napoletane.svg#c-7d"/></svg>``, so a browser loads
each deck once. Every symbol is self-contained (no nested ``<use>``), so any browser that
can show an external sprite shows these.

The two decks differ the way the real ones do: Napoletane (southern pattern) have straight
swords and straight cudgels standing apart, Piacentine (northern pattern) have curved swords
and batons that cross; palettes and backs differ too. Values 1-7 carry that many suit
marks in the traditional placement; Fante, Cavallo and Re are drawn figures holding their
suit. Every card has its value (1-10) in two corners, as modern Italian decks do.

Run ``python scripts/draw_italian_cards.py`` after changing a drawing; a test checks that
the committed files are what this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "static" / "cards"

W, H = 120, 180
RANKS = ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R")
SUITS = ("d", "c", "s", "b")
VALUE = {"A": 1, "F": 8, "C": 9, "R": 10} | {str(n): n for n in range(2, 8)}

DECKS = {
    "napoletane": {
        "straight": True, "ink": "#3b2412", "paper": "#fffdf6", "frame": "#b3261e",
        "gold": "#e3a72f", "red": "#c0392b", "blue": "#1f4e8c", "green": "#2e7d32",
        "wood": "#8d5524", "steel": "#b8c7d3", "skin": "#f3c99b",
        "suit_ink": {"d": "#b07a12", "c": "#b3261e", "s": "#1f4e8c", "b": "#2e7d32"},
        "back": ("#9e1b1b", "#f3d27a"),
    },
    "piacentine": {
        "straight": False, "ink": "#1c1c3a", "paper": "#fffef9", "frame": "#1f4e8c",
        "gold": "#f2c230", "red": "#d0312d", "blue": "#23439a", "green": "#2f7d3a",
        "wood": "#6b8e23", "steel": "#c9d6df", "skin": "#f6d2ae",
        "suit_ink": {"d": "#a8740c", "c": "#c0392b", "s": "#23439a", "b": "#2f6b2a"},
        "back": ("#1f3f8c", "#e9edf7"),
    },
}


def _f(x: float) -> str:
    """Short numbers keep the sprites small."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


# --- suit marks, drawn around (0, 0) at about 24 units tall -------------------------------

def coin(p: dict) -> str:
    return (f'<circle r="10" fill="{p["gold"]}" stroke="{p["ink"]}" stroke-width="1"/>'
            f'<circle r="7" fill="none" stroke="{p["red"]}" stroke-width="1.2"/>'
            f'<path d="M0-5 L1.5-1.5 L5 0 L1.5 1.5 L0 5 L-1.5 1.5 L-5 0 L-1.5-1.5Z" fill="{p["red"]}"/>'
            f'<circle r="1.4" fill="{p["gold"]}"/>')


def cup(p: dict) -> str:
    return (f'<path d="M-8-10 H8 Q8 0 1.6 2.5 V6 Q5 7 6 10 H-6 Q-5 7-1.6 6 V2.5 Q-8 0-8-10Z" '
            f'fill="{p["gold"]}" stroke="{p["ink"]}" stroke-width="1"/>'
            f'<path d="M-7.2-7 H7.2" stroke="{p["red"]}" stroke-width="2"/>'
            f'<ellipse cy="-10" rx="8" ry="1.6" fill="{p["red"]}" stroke="{p["ink"]}" stroke-width=".6"/>'
            f'<circle cy="4.2" r="1.5" fill="{p["red"]}"/>')


def sword(p: dict) -> str:
    if p["straight"]:
        blade = (f'<path d="M0-15 L1.8-11 V5 H-1.8 V-11Z" fill="{p["steel"]}" stroke="{p["ink"]}" '
                 f'stroke-width=".8"/><path d="M0-12 V4" stroke="{p["ink"]}" stroke-width=".4"/>')
    else:  # a scimitar: the northern pattern's curved blade
        blade = (f'<path d="M-1 -15 Q7-6 2.2 5 H-1.8 Q2-5-1-15Z" fill="{p["steel"]}" stroke="{p["ink"]}" '
                 f'stroke-width=".8"/>')
    return (blade + f'<rect x="-6" y="5" width="12" height="2.6" rx="1.2" fill="{p["gold"]}" '
            f'stroke="{p["ink"]}" stroke-width=".6"/><rect x="-1.3" y="7.6" width="2.6" height="5.4" '
            f'fill="{p["red"]}" stroke="{p["ink"]}" stroke-width=".5"/><circle cy="14.2" r="1.9" '
            f'fill="{p["gold"]}" stroke="{p["ink"]}" stroke-width=".5"/>')


def baton(p: dict) -> str:
    if p["straight"]:  # a knotted cudgel, thick at the top
        return (f'<path d="M-2.2 14 L-4.2-10 Q0-16 4.2-10 L2.2 14Z" fill="{p["wood"]}" stroke="{p["ink"]}" '
                f'stroke-width=".8"/><ellipse cx="-3" cy="-4" rx="1.6" ry="1" fill="{p["green"]}"/>'
                f'<ellipse cx="3" cy="2" rx="1.6" ry="1" fill="{p["green"]}"/>'
                f'<ellipse cx="-2.4" cy="8" rx="1.4" ry=".9" fill="{p["green"]}"/>')
    return (f'<rect x="-2" y="-13" width="4" height="26" rx="1.6" fill="{p["wood"]}" stroke="{p["ink"]}" '
            f'stroke-width=".8"/><rect x="-3" y="-14.5" width="6" height="3" rx="1" fill="{p["red"]}" '
            f'stroke="{p["ink"]}" stroke-width=".5"/><rect x="-3" y="11.5" width="6" height="3" rx="1" '
            f'fill="{p["red"]}" stroke="{p["ink"]}" stroke-width=".5"/><path d="M-2-4 H2 M-2 4 H2" '
            f'stroke="{p["gold"]}" stroke-width="1.2"/>')


MARKS = {"d": coin, "c": cup, "s": sword, "b": baton}


def mark(suit: str, p: dict, x: float, y: float, scale: float, angle: float = 0, cls: str = "pip") -> str:
    rotate = f" rotate({_f(angle)})" if angle else ""
    return (f'<g class="{cls}" transform="translate({_f(x)} {_f(y)}) scale({_f(scale)}){rotate}">'
            f"{MARKS[suit](p)}</g>")


# --- pip layouts ----------------------------------------------------------------------------

L, C, R = 38, 60, 82
LAYOUT = {
    1: [(C, 90)],
    2: [(C, 52), (C, 128)],
    3: [(C, 42), (C, 90), (C, 138)],
    4: [(L, 55), (R, 55), (L, 125), (R, 125)],
    5: [(L, 50), (R, 50), (C, 90), (L, 130), (R, 130)],
    6: [(L, 45), (R, 45), (L, 90), (R, 90), (L, 135), (R, 135)],
    7: [(L, 42), (R, 42), (C, 66), (L, 90), (R, 90), (L, 138), (R, 138)],
}
SCALE = {1: 2.6, 2: 1.55, 3: 1.35, 4: 1.35, 5: 1.2, 6: 1.15, 7: 1.05}


def pips(suit: str, value: int, p: dict) -> str:
    out = []
    if value == 1:  # the ace: one large mark in a wreath
        out.append(f'<ellipse cx="60" cy="90" rx="40" ry="52" fill="none" stroke="{p["suit_ink"][suit]}" '
                   f'stroke-width="1.2" stroke-dasharray="4 3"/>')
    for index, (x, y) in enumerate(LAYOUT[value]):
        angle = 0.0
        if not p["straight"] and suit in "sb" and value > 1:
            angle = 22.0 if index % 2 == 0 else -22.0  # northern swords and batons cross
            if value in (3, 5, 7) and (x, y) == (C, 90) or (value == 7 and (x, y) == (C, 66)):
                angle = 0.0
        out.append(mark(suit, p, x, y, SCALE[value], angle))
    return "".join(out)


# --- court figures --------------------------------------------------------------------------

def _head(p: dict, x: float, y: float, r: float, hat: str) -> str:
    return (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{p["skin"]}" stroke="{p["ink"]}" '
            f'stroke-width=".8"/><circle cx="{_f(x - r * .35)}" cy="{_f(y - r * .1)}" r=".9" fill="{p["ink"]}"/>'
            f'<circle cx="{_f(x + r * .35)}" cy="{_f(y - r * .1)}" r=".9" fill="{p["ink"]}"/>'
            f'<path d="M{_f(x - r * .3)} {_f(y + r * .45)} Q{_f(x)} {_f(y + r * .7)} {_f(x + r * .3)} '
            f'{_f(y + r * .45)}" fill="none" stroke="{p["ink"]}" stroke-width=".7"/>' + hat)


def _crown(p: dict, x: float, y: float, w: float) -> str:
    h = w * .55
    return (f'<path d="M{_f(x - w / 2)} {_f(y)} L{_f(x - w / 2)} {_f(y - h)} L{_f(x - w / 4)} {_f(y - h * .45)} '
            f'L{_f(x)} {_f(y - h * 1.1)} L{_f(x + w / 4)} {_f(y - h * .45)} L{_f(x + w / 2)} {_f(y - h)} '
            f'L{_f(x + w / 2)} {_f(y)}Z" fill="{p["gold"]}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<circle cx="{_f(x)}" cy="{_f(y - h * .35)}" r="1.3" fill="{p["red"]}"/>')


def _panel(p: dict, suit: str) -> str:
    return (f'<rect x="14" y="24" width="92" height="132" rx="4" fill="{p["paper"]}" '
            f'stroke="{p["suit_ink"][suit]}" stroke-width="1.2"/>')


def fante(suit: str, p: dict) -> str:
    robe, trim = (p["red"], p["blue"]) if suit in "dc" else (p["blue"], p["red"])
    hat = (f'<path d="M49 44 Q60 30 71 44Z" fill="{trim}" stroke="{p["ink"]}" stroke-width=".7"/>'
           f'<path d="M68 38 q8-8 12-2" fill="none" stroke="{p["gold"]}" stroke-width="2"/>')
    return (_panel(p, suit)
            + f'<g class="figure fante">'
            f'<rect x="50" y="124" width="8" height="26" fill="{trim}" stroke="{p["ink"]}" stroke-width=".7"/>'
            f'<rect x="62" y="124" width="8" height="26" fill="{trim}" stroke="{p["ink"]}" stroke-width=".7"/>'
            f'<path d="M46 150 h13 v4 h-15Z M61 150 h13 l2 4 h-15Z" fill="{p["ink"]}"/>'
            f'<path d="M47 60 Q60 55 73 60 L78 126 H42Z" fill="{robe}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<path d="M60 60 V126" stroke="{p["gold"]}" stroke-width="2"/>'
            f'<rect x="44" y="92" width="32" height="4" fill="{p["gold"]}" stroke="{p["ink"]}" stroke-width=".5"/>'
            f'<path d="M73 62 L86 84" stroke="{robe}" stroke-width="6" stroke-linecap="round"/>'
            f'<path d="M47 62 L40 96" stroke="{robe}" stroke-width="6" stroke-linecap="round"/>'
            + _head(p, 60, 50, 9, hat) + "</g>"
            + mark(suit, p, 86, 90, 1.25, cls="held"))


def cavallo(suit: str, p: dict) -> str:
    coat, rider = (p["wood"], p["red"]) if suit in "db" else ("#f1efe9", p["blue"])
    hat = f'<path d="M53 58 Q60 48 67 58Z" fill="{p["green"]}" stroke="{p["ink"]}" stroke-width=".7"/>'
    return (_panel(p, suit)
            + f'<g class="figure cavallo">'
            # legs, body, neck and head of the horse, facing right
            f'<path d="M40 118 l-4 32 h5 l4-30 M52 122 l-1 28 h5 l1-28 M72 122 l2 28 h5 l-2-28 '
            f'M84 116 l6 34 h5 l-6-34" fill="{coat}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<ellipse cx="62" cy="112" rx="28" ry="14" fill="{coat}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<path d="M80 104 Q86 86 92 76 L101 80 Q100 88 94 90 Q92 100 88 112Z" fill="{coat}" '
            f'stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<circle cx="95" cy="80" r="1" fill="{p["ink"]}"/>'
            f'<path d="M84 88 Q88 80 92 74" fill="none" stroke="{p["ink"]}" stroke-width="2.2"/>'
            f'<path d="M34 108 Q24 116 28 134" fill="none" stroke="{p["ink"]}" stroke-width="2.5"/>'
            f'<path d="M48 102 h30 v8 h-30Z" fill="{p["red"]}" stroke="{p["ink"]}" stroke-width=".6"/>'
            # the rider
            f'<path d="M54 66 Q60 63 66 66 L70 100 H50Z" fill="{rider}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<path d="M58 98 l-4 22" stroke="{rider}" stroke-width="5" stroke-linecap="round"/>'
            f'<path d="M55 70 L42 60" stroke="{rider}" stroke-width="5" stroke-linecap="round"/>'
            + _head(p, 60, 60, 7, hat) + "</g>"
            + mark(suit, p, 36, 50, 1.05, cls="held"))


def re(suit: str, p: dict) -> str:
    robe = {"d": p["red"], "c": p["blue"], "s": p["red"], "b": p["blue"]}[suit]
    cape = p["blue"] if robe == p["red"] else p["red"]
    crown = _crown(p, 60, 40, 20)
    return (_panel(p, suit)
            + f'<g class="figure re">'
            f'<path d="M44 60 Q60 54 76 60 L86 152 H34Z" fill="{cape}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<path d="M49 62 Q60 58 71 62 L76 152 H44Z" fill="{robe}" stroke="{p["ink"]}" stroke-width=".8"/>'
            f'<path d="M44 62 Q60 72 76 62 L74 70 Q60 80 46 70Z" fill="#fff" stroke="{p["ink"]}" stroke-width=".6"/>'
            f'<circle cx="52" cy="68" r=".9" fill="{p["ink"]}"/><circle cx="60" cy="72" r=".9" fill="{p["ink"]}"/>'
            f'<circle cx="68" cy="68" r=".9" fill="{p["ink"]}"/>'
            f'<path d="M60 80 V150" stroke="{p["gold"]}" stroke-width="2.2"/>'
            f'<path d="M74 66 L88 92" stroke="{cape}" stroke-width="6" stroke-linecap="round"/>'
            f'<path d="M46 66 L40 104" stroke="{cape}" stroke-width="6" stroke-linecap="round"/>'
            f'<path d="M40 104 L38 140" stroke="{p["gold"]}" stroke-width="2.2"/>'
            f'<circle cx="40" cy="102" r="2.4" fill="{p["gold"]}" stroke="{p["ink"]}" stroke-width=".5"/>'
            + _head(p, 60, 50, 9.5, crown)
            + f'<path d="M52 54 Q60 68 68 54 Q66 64 60 66 Q54 64 52 54Z" fill="#8a8a8a" stroke="{p["ink"]}" '
            f'stroke-width=".5"/>'
            "</g>" + mark(suit, p, 88, 96, 1.2, cls="held"))


FIGURES = {"F": fante, "C": cavallo, "R": re}


# --- cards and sprite -----------------------------------------------------------------------

def index(value: int, colour: str) -> str:
    text = (f'font-family="Georgia,serif" font-size="15" font-weight="700" fill="{colour}" '
            f'text-anchor="middle"')
    return (f'<text x="13" y="20" {text}>{value}</text>'
            f'<text x="107" y="172" {text} transform="rotate(180 107 166.5)">{value}</text>')


def card(code: str, p: dict) -> str:
    rank, suit = code[0], code[1]
    value = VALUE[rank]
    body = FIGURES[rank](suit, p) if rank in FIGURES else pips(suit, value, p)
    return (f'<rect x="1" y="1" width="118" height="178" rx="9" fill="{p["paper"]}" stroke="#777" '
            f'stroke-width="1.2"/><rect x="5" y="5" width="110" height="170" rx="6" fill="none" '
            f'stroke="{p["frame"]}" stroke-width=".8"/>' + body + index(value, p["suit_ink"][suit]))


def back(p: dict) -> str:
    dark, light = p["back"]
    lattice = "".join(f'<path d="M{x} 10 L{x + 50} 170 M{x + 50} 10 L{x} 170" stroke="{light}" '
                      f'stroke-width=".9" opacity=".55"/>' for x in range(-40, 120, 16))
    return (f'<rect x="1" y="1" width="118" height="178" rx="9" fill="#fff" stroke="#777" stroke-width="1.2"/>'
            f'<rect x="7" y="7" width="106" height="166" rx="6" fill="{dark}"/>'
            f'<clipPath id="back-clip"><rect x="10" y="10" width="100" height="160" rx="4"/></clipPath>'
            f'<g clip-path="url(#back-clip)">{lattice}</g>'
            f'<rect x="10" y="10" width="100" height="160" rx="4" fill="none" stroke="{light}" stroke-width="1.5"/>'
            f'<ellipse cx="60" cy="90" rx="22" ry="30" fill="{dark}" stroke="{light}" stroke-width="2"/>'
            f'<text x="60" y="97" font-family="Georgia,serif" font-size="20" font-weight="700" fill="{light}" '
            f'text-anchor="middle">M</text>')


def sprite(deck: str) -> str:
    p = DECKS[deck]
    symbols = [f'<symbol id="c-{rank}{suit}" viewBox="0 0 {W} {H}">{card(rank + suit, p)}</symbol>'
               for suit in SUITS for rank in RANKS]
    symbols.append(f'<symbol id="back" viewBox="0 0 {W} {H}">{back(p)}</symbol>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}">'
            f"<!-- {deck}: drawn by scripts/draw_italian_cards.py -->" + "".join(symbols) + "</svg>\n")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for deck in DECKS:
        (OUT / f"{deck}.svg").write_text(sprite(deck))
        print(f"static/cards/{deck}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
