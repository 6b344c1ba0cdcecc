"""The codice fiscale (regulation.md §1.2): valid per python-stdnum, consistent with the birth
date and sex, and what the KYC queue shows (name letters, age)."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Any

from django.utils import timezone
from stdnum.exceptions import ValidationError as StdnumError
from stdnum.it import codicefiscale

MONTHS = "ABCDEHLMPRST"
#: omocodic letters stand for the digits 0-9 where a code clashed
OMOCODIC = str.maketrans("LMNPQRSTUV", "0123456789")


def normalise(value: str) -> str:
    """Spaces and hyphens removed, letters upper-cased (stored and shown so)."""
    return re.sub(r"[\s-]", "", value or "").upper()


def is_valid(code: str) -> bool:
    """16 characters stdnum accepts (format, omocodic letters, check character, a real date);
    an 11-digit number is a company's: invalid for a person."""
    code = normalise(code)
    if len(code) != 16:
        return False
    try:
        codicefiscale.validate(code)
    except StdnumError:
        return False
    return True


def mismatch_fields(code: str, *, birth_date: dt.date, sex: str) -> list[str]:
    """Which of ``birth_date`` and ``sex`` the code disagrees with (§1.2): characters 7-8 the
    year % 100, 9 the month letter, 10-11 the day (M) or the day + 40 (F)."""
    code = normalise(code)
    year = int(code[6:8].translate(OMOCODIC))
    month = code[8]
    day = int(code[9:11].translate(OMOCODIC))
    fields = []
    if year != birth_date.year % 100 or month != MONTHS[birth_date.month - 1] or day % 40 != birth_date.day:
        fields.append("birth_date")
    if (day > 40) != (sex == "F"):
        fields.append("sex")
    return fields


def add_years(day: dt.date, years: int) -> dt.date:
    """29 February counts as 1 March in common years."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return dt.date(day.year + years, 3, 1)


def is_adult(birth_date: dt.date, today: dt.date) -> bool:
    return add_years(birth_date, 18) <= today


def is_young(birth_date: dt.date, today: dt.date) -> bool:
    """18-24: today < birth_date + 25 years."""
    return today < add_years(birth_date, 25)


def age(birth_date: dt.date, today: dt.date) -> int:
    years = today.year - birth_date.year
    return years - 1 if add_years(birth_date, years) > today else years


def _letters(name: str) -> tuple[list[str], list[str]]:
    plain = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode().upper()
    letters = [c for c in plain if "A" <= c <= "Z"]
    vowels = [c for c in letters if c in "AEIOU"]
    consonants = [c for c in letters if c not in "AEIOU"]
    return consonants, vowels


def surname_code(last_name: str) -> str:
    consonants, vowels = _letters(last_name)
    return ("".join(consonants + vowels) + "XXX")[:3]


def name_code(first_name: str) -> str:
    consonants, vowels = _letters(first_name)
    if len(consonants) >= 4:
        return consonants[0] + consonants[2] + consonants[3]
    return ("".join(consonants + vowels) + "XXX")[:3]


def name_letters_agree(code: str, *, first_name: str, last_name: str) -> bool:
    code = normalise(code)
    return code[:3] == surname_code(last_name) and code[3:6] == name_code(first_name)


def codice_fiscale_checks(conto: Any, *, today: dt.date | None = None) -> dict[str, Any]:
    """What the KYC queue shows beside a submission (§1.7)."""
    today = today or timezone.localdate()
    code = conto.codice_fiscale or ""
    valid = is_valid(code)
    mismatch = mismatch_fields(code, birth_date=conto.birth_date, sex=conto.sex) if valid and conto.birth_date else []
    born = conto.birth_date
    return {
        "valid": valid,
        "consistent": valid and not mismatch,
        "mismatch_fields": mismatch,
        "name_letters_agree": valid and name_letters_agree(code, first_name=conto.first_name,
                                                           last_name=conto.last_name),
        "age": age(born, today) if born else None,
        "adult": bool(born) and is_adult(born, today),
    }
