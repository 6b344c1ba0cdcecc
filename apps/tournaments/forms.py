"""The operator's tournament form (admin): euro, a game by name, payouts as a table, the
game's options as fields.

The form turns what an operator types into the body ``services.tournament_create`` takes
(cents, ids, a list of percentages, an options object) and says what is wrong next to each
field. The service keeps its invariants and validates again; its reasons are mapped back
to the fields, so a refused save re-renders with everything typed.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from apps.common.errors import DomainError
from apps.games.engines import ENGINES
from apps.games.selectors import game_catalogue
from apps.play.options import OptionField, option_fields

from . import selectors, services
from .amounts import AmountError, cents_from_euro, euro_number, euro_text
from .models import Tournament

#: options the platform sets itself in a tournament (§5.7: ``knockout`` follows the format)
PLATFORM_OPTIONS = {"knockout"}

KIND_CHOICES = [(Tournament.SIT_AND_GO, gettext_lazy("Sit and Go (starts when full)")),
                (Tournament.SCHEDULED, gettext_lazy("Scheduled (starts at a set time)"))]
FORMAT_CHOICES = [(Tournament.KNOCKOUT, pgettext_lazy("tournament format", "knockout")),
                  (Tournament.POINTS, pgettext_lazy("tournament format", "points"))]
PRIZE_CHOICES = [(Tournament.CASH, pgettext_lazy("tournament prize", "cash")),
                 (Tournament.BONUS, pgettext_lazy("tournament prize", "bonus (freeroll only)")),
                 (Tournament.SATELLITE, pgettext_lazy("tournament prize", "seats in another tournament (satellite)"))]
KIND_LABELS = {Tournament.SIT_AND_GO: pgettext_lazy("tournament kind", "Sit and Go"),
               Tournament.SCHEDULED: pgettext_lazy("tournament kind", "scheduled")}
PRIZE_LABELS = {Tournament.CASH: pgettext_lazy("tournament prize", "cash"),
                Tournament.BONUS: pgettext_lazy("tournament prize", "bonus"),
                Tournament.SATELLITE: pgettext_lazy("tournament prize", "satellite")}
STATUS_LABELS = {Tournament.OPEN: pgettext_lazy("tournament status", "open"),
                 Tournament.RUNNING: pgettext_lazy("tournament status", "in progress"),
                 Tournament.FINISHED: pgettext_lazy("tournament status", "finished"),
                 Tournament.CANCELLED: pgettext_lazy("tournament status", "cancelled")}

#: the service's field names that the form shows under another name
SERVICE_FIELD = {"game_options": None, "body": None}


def heads_up_games() -> list[tuple[str, str]]:
    """(id, display name) of every registered game a tournament can use (§5.1: heads-up)."""
    return [(g["id"], g["name"]) for g in game_catalogue() if 2 in g["player_counts"]]


def tournament_option_fields(game: str) -> list[OptionField]:
    """The create-table form's controls of ``game``'s options, less the platform's own."""
    return [o for o in option_fields(game) if o.name not in PLATFORM_OPTIONS]


def _option_form_field(option: OptionField) -> forms.Field:
    if option.choices:
        return forms.ChoiceField(label=option.label, choices=option.choices, initial=option.default_value,
                                 required=False)
    return forms.IntegerField(label=option.label, min_value=option.minimum, max_value=option.maximum,
                              initial=option.default, required=False)


def option_field_names(game: str) -> list[str]:
    return [o.input_name for o in tournament_option_fields(game)]


def _option_value(game: str, option: OptionField, value: Any) -> Any:
    """A cleaned control's value as the engine's schema has it (``"true"`` -> ``True``)."""
    if option.choices:
        return next(c for c in ENGINES[game].options[option.name]["choices"]
                    if ("true" if c is True else "false" if c is False else str(c)) == value)
    return value


class EuroField(forms.CharField):
    """An amount typed in euro in the page's language; cleaned to cents."""

    def __init__(self, *, required: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 10,
                                                           "autocomplete": "off"}))
        super().__init__(required=required, strip=True, **kwargs)

    def prepare_value(self, value: Any) -> Any:
        return euro_number(value) if type(value) is int else value

    def to_python(self, value: Any) -> int | None:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            return cents_from_euro(text)
        except AmountError as exc:
            if exc.negative:
                raise forms.ValidationError(_("The amount cannot be negative."), code="negative") from None
            raise forms.ValidationError(
                _("An amount in euro with at most two decimals, for example %(example)s.")
                % {"example": euro_number(250)}, code="invalid") from None

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return (initial or 0) != (self.to_python(data) or 0)
        except forms.ValidationError:
            return True


