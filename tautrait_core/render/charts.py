"""Charts as inline SVG strings (no scripts, no external files): pass^k curves and the
trait-drop bars. Every label is XML-escaped."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from math import ceil

from tautrait_core.analysis.metrics import PassHatKInterval
from tautrait_core.analysis.trait_drop import TraitDropTable

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b")
FONT = 'font-family="sans-serif" font-size="12"'


@dataclass(frozen=True)
class CurveSeries:
    """One run's pass^k values with their intervals, under a legend label."""

    label: str
    points: list[PassHatKInterval]


def _text(x: float, y: float, content: str, anchor: str = "start", extra: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT}{extra}>'
        f"{escape(content)}</text>"
    )


def pass_hat_k_chart(series: list[CurveSeries]) -> str:
    """pass^k against k for each series, with its confidence band."""
    left, top, width, height = 56.0, 16.0, 560.0, 240.0
    legend_top = top + height + 44
    total_height = legend_top + 18 * len(series) + 8
    top_k = max((p.k for s in series for p in s.points), default=1)

    def x(k: int) -> float:
        return left + width / 2 if top_k == 1 else left + (k - 1) / (top_k - 1) * width

    def y(value: float) -> float:
        return top + (1.0 - value) * height

    parts = [
        f'<svg class="chart pass-k-chart" xmlns="http://www.w3.org/2000/svg" '
        f'width="{left + width + 40:.0f}" height="{total_height:.0f}" '
        f'viewBox="0 0 {left + width + 40:.0f} {total_height:.0f}" role="img" '
        f'aria-label="pass^k by k">'
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#ddd"/>'
        )
        parts.append(_text(left - 8, y(tick) + 4, f"{tick:.2f}", "end"))
    for k in range(1, top_k + 1):
        parts.append(_text(x(k), top + height + 18, str(k), "middle"))
    parts.append(
        _text(left + width / 2, top + height + 36, "k (trials that must all succeed)", "middle")
    )
    parts.append(
        _text(
            14,
            top + height / 2,
            "pass^k",
            "middle",
            f' transform="rotate(-90 14 {top + height / 2:.1f})"',
        )
    )
    for index, item in enumerate(series):
        color = PALETTE[index % len(PALETTE)]
        points = sorted(item.points, key=lambda p: p.k)
        if points:
            band = [f"{x(p.k):.1f},{y(p.high):.1f}" for p in points]
            band += [f"{x(p.k):.1f},{y(p.low):.1f}" for p in reversed(points)]
            parts.append(
                f'<polygon points="{" ".join(band)}" fill="{color}" fill-opacity="0.15" '
                f'stroke="none"/>'
            )
            line = " ".join(f"{x(p.k):.1f},{y(p.value):.1f}" for p in points)
            parts.append(
                f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="2"/>'
            )
        for p in points:
            tip = f"{item.label}: pass^{p.k} = {p.value:.3f} [{p.low:.3f}, {p.high:.3f}]"
            parts.append(
                f'<circle cx="{x(p.k):.1f}" cy="{y(p.value):.1f}" r="3.5" fill="{color}">'
                f"<title>{escape(tip)}</title></circle>"
            )
        legend_y = legend_top + 18 * index
        parts.append(
            f'<rect x="{left}" y="{legend_y - 9:.1f}" width="12" height="12" fill="{color}"/>'
        )
        parts.append(_text(left + 18, legend_y + 1, item.label))
    parts.append("</svg>")
    return "".join(parts)


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


def trait_drop_chart(table: TraitDropTable) -> str:
    """Horizontal bars of the relative change of pass^1 per trait mix, with intervals."""
    label_width, width, value_width = 230.0, 380.0, 190.0
    zero = label_width + width / 2
    extent = _extent(table)
    bar_count = sum(len(row.cells) for row in table.rows)
    total_height = 30 + 24 * len(table.rows) + 20 * bar_count + 24

    def x(value: float) -> float:
        return zero + value / extent * width / 2

    parts = [
        f'<svg class="chart trait-drop-chart" xmlns="http://www.w3.org/2000/svg" '
        f'width="{label_width + width + value_width:.0f}" height="{total_height:.0f}" '
        f'viewBox="0 0 {label_width + width + value_width:.0f} {total_height:.0f}" role="img" '
        f'aria-label="relative change of pass^1 by trait mix">'
    ]
    for tick in (-extent, -extent / 2, 0.0, extent / 2, extent):
        parts.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="20" y2="{total_height - 20:.0f}" '
            f'stroke="{"#999" if tick == 0 else "#eee"}"/>'
        )
        parts.append(_text(x(tick), 14, f"{tick:+.0%}", "middle"))
    cursor = 30.0
    for row in table.rows:
        parts.append(_text(4, cursor + 14, row.label, extra=' font-weight="bold"'))
        cursor += 24
        for cell in row.cells:
            parts.append(_text(label_width - 8, cursor + 12, cell.traits, "end"))
            value = cell.relative_change
            if value is None:
                parts.append(_text(zero + 6, cursor + 12, "n/a (base never succeeds)"))
                cursor += 20
                continue
            start, end = sorted((x(0.0), x(value)))
            color = "#c0392b" if value < 0 else "#27ae60"
            tip = f"{row.label}, {cell.traits}: {value:+.1%}"
            parts.append(
                f'<rect x="{start:.1f}" y="{cursor + 3:.1f}" width="{max(end - start, 1):.1f}" '
                f'height="12" fill="{color}"><title>{escape(tip)}</title></rect>'
            )
            if cell.low is not None and cell.high is not None:
                mid = cursor + 9
                parts.append(
                    f'<path d="M{x(cell.low):.1f} {mid - 5:.1f}v10M{x(cell.low):.1f} {mid:.1f}'
                    f'H{x(cell.high):.1f}M{x(cell.high):.1f} {mid - 5:.1f}v10" stroke="#333" '
                    f'fill="none"/>'
                )
                interval = f" [{cell.low:+.1%}, {cell.high:+.1%}]"
            else:
                interval = ""
            parts.append(_text(label_width + width + 8, cursor + 12, f"{value:+.1%}{interval}"))
            cursor += 20
    parts.append("</svg>")
    return "".join(parts)
