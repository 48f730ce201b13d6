"""Chart geometry for the HTML report: pass^k curves and trait-drop bars.

Only positions, colours and label texts are computed here; the SVG markup is written by
``templates/charts.svg.j2``, rendered with autoescaping, so no label is escaped by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import ceil

from tautrait_core.analysis.trait_drop import TraitDropTable
from tautrait_core.grading.metrics import PassHatKInterval

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b")
FONT_SIZE = 12
"""Font size of every chart label, in SVG units (the templates write it out)."""
AXIS_LABEL = "k (trials that must all succeed)"
LEGEND_ROW = 18.0
"""Height of one legend entry in the pass^k chart."""


@dataclass(frozen=True)
class CurveSeries:
    """One run's pass^k values with their intervals, under a legend label."""

    label: str
    points: list[PassHatKInterval]


@dataclass(frozen=True)
class Label:
    """A line of chart text; ``y`` is its baseline, ``anchor`` the SVG text-anchor."""

    x: float
    y: float
    text: str
    anchor: str = "start"
    bold: bool = False
    rotation: float = 0.0
    """Degrees to turn the text about its anchor point (``-90`` reads bottom to top)."""


@dataclass(frozen=True)
class Rule:
    """A straight grid or axis line."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str


@dataclass(frozen=True)
class Dot:
    """A data point, with the tooltip that names its value."""

    x: float
    y: float
    tip: str


@dataclass(frozen=True)
class Curve:
    """One series of the pass^k chart: its band, its line and its points.

    Curves with the same line share it: each draws dashes of ``DASH`` in turn
    (``dash_array``, shifted by ``dash_offset``), and their dots are rings of decreasing
    ``dot_radius``, so every one of them stays visible.
    """

    color: str
    band: list[tuple[float, float]]
    line: list[tuple[float, float]]
    dots: list[Dot]
    dash_array: str | None = None
    dash_offset: float = 0.0
    dot_radius: float = 3.5


DASH = 8.0
"""Length of one dash of a line shared by several curves."""


@dataclass(frozen=True)
class LegendEntry:
    """A colour swatch (12 x 12, top-left at ``x``, ``y``) and the series label beside it."""

    x: float
    y: float
    color: str
    label: Label


@dataclass(frozen=True)
class PassHatKChart:
    """Everything the pass^k chart draws, in drawing order."""

    width: float
    height: float
    rules: list[Rule]
    labels: list[Label]
    curves: list[Curve]
    legend: list[LegendEntry]


@dataclass(frozen=True)
class Bar:
    """One trait mix's relative change of pass^1, with its interval when there is one."""

    x: float
    y: float
    width: float
    color: str
    tip: str
    interval: tuple[float, float] | None
    """The interval's left and right ends (x), drawn as a whisker through the bar's middle."""


@dataclass(frozen=True)
class TraitDropChart:
    """Everything the trait-drop chart draws."""

    width: float
    height: float
    rules: list[Rule]
    labels: list[Label]
    bars: list[Bar]


def pass_hat_k_chart(series: list[CurveSeries]) -> PassHatKChart:
    """pass^k against k for each series, with its confidence band and a legend below.

    The legend starts one text line below the x-axis label, so the two never overlap.
    """
    left, top, width, height = 56.0, 16.0, 560.0, 240.0
    axis_label_y = top + height + 36
    legend_top = axis_label_y + 2 * FONT_SIZE
    top_k = max((p.k for s in series for p in s.points), default=1)

    def x(k: int) -> float:
        return left + width / 2 if top_k == 1 else left + (k - 1) / (top_k - 1) * width

    def y(value: float) -> float:
        return top + (1.0 - value) * height

    rules, labels = [], []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        rules.append(Rule(left, y(tick), left + width, y(tick), "#ddd"))
        labels.append(Label(left - 8, y(tick) + 4, f"{tick:.2f}", "end"))
    labels += [Label(x(k), top + height + 18, str(k), "middle") for k in range(1, top_k + 1)]
    labels.append(Label(left + width / 2, axis_label_y, AXIS_LABEL, "middle"))
    labels.append(Label(14, top + height / 2, "pass^k", "middle", rotation=-90))
    curves, legend = [], []
    for index, item in enumerate(series):
        color = PALETTE[index % len(PALETTE)]
        points = sorted(item.points, key=lambda p: p.k)
        band = [(x(p.k), y(p.high)) for p in points]
        band += [(x(p.k), y(p.low)) for p in reversed(points)]
        dots = [
            Dot(
                x(p.k),
                y(p.value),
                f"{item.label}: pass^{p.k} = {p.value:.3f} [{p.low:.3f}, {p.high:.3f}]",
            )
            for p in points
        ]
        line = [(x(p.k), y(p.value)) for p in points]
        curves.append(Curve(color, band, line, dots))
        legend_y = legend_top + LEGEND_ROW * index
        legend.append(
            LegendEntry(left, legend_y - 9, color, Label(left + 18, legend_y + 1, item.label))
        )
    total_height = legend_top + LEGEND_ROW * len(series) + 8
    chart_curves = _sharing_lines(curves)
    return PassHatKChart(left + width + 40, total_height, rules, labels, chart_curves, legend)


