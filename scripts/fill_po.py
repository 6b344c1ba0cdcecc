"""Fill the Italian catalogue from scripts/it_strings.py and compile it (needs gettext's msgfmt).

Usage: python manage.py makemessages -l it --ignore=.venv --ignore=var && python scripts/fill_po.py
The compiled .mo is committed, so a fresh machine needs no gettext.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from it_strings import IT  # noqa: E402

PO = Path(__file__).resolve().parents[1] / "locale/it/LC_MESSAGES/django.po"


def unquote(block: str) -> str:
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block)).encode().decode("unicode_escape").encode(
        "latin-1").decode("utf-8")


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main() -> None:
    """Each entry's msgstr from IT: a plain string, or a (singular, plural) pair for a
    msgid_plural entry; an entry with a msgctxt is keyed "context\x04msgid"."""
    text = PO.read_text()
    entries = re.split(r"\n\n", text)
    out, missing = [], []
    for entry in entries:
        match = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.MULTILINE)
        if not match:
            out.append(entry)
            continue
        msgid = unquote(match.group(1))
        context = re.search(r'^msgctxt ((?:".*"\n?)+)', entry, re.MULTILINE)
        key = f"{unquote(context.group(1))}\x04{msgid}" if context else msgid
        if not msgid:
            out.append(entry)
            continue
        value = IT.get(key)
        if value is None:
            missing.append(key.replace("\x04", " | "))
            out.append(entry)
            continue
        head = entry[: entry.index("msgstr")]
        if re.search(r"^msgid_plural", entry, re.MULTILINE):  # not a "#| msgid_plural" fuzzy comment
            singular, plural = (value, value) if isinstance(value, str) else value
            entry = head + f"msgstr[0] {quote(singular)}\nmsgstr[1] {quote(plural)}"
        else:
            entry = head + f"msgstr {quote(value)}"
        entry = re.sub(r"^#, fuzzy\n", "", entry, flags=re.MULTILINE)
        entry = re.sub(r"^#, fuzzy, ", "#, ", entry, flags=re.MULTILINE)
        entry = re.sub(r"^(#,.*), fuzzy", r"\1", entry, flags=re.MULTILINE)
        entry = re.sub(r"^#\| .*\n?", "", entry, flags=re.MULTILINE)
        out.append(entry.rstrip("\n"))
    text = "\n\n".join(out)
    if not text.endswith("\n"):
        text += "\n"
    text = text.replace('"Content-Type: text/plain; charset=CHARSET\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"')
    PO.write_text(text)
    subprocess.run(["msgfmt", "-o", str(PO.with_suffix(".mo")), str(PO)], check=True)
    if missing:
        print("untranslated:", *missing, sep="\n  ")


if __name__ == "__main__":
    main()