class PayoutsWidget(forms.Widget):
    """One row per paid place: the percentage, a button to remove it; a button adds a place
    (static/js/tournament_admin.js), and the total is shown as it is typed."""

    def value_from_datadict(self, data, files, name) -> list[str]:
        return data.getlist(name) if hasattr(data, "getlist") else list(data.get(name) or [])

    def value_omitted_from_data(self, data, files, name) -> bool:
        return name not in data

    def format_value(self, value: Any) -> list[str]:
        if value in (None, ""):
            return []
        return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]

    def render(self, name, value, attrs=None, renderer=None):
        values = self.format_value(value) or [""]
        rows = format_html_join("", (
            '<tr class="payout-row"><th scope="row" class="payout-place">{}</th>'
            '<td><input type="number" name="{}" value="{}" min="1" max="100" step="1" inputmode="numeric" '
            'class="payout-percent" aria-label="{}"> %</td>'
            '<td><button type="button" class="button payout-remove" aria-label="{}">−</button></td></tr>'),
            ((_("%(n)s°") % {"n": i}, name, v, _("Percentage of place %(n)s") % {"n": i},
              _("Remove place %(n)s") % {"n": i}) for i, v in enumerate(values, start=1)))
        total = sum(int(v) for v in values if str(v).strip().isdigit())
        return format_html(
            '<table class="payouts-table" id="{}" data-place-label="{}" data-remove-label="{}"'
            ' data-percent-label="{}"><thead><tr><th scope="col">{}</th><th scope="col">{}</th><th></th></tr></thead>'
            '<tbody>{}</tbody><tfoot><tr><td><button type="button" class="button payout-add">{}</button></td>'
            '<td colspan="2" class="payouts-total" aria-live="polite">{} <strong><span class="payouts-sum">{}'
            '</span> %</strong> <span class="payouts-hint">{}</span></td></tr></tfoot></table>',
            (attrs or {}).get("id", f"id_{name}"), _("%(n)s°"), _("Remove place %(n)s"),
            _("Percentage of place %(n)s"), _("Place"), _("Share of the pool"), rows, _("Add a place"),
            _("Total:"), total, _("(must be 100)"))


class PayoutsField(forms.Field):
    """Percentages by final position (§5.1): whole numbers 1–100, non-increasing, summing to
    exactly 100; empty rows are skipped. Cleaned to the list the service stores."""

    widget = PayoutsWidget

    def to_python(self, value: Any) -> list[int] | None:
        texts = [str(v).strip() for v in (value or []) if str(v).strip()]
        if not texts:
            return None
        try:
            percentages = [int(t) for t in texts]
        except ValueError:
            raise forms.ValidationError(_("Each place: a whole percentage from 1 to 100."), code="invalid") from None
        return percentages

    def validate(self, value: list[int] | None) -> None:
        super().validate(value)
        if not value:
            return
        if not all(1 <= p <= 100 for p in value):
            raise forms.ValidationError(_("Each place: a whole percentage from 1 to 100."), code="range")
        if any(a < b for a, b in zip(value, value[1:], strict=False)):
            raise forms.ValidationError(_("A place cannot pay more than the place above it."), code="order")
        if sum(value) != 100:
            raise forms.ValidationError(_("The places add up to %(sum)s %%: they must add up to exactly 100 %%.")
                                        % {"sum": sum(value)}, code="sum")


class SatelliteTargetField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Tournament) -> str:
        start = obj.starts_at.strftime("%d/%m %H:%M") if obj.starts_at else _("Sit and Go")
        return f"{obj.name} (#{obj.pk}) · {euro_text(obj.buy_in_cents)} · {start}"