def _sharing_lines(curves: list[Curve]) -> list[Curve]:
    """``curves``, those with the same line (to the pixel) taking turns to draw it."""
    groups: dict[tuple[tuple[float, float], ...], list[int]] = {}
    for index, curve in enumerate(curves):
        key = tuple((round(px), round(py)) for px, py in curve.line)
        groups.setdefault(key, []).append(index)
    shared = list(curves)
    for members in groups.values():
        if len(members) < 2:
            continue
        for turn, index in enumerate(members):
            shared[index] = replace(
                curves[index],
                dash_array=f"{DASH:g} {DASH * (len(members) - 1):g}",
                dash_offset=DASH * turn,
                dot_radius=3.5 + 2.0 * (len(members) - 1 - turn),
            )
    return shared


def _extent(table: TraitDropTable) -> float:
    values = [
        abs(v)
        for row in table.rows
        for cell in row.cells
        for v in (cell.relative_change, cell.low, cell.high)
        if v is not None
    ]
    largest = max(values, default=0.0)
    step = 0.1 if largest <= 1 else 0.5
    return max(step, ceil(largest / step - 1e-9) * step)


def trait_drop_chart(table: TraitDropTable) -> TraitDropChart:
    """Horizontal bars of the relative change of pass^1 per trait mix, with intervals."""
    label_width, width, value_width = 230.0, 380.0, 190.0
    zero = label_width + width / 2
    extent = _extent(table)
    bar_count = sum(len(row.cells) for row in table.rows)
    total_height = 30 + 24 * len(table.rows) + 20 * bar_count + 24

    def x(value: float) -> float:
        return zero + value / extent * width / 2

    rules, labels, bars = [], [], []
    for tick in (-extent, -extent / 2, 0.0, extent / 2, extent):
        rules.append(Rule(x(tick), 20, x(tick), total_height - 20, "#999" if tick == 0 else "#eee"))
        labels.append(Label(x(tick), 14, f"{tick:+.0%}", "middle"))
    cursor = 30.0
    for row in table.rows:
        labels.append(Label(4, cursor + 14, row.label, bold=True))
        cursor += 24
        for cell in row.cells:
            labels.append(Label(label_width - 8, cursor + 12, cell.traits, "end"))
            value = cell.relative_change
            if value is None:
                labels.append(Label(zero + 6, cursor + 12, "n/a (base never succeeds)"))
                cursor += 20
                continue
            start, end = sorted((x(0.0), x(value)))
            interval = None
            value_text = f"{value:+.1%}"
            if cell.low is not None and cell.high is not None:
                interval = (x(cell.low), x(cell.high))
                value_text += f" [{cell.low:+.1%}, {cell.high:+.1%}]"
            bars.append(
                Bar(
                    start,
                    cursor + 3,
                    max(end - start, 1),
                    "#c0392b" if value < 0 else "#27ae60",
                    f"{row.label}, {cell.traits}: {value:+.1%}",
                    interval,
                )
            )
            labels.append(Label(label_width + width + 8, cursor + 12, value_text))
            cursor += 20
    return TraitDropChart(label_width + width + value_width, total_height, rules, labels, bars)
