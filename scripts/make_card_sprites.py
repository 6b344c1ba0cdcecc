"""Write static/cards/italian.svg and french.svg from the card drawings (run after changing them)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from apps.tables.templatetags.cards import sprite_svg  # noqa: E402

for face in ("italian", "french"):
    (ROOT / "static" / "cards" / f"{face}.svg").write_text(sprite_svg(face))
    print(f"static/cards/{face}.svg")
