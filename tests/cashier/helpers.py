"""A player ready for the cashier: verified identity, a valid document, limits, a card."""

from __future__ import annotations

import datetime as dt
import itertools

from django.utils import timezone

from apps.cashier.instruments import instrument_add
from apps.conto import states as S
from apps.conto.limits import limits_set_initial
from apps.wallet.models import Instrument
from tests.conftest import make_user
from tests.conto.kyc_helpers import signed_up

_cards = itertools.count(1)


def luhn_card(n: int) -> str:
    """A Luhn-valid 16-digit card number, different for each n."""
    body = f"4{n:014d}"
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return body + str((10 - total % 10) % 10)


def cashier_player(nickname: str | None = None, *, limits: dict[str, int] | None = None,
                   verified: bool = True) -> tuple[object, Instrument]:
    user = make_user(nickname=nickname or f"Cash{next(_cards)}")
    conto = signed_up(user, code=None, state=S.APERTO, kyc=S.APPROVED)
    conto.document_expires_at = timezone.localdate() + dt.timedelta(days=900)
    conto.kyc_verified_at = timezone.now() if verified else None
    conto.save()
    limits_set_initial(conto=conto, values=limits or {"deposit_day": 20_000, "deposit_week": 140_000,
                                                      "deposit_month": 600_000})
    card = None
    if verified:
        card, _created = instrument_add(player=user, kind="card", holder_name="Mario Rossi",
                                        identifier=luhn_card(next(_cards)))
    return user, card
