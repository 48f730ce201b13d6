"""The HTML report with four runs: its runs table fits a 1280-pixel window, and runs with
the same pass^k values each stay visible in the pass^k chart."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tests.test_html_report import chromium, needs_chromium
from tests.test_reports_fixtures import results_store, store_run

SAME_OUTCOMES = {
    0: ["pass", "pass", "fail"],
    1: ["pass", "fail", "fail"],
    2: ["fail", "pass", "pass"],
}
TRAITS = [
    "",
    "impatience=high",
    "confusion=high,skeptical=medium",
    "incoherence=low,impatience=low",
]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def four_runs_page(tmp_path: Path) -> Path:
    """A report of four runs with long model names and the same outcomes."""
    store = results_store()
    runs = [
        store_run(
            store,
            SAME_OUTCOMES,
            traits=traits,
            agent_model="anthropic/claude-3-5-sonnet-20241022",
            user_model="openai/gpt-4o-mini-2024-07-18",
            run_name=f"trait-grid-sweep/{index}",
        )
        for index, traits in enumerate(TRAITS)
    ]
    page = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["report", *(run.id for run in runs), "--html", str(page)])
    assert result.exit_code == 0, result.output
    return page


@needs_chromium
def test_the_runs_table_fits_a_1280_pixel_window(four_runs_page: Path, tmp_path: Path) -> None:
    # a copy that reports the layout in its title (the report itself allows no script)
    html = re.sub(
        r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", four_runs_page.read_text()
    )
    measure = (
        "<script>const r = el => Math.round(el.getBoundingClientRect().right);"
        "document.title = ['table', r(document.querySelector('table.runs')), 'body',"
        " r(document.body), 'page', document.documentElement.scrollWidth,"
        " 'window', document.documentElement.clientWidth].join(' ')</script></body>"
    )
    measured = tmp_path / "measured.html"
    measured.write_text(html.replace("</body>", measure))

    dom = chromium(
        tmp_path, "--window-size=1280,900", "--virtual-time-budget=2000", "--dump-dom",
        measured.as_uri(),
    ).stdout  # fmt: skip

    found = re.search(r"<title>table (\d+) body (\d+) page (\d+) window (\d+)</title>", dom)
    assert found is not None, dom[:500]
    table, body, page, window = map(int, found.groups())
    assert table <= body, "the runs table reaches past the page's column"
    assert page <= window, "the page scrolls sideways"


def test_runs_with_the_same_pass_k_each_stay_visible(four_runs_page: Path) -> None:
    html = four_runs_page.read_text()
    svg = re.search(r'<svg class="chart pass-k-chart".*?</svg>', html, re.S)
    assert svg is not None
    chart = ElementTree.fromstring(svg.group(0))
    lines = chart.findall(f"{SVG}polyline")
    assert len(lines) == 4 and len({line.get("points") for line in lines}) == 1
    # the shared line is drawn in turns: dashes of each colour, at different offsets
    assert len({line.get("stroke") for line in lines}) == 4
    assert all(line.get("stroke-dasharray") for line in lines)
    assert len({line.get("stroke-dashoffset") for line in lines}) == 4
    # shared points are rings: the later a run, the smaller its dot
    first_points = [c for c in chart.findall(f"{SVG}circle") if c.get("cx") == "56.0"]
    radii = [float(c.get("r", "0")) for c in first_points]
    assert len(radii) == 4 and radii == sorted(radii, reverse=True) and len(set(radii)) == 4
