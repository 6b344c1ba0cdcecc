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
    text = PO.read_text()
    entries = re.split(r"\n\n", text)
    out, missing = [], []
    for entry in entries:
        match = re.search(r'^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)', entry, re.MULTILINE)
        if match:
            msgid = unquote(match.group(1))
            if msgid and msgid in IT:
                entry = entry[: match.start(2)] + quote(IT[msgid]) + entry[match.end(2):].lstrip('"')
                entry = re.sub(r"^#, fuzzy\n", "", entry, flags=re.MULTILINE)
                entry = re.sub(r"^#, fuzzy, ", "#, ", entry, flags=re.MULTILINE)  # "#, fuzzy, python-format"
                entry = re.sub(r"^#\| .*\n", "", entry, flags=re.MULTILINE)  # the old msgid a fuzzy match kept
            elif msgid:
                missing.append(msgid)
        out.append(entry)
    text = "\n\n".join(out)
    text = text.replace('"Content-Type: text/plain; charset=CHARSET\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"')
    PO.write_text(text)
    subprocess.run(["msgfmt", "-o", str(PO.with_suffix(".mo")), str(PO)], check=True)
    if missing:
        print("untranslated:", *missing, sep="\n  ")


if __name__ == "__main__":
    main()
