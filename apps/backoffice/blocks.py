"""The dashboard's blocks: each figure as a chart with its numbers beside it, shared by the
page (views.dashboard) and the staff socket that keeps its live part current (consumers)."""

from __future__ import annotations

from datetime import date

from django.utils.translation import gettext_lazy, ngettext_lazy

from . import selectors
from .charts import chart_svg, formatter

#: (figure key, title, chart kind, series drawn) in the page's order
CHARTS = [
    ("fees_by_day", gettext_lazy("Tournament fees by day"), "stacked", None),
    ("fees_by_game", gettext_lazy("Tournament fees by game"), "hbar", None),
    ("bank_cash_by_day", gettext_lazy("Bank (its share of cash pots) by day"), "stacked", None),
    ("bank_cash_by_game", gettext_lazy("Bank (cash) by game"), "hbar", None),
    ("bank_credits_by_day", gettext_lazy("Bank (its share of credits pots) by day"), "stacked", None),
    ("bank_credits_by_game", gettext_lazy("Bank (credits) by game"), "hbar", None),
    ("prize_pools_by_day", gettext_lazy("Tournament prizes paid by day"), "stacked", None),
    ("overlay_by_day", gettext_lazy("Overlay paid on guarantees by day"), "stacked", None),
    ("bonus_granted_by_day", gettext_lazy("Bonus granted by day"), "bar", None),
    ("refunds_by_rule", gettext_lazy("Cancellation refunds by malfunction rule"), "stacked", ["cash", "bonus"]),
    ("tournaments_by_day", gettext_lazy("Tournaments finished and cancelled by day"), "bar", ["run", "cancelled"]),
    ("activity_by_hour", gettext_lazy("Busiest hour: tables, tournament matches and players at play"), "line", None),
    ("newcomers_by_day", gettext_lazy("New players and first stakes by day"), "bar", None),
]
SERIES_NAMES = {
    "cash": gettext_lazy("cash"), "bonus": gettext_lazy("bonus"), "total": gettext_lazy("total"),
    "refunded": gettext_lazy("registrations refunded"), "players": gettext_lazy("players"),
    "run": gettext_lazy("finished"),
    "cancelled": gettext_lazy("cancelled"), "fill_percent": gettext_lazy("fill rate %"),
    "tables": gettext_lazy("tables"), "tournament_matches": gettext_lazy("tournament matches"),
    "new_players": gettext_lazy("new players"),
    "first_stakes": gettext_lazy("first stakes"),
    selectors.UNKNOWN: gettext_lazy("game not known yet"),
}


def _iso_day(label: str) -> date | None:
    try:
        return date.fromisoformat(label) if len(label) == 10 else None
    except ValueError:
        return None


def _day_label(label: str, one_year: bool) -> str:
    """A day as Italian staff read it, short: 28/11 (28/11/26 when the period spans two years)."""
    day = _iso_day(label)
    if day is None:
        return label
    return day.strftime("%d/%m") if one_year else day.strftime("%d/%m/%y")


def figure_block(figure: selectors.Figure, title, kind: str, series: list[str] | None) -> dict:
    """The chart (every label, zeros included) and its table: the rows with something in them
    (an idle hour or day is a flat stretch of the chart, not a line of zeros), so the table
    stays short beside its chart."""
    formats = [formatter(figure.unit_of(n)) for n in figure.series]
    names = [str(SERIES_NAMES.get(n, n)) for n in figure.series]
    days = [d for label in figure.labels if (d := _iso_day(label))]
    one_year = len({d.year for d in days}) <= 1
    return {
        "key": figure.key, "title": title,
        "svg": chart_svg(figure, kind=kind, series=series, names={k: str(v) for k, v in SERIES_NAMES.items()}),
        "columns": names,
        "rows": [(str(SERIES_NAMES.get(label, label)) if label == selectors.UNKNOWN else _day_label(label, one_year),
                  [fmt(v) for fmt, v in zip(formats, values, strict=True)])
                 for label, values in figure.rows() if any(values)],
        "totals": [fmt(figure.total(n)) if figure.unit_of(n) != "percent" or n in figure.overall else ""
                   for fmt, n in zip(formats, figure.series, strict=True)] if figure.summable else [],
    }