class TournamentFormBase(forms.ModelForm):
    """The fields an operator fills; ``service_data`` is the body the services take."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=heads_up_games)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=KIND_CHOICES)
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=FORMAT_CHOICES)
    buy_in_cents = EuroField(label=gettext_lazy("Entry cost (€)"),
                             help_text=gettext_lazy("Fee included; 0 makes a freeroll. Steps of 0.50, at most 100."))
    fee_cents = EuroField(label=gettext_lazy("Fee (€)"), required=False,
                          help_text=gettext_lazy("The part of the entry the operator keeps: at most 20%."))
    guaranteed_cents = EuroField(label=gettext_lazy("Guaranteed prize pool (€)"), required=False,
                                 help_text=gettext_lazy("Required for a freeroll."))
    prize = forms.ChoiceField(label=gettext_lazy("Prize"), choices=PRIZE_CHOICES, initial=Tournament.CASH)
    satellite_target = SatelliteTargetField(
        label=gettext_lazy("Seats in"), queryset=Tournament.objects.none(), required=False,
        help_text=gettext_lazy("Satellites only: an open tournament with an entry cost."))
    min_players = forms.IntegerField(label=gettext_lazy("Minimum players"), required=False, min_value=2,
                                     max_value=512, help_text=gettext_lazy("Sit and Go: leave empty, it starts when full."))
    max_players = forms.IntegerField(label=gettext_lazy("Maximum players"), min_value=2, max_value=512)
    payouts = PayoutsField(label=gettext_lazy("Prize split by position"), required=False,
                           help_text=gettext_lazy("Percentages of the pool, 1st place first; not used by satellites."))
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), required=False, min_value=1, max_value=15,
                                help_text=gettext_lazy("Points format only; empty: as many as a knockout would play."))
    turn_seconds = forms.IntegerField(label=gettext_lazy("Seconds per turn"), initial=30, min_value=10, max_value=120)

    #: the service's reasons of a refused save (``{field: [reason]}``), shown next to the fields
    refused: dict[str, list[str]] | None = None

    class Meta:
        model = Tournament
        fields = ["name", "game", "kind", "format", "buy_in_cents", "fee_cents", "guaranteed_cents", "prize",
                  "satellite_target", "min_players", "max_players", "starts_at", "payouts", "rounds",
                  "turn_seconds", "chat_enabled"]
        labels = {"starts_at": gettext_lazy("Starts at")}
        help_texts = {"starts_at": gettext_lazy("Scheduled only; registration closes 2 minutes before.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        instance = self.instance
        for game, _name in heads_up_games():  # labels and choices in the request's language
            for option in tournament_option_fields(game):
                field = self.fields.get(option.input_name)
                if field is not None:
                    field.label = option.label
                    if option.choices:
                        field.choices = option.choices
        self.fields["satellite_target"].queryset = selectors.satellite_targets(exclude_id=instance.pk)
        if instance.pk is None:
            self.initial.setdefault("payouts", [50, 30, 20])
            self.initial.setdefault("fee_cents", 0)
            self.initial.setdefault("guaranteed_cents", 0)
        else:
            for option in tournament_option_fields(instance.game) if instance.game in ENGINES else []:
                if option.name in (instance.game_options or {}):
                    value = instance.game_options[option.name]
                    self.initial[option.input_name] = (
                        "true" if value is True else "false" if value is False else str(value)) \
                        if option.choices else value

    def _options(self, game: str) -> dict[str, Any]:
        """The chosen game's options that differ from the engine's defaults."""
        options = {}
        for option in tournament_option_fields(game):
            value = self.cleaned_data.get(option.input_name)
            if value in (None, ""):
                continue
            value = _option_value(game, option, value)
            if value != option.default or type(value) is not type(option.default):
                options[option.name] = value
        return options

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = data.get("game") or ""
        for name in list(self._errors):  # another game's options are not this tournament's
            if name.startswith("opt-") and not name.startswith(f"opt-{game}-"):
                del self._errors[name]
        if data.get("kind") == Tournament.SIT_AND_GO and data.get("min_players") is None:
            data["min_players"] = data.get("max_players")
        body = {
            "name": data.get("name"), "game": game or None, "kind": data.get("kind"), "format": data.get("format"),
            "buy_in_cents": data.get("buy_in_cents"),
            "fee_cents": data.get("fee_cents") if data.get("fee_cents") is not None else 0,
            "guaranteed_cents": data.get("guaranteed_cents") if data.get("guaranteed_cents") is not None else 0,
            "prize": data.get("prize"),
            "satellite_target": data["satellite_target"].pk if data.get("satellite_target") else None,
            "min_players": data.get("min_players"), "max_players": data.get("max_players"),
            "starts_at": data.get("starts_at"),
            "payouts": None if data.get("prize") == Tournament.SATELLITE else data.get("payouts"),  # §5.9: unused
            "game_options": self._options(game) if game in ENGINES else {},
            "rounds": data.get("rounds"), "turn_seconds": data.get("turn_seconds"),
            "chat_enabled": bool(data.get("chat_enabled")),
        }
        if data.get("prize") == Tournament.SATELLITE:
            self._errors.pop("payouts", None)  # hidden and not used by a satellite
        elif body["payouts"] is None and "payouts" not in self._errors:
            self.add_error("payouts", _("At least one paid place."))
        self.service_data = body
        if self.refused:
            self._add_service_errors(self.refused)
        elif not self._errors:
            try:
                services.tournament_validate(body, current=self.instance if self.instance.pk else None)
            except DomainError as exc:
                self._add_service_errors(exc.extra.get("fields") or {"body": [exc.detail]})
        return data

    def _add_service_errors(self, fields: dict[str, list[str]]) -> None:
        for name, reasons in fields.items():
            target = SERVICE_FIELD.get(name, name)
            if target is not None and target not in self.fields:
                target = None
            if target is not None and target in self._errors:
                continue
            for reason in reasons:
                if target is None and name == "game_options":
                    reason = _("Game options: %(reason)s") % {"reason": reason}
                self.add_error(target, str(reason))


def _build_form_class() -> type[TournamentFormBase]:
    """The form with every heads-up game's options as fields (``opt-<game>-<option>``): the
    page shows the chosen game's and the form reads only those."""
    extra: dict[str, Any] = {}
    for game, _name in heads_up_games():
        for option in tournament_option_fields(game):
            extra[option.input_name] = _option_form_field(option)
    return type("TournamentForm", (TournamentFormBase,), extra)


