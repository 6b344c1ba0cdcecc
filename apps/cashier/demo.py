"""The demo players' test-provider card (regulation.md §1.6's demo): one each, in their name."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from apps.conto.models import Conto
from apps.wallet.models import Instrument

from .instruments import instrument_add

#: Luhn-valid test numbers, one per demo player
DEMO_CARDS = {"mario": "4000000000000002", "giulia": "4000000000000010", "luca": "4000000000000028",
              "anna": "4000000000000036"}


def demo_cards(stdout) -> None:
    """Only adds what is missing: safe to run again."""
    User = get_user_model()
    added = 0
    for username, number in DEMO_CARDS.items():
        user = User.objects.filter(username=username).first()
        conto = Conto.objects.filter(user_id=getattr(user, "pk", None)).first()
        if user is None or conto is None or Instrument.objects.filter(player=user).exists():
            continue
        instrument_add(player=user, kind=Instrument.CARD, holder_name=f"{conto.first_name} {conto.last_name}",
                       identifier=number)
        added += 1
    stdout.write(f"demo: {added} test-provider cards")