def _sum(figure: selectors.Figure, *names: str) -> int:
    return sum(figure.total(n) for n in names)


def headline(figures: dict[str, selectors.Figure]) -> list[dict]:
    """The period's figures at a glance, above the charts: (key, label, value, detail)."""
    euro, count = formatter("cents"), formatter("count")
    refunds, tournaments = figures["refunds_by_rule"], figures["tournaments_by_day"]
    hours, newcomers = figures["activity_by_hour"], figures["newcomers_by_day"]
    busiest = max(range(len(hours.labels)), default=None,
                  key=lambda i: (hours.series["tables"][i] + hours.series["tournament_matches"][i],
                                 hours.series["players"][i]))
    busy = busiest is not None and (hours.series["tables"][busiest] or hours.series["tournament_matches"][busiest])
    return [
        {"key": "fees", "label": gettext_lazy("Tournament fees"), "value": euro(_sum(figures["fees_by_day"],
                                                                                   *figures["fees_by_day"].series))},
        {"key": "bank_cash", "label": gettext_lazy("Bank (cash)"),
         "value": euro(_sum(figures["bank_cash_by_day"], *figures["bank_cash_by_day"].series))},
        {"key": "bank_credits", "label": gettext_lazy("Bank (credits)"),
         "value": count(_sum(figures["bank_credits_by_day"], *figures["bank_credits_by_day"].series))},
        {"key": "prizes", "label": gettext_lazy("Prizes paid"),
         "value": euro(_sum(figures["prize_pools_by_day"], "cash", "bonus"))},
        {"key": "overlay", "label": gettext_lazy("Overlay paid"),
         "value": euro(_sum(figures["overlay_by_day"], "cash", "bonus"))},
        {"key": "bonus", "label": gettext_lazy("Bonus granted"), "value": euro(_sum(figures["bonus_granted_by_day"],
                                                                                  "bonus"))},
        {"key": "refunds", "label": gettext_lazy("Cancellation refunds"), "value": euro(_sum(refunds, "cash", "bonus")),
         "detail": ngettext_lazy("%(n)s registration", "%(n)s registrations", "n") % {"n": refunds.total("refunded")}},
        {"key": "tournaments", "label": gettext_lazy("Tournaments finished / cancelled"),
         "value": f"{tournaments.total('run')} / {tournaments.total('cancelled')}",
         "detail": gettext_lazy("fill rate %(p)s%%") % {"p": tournaments.total("fill_percent")}},
        {"key": "busiest", "label": gettext_lazy("Busiest hour"),
         "value": f"{hours.labels[busiest]}:00" if busy else "—",
         "detail": (gettext_lazy("tables %(t)s · tournament matches %(m)s · players %(p)s") % {
             "t": hours.series["tables"][busiest], "m": hours.series["tournament_matches"][busiest],
             "p": hours.series["players"][busiest]}) if busy else ""},
        {"key": "newcomers", "label": gettext_lazy("New players / first stakes"),
         "value": f"{newcomers.total('new_players')} / {newcomers.total('first_stakes')}"},
    ]


def dashboard_blocks(*, period) -> tuple[list[dict], list[dict]]:
    """The headline figures and every figure's block of the period, in the page's order."""
    figures = {f.key: f for f in selectors.dashboard(period=period)}
    return headline(figures), [figure_block(figures[key], title, kind, series) for key, title, kind, series in CHARTS]


def live_block(figure: selectors.Figure) -> dict:
    """The busiest-hour figure (``selectors.activity_by_hour``), the one that moves while
    players come and go."""
    title, kind, series = next((t, k, s) for key, t, k, s in CHARTS if key == figure.key)
    return figure_block(figure, title, kind, series)