TournamentForm = _build_form_class()


def option_fieldsets() -> list[tuple[Any, dict[str, Any]]]:
    """One fieldset per game with its options, shown only while that game is chosen."""
    sets = []
    for game, name in heads_up_games():
        names = option_field_names(game)
        sets.append((format_lazy("{}: {}", gettext_lazy("Game options"), name),
                     {"fields": names or [], "classes": ["game-options", f"game-options-{game}"],
                      "description": "" if names else gettext_lazy("This game has no options to set.")}))
    return sets


def options_in_words(game: str, options: dict[str, Any]) -> str:
    """A tournament's options as the form names them ("Punti per vincere: 21"); the rest are
    the engine's defaults."""
    if game not in ENGINES:
        return ""
    parts = []
    for option in tournament_option_fields(game):
        if option.name in options:
            value = options[option.name]
            shown = "true" if value is True else "false" if value is False else str(value)
            parts.append(f"{option.label}: {dict(option.choices).get(shown, shown)}")
    return "; ".join(parts)


# -- the live split preview --------------------------------------------------------------------


def preview_entrants(raw: Any, *, default: int) -> int:
    try:
        n = int(str(raw).strip())
    except (TypeError, ValueError):
        return default
    return max(0, min(n, 512))


def split_preview_from_form(data) -> dict[str, Any]:
    """The preview for the form's amounts as typed (``data``: the form's POST) and N entrants;
    ``{"problem": sentence}`` when the amounts cannot be read yet."""
    form = TournamentFormBase(data)
    money: dict[str, int] = {}
    for name in ("buy_in_cents", "fee_cents", "guaranteed_cents"):
        field = form.fields[name]
        try:
            money[name] = field.to_python(data.get(name, "")) or 0
        except forms.ValidationError:
            return {"problem": _("%(field)s: an amount in euro, for example %(example)s.")
                    % {"field": field.label, "example": euro_number(250)}}
    prize = data.get("prize") if data.get("prize") in dict(PRIZE_CHOICES) else Tournament.CASH
    target = None
    if prize == Tournament.SATELLITE:
        target = selectors.satellite_targets().filter(pk=_int(data.get("satellite_target"))).first()
        if target is None:
            return {"problem": _("Choose the tournament whose seats this satellite awards.")}
        payouts = None
    else:
        try:
            payouts = form.fields["payouts"].clean(form.fields["payouts"].widget.value_from_datadict(
                data, None, "payouts"))
        except forms.ValidationError as exc:
            return {"problem": " ".join(exc.messages)}
        if not payouts:
            return {"problem": _("At least one paid place.")}
    max_players = _int(data.get("max_players"))
    entrants = preview_entrants(data.get("preview_entrants"), default=max_players or 8)
    preview = selectors.split_preview(
        buy_in_cents=money["buy_in_cents"], fee_cents=money["fee_cents"],
        guaranteed_cents=money["guaranteed_cents"], prize=prize, payouts=payouts, satellite_target=target,
        entrants=entrants)
    return preview_rows(preview)


def preview_rows(preview: dict[str, Any]) -> dict[str, Any]:
    """The preview with a row per paid place (place, effective percentage, cents) and the
    satellite's seats in words."""
    percentages = preview.get("percentages") or []
    preview["rows"] = [{"place": i, "percent": percentages[i - 1] if i <= len(percentages) else None,
                        "cents": cents} for i, cents in enumerate(preview["payouts_cents"], start=1)]
    preview["seats_words"] = (ngettext("%(n)s seat", "%(n)s seats", preview["seats"]) % {"n": preview["seats"]}
                              if preview.get("seats") is not None else "")
    return preview


def tournament_body(t: Tournament) -> dict[str, Any]:
    """A saved tournament as the form's ``service_data`` has it (to send only what changed)."""
    return {"name": t.name, "game": t.game, "kind": t.kind, "format": t.format, "buy_in_cents": t.buy_in_cents,
            "fee_cents": t.fee_cents, "guaranteed_cents": t.guaranteed_cents, "prize": t.prize,
            "satellite_target": t.satellite_target_id, "min_players": t.min_players, "max_players": t.max_players,
            "starts_at": t.starts_at, "payouts": None if t.prize == Tournament.SATELLITE else t.payouts,
            "game_options": t.game_options or {}, "rounds": t.rounds, "turn_seconds": t.turn_seconds,
            "chat_enabled": t.chat_enabled}


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None
