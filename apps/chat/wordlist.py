"""The word list that flags chat lines for review (platform.md §7.2, seed 000's "behaviour"
rules): insults, slurs, contact details and links offered for collusion. It flags, it never
blocks. ``DEFAULTS`` seeds the editable list (a data migration); ``CHAT_FLAG_WORDS`` in the
settings adds more."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone

from .models import FlagWord

#: (kind, value, category): ``word`` entries match whole words, ``*`` at the end for any ending
DEFAULTS: list[tuple[str, str, str]] = [
    # Italian insults and vulgarities
    *[("word", w, "insult") for w in (
        "idiot*", "imbecill*", "cretin*", "stronz*", "coglion*", "deficient*", "scem*", "stupid*",
        "vaffanculo", "fanculo", "affanculo", "merd*", "bastard*", "cazz*", "minchi*", "troia", "troie",
        "puttan*", "zoccol*", "porco dio", "porca madonna", "testa di cazzo", "pezzo di merda",
        "figlio di puttana", "sfigat*", "ammazzati", "crepa", "fai schifo", "schifos*",
    )],
    # English insults
    *[("word", w, "insult") for w in (
        "idiot", "idiots", "moron*", "dumbass", "asshole*", "bastards", "bitch*", "fuck*", "shit*",
        "cunt*", "loser", "noob", "kill yourself", "kys", "stfu",
    )],
    # slurs (Italian and English)
    *[("word", w, "slur") for w in (
        "negr*", "frocio", "froci", "finocchio", "ricchion*", "culattone", "terron*", "zingar*",
        "mongoloid*", "ritardat*", "handicappat*", "nigger*", "nigga*", "faggot*", "fag", "retard*", "spastic",
    )],
    # collusion and contact outside the platform (seed 000: MSN, Skype, phones...)
    *[("word", w, "contact") for w in (
        "whatsapp", "telegram", "skype", "msn", "cellulare", "numero di telefono", "scrivimi",
        "chiamami", "call me", "text me", "dm me", "instagram", "snapchat", "discord",
    )],
    *[("word", w, "cheating") for w in (
        "truffa", "truffatore", "imbroglio", "imbroglion*", "baro", "cheat*", "scam", "scammer*",
        "passami le carte", "ti faccio vincere", "facciamo squadra", "dividiamo la vincita", "colluder*",
    )],
    # patterns: phone numbers (8+ digits with spaces, dots or dashes), e-mail addresses, links
    ("pattern", r"(?<![\w])(?:\+|00)?\d(?:[\s./-]?\d){7,14}(?![\w])", "phone"),
    ("pattern", r"[\w.+-]+\s*(?:@|\(at\)|\[at\]| chiocciola )\s*[\w-]+(?:\.[\w-]+)+", "email"),
    ("pattern", r"(?:https?://|www\.)\S+|(?<![@\w.-])[\w-]+\.(?:com|it|net|org|eu|io|me|ly|gg|info|biz|xyz)\b"
     r"(?!@)(?:/\S*)?", "link"),
]

#: look-alike characters folded before words are matched ("1d1ota", "stronz0")
_FOLD = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s",
                       "à": "a", "è": "e", "é": "e", "ì": "i", "ò": "o", "ù": "u"})


@dataclass(frozen=True)
class Entry:
    kind: str
    value: str
    category: str


def word_regex(value: str) -> re.Pattern[str]:
    """A whole-word regular expression for a list entry: spaces match any spacing, a final
    ``*`` any ending."""
    star = value.endswith("*")
    words = value.rstrip("*").strip().lower().split()
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(r"(?<!\w)" + body + (r"\w*" if star else "") + r"(?!\w)")


def pattern_error(value: str) -> str | None:
    try:
        re.compile(value)
    except re.error as exc:
        return str(exc)
    return None


def matches(text: str, entries: Iterable[Entry]) -> list[str]:
    """The entries ``text`` matches, as ``category:word`` (or the category of a pattern, such as
    ``phone``): what the review queue shows."""
    lowered = text.lower()
    folded = lowered.translate(_FOLD)
    found: list[str] = []
    for entry in entries:
        if entry.kind == "pattern":
            try:
                hit = re.search(entry.value, text, flags=re.IGNORECASE) is not None
            except re.error:
                hit = False
        else:
            regex = word_regex(entry.value)
            hit = regex.search(lowered) is not None or regex.search(folded) is not None
        if hit:
            found.append(entry.category if entry.kind == "pattern" else f"{entry.category}:{entry.value}")
    return found


def word_list_seed() -> int:
    """Write the defaults into an empty word list; the number written."""
    if FlagWord.objects.exists():
        return 0
    now = timezone.now()
    FlagWord.objects.bulk_create([FlagWord(kind=k, value=v, category=c, created=now) for k, v, c in DEFAULTS],
                                 ignore_conflicts=True)
    return len(DEFAULTS)
