"""Server-side SVG charts (pygal): no script, no CDN, readable without JavaScript.

Each figure is drawn from the same :class:`~apps.backoffice.selectors.Figure` the page
prints as a table beside it, so the chart and the numbers can never disagree.
"""

from __future__ import annotations

import pygal
from django.utils.safestring import SafeString, mark_safe
from pygal.style import Style

from .selectors import Figure

STYLE = Style(background="white", plot_background="white", foreground="#333", foreground_strong="#111",
              foreground_subtle="#888", font_family="system-ui, sans-serif", label_font_size=12,
              major_label_font_size=12, legend_font_size=13, title_font_size=14,
              guide_stroke_color="#e3e3e3", major_guide_stroke_color="#cfcfcf", guide_stroke_dasharray="none",
              major_guide_stroke_dasharray="none",
              colors=("#2f6f4f", "#c98a00", "#3b6ea5", "#a33b3b", "#6b4fa0", "#4f8f8f", "#8f6b4f", "#555"))


def euro(cents: int | float | None) -> str:
    """``€ 1.234,56`` (Italian grouping), from integer cents; the sign in front."""
    if cents is None:
        return ""
    cents = int(cents)
    sign = "−" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}€ {whole:,}".replace(",", ".") + f",{part:02d}"


def number(value: int | float | None) -> str:
    return "" if value is None else f"{int(value):,}".replace(",", ".")


def formatter(unit: str):
    if unit == "cents":
        return euro
    if unit == "percent":
        return lambda v: f"{int(v)}%"
    return number


def chart_svg(figure: Figure, *, kind: str = "bar", series: list[str] | None = None,
              names: dict[str, str] | None = None) -> SafeString:
    """The figure as an inline SVG: ``kind`` is bar, stacked, line or hbar. Untitled and small
    (the card's heading names it; two charts share a row of the page), drawn at about the size
    it is shown so its labels stay legible."""
    chart_class = {"bar": pygal.Bar, "stacked": pygal.StackedBar, "line": pygal.Line,
                   "hbar": pygal.HorizontalBar}[kind]
    chart = chart_class(style=STYLE, js=[], disable_xml_declaration=True, width=440, height=215,
                        explicit_size=False, legend_at_bottom=True,
                        legend_at_bottom_columns=min(3, max(1, len(series or figure.series))),
                        truncate_legend=-1, legend_box_size=12,
                        value_formatter=formatter(figure.unit), print_values=False, show_minor_x_labels=len(figure.labels) <= 10,
                        show_x_guides=False,
                        x_label_rotation=0 if len(figure.labels) <= 10 else 45, truncate_label=12,
                        no_data_text="—", margin=6, margin_bottom=20)
    chart.x_labels = [label[5:] if len(label) == 10 and label[4] == "-" else label for label in figure.labels]
    if len(figure.labels) > 10:
        step = max(1, len(figure.labels) // 10)
        chart.x_labels_major = chart.x_labels[::step]
    drawn = [figure.series[name] for name in series or list(figure.series)]
    top = max((sum(v) if kind == "stacked" else max(v) for v in zip(*drawn, strict=True)), default=0) if drawn else 0
    if figure.unit == "count" and 0 < top <= 10:  # whole numbers only: no 0, 0, 1, 1 ... on the axis
        chart.y_labels = list(range(0, top + 1))
    names = names or {}
    for name in series or list(figure.series):
        chart.add(names.get(name, name), figure.series[name])
    svg = chart.render(is_unicode=True)
    return mark_safe(svg)  # noqa: S308 (pygal escapes every label and value it draws)
