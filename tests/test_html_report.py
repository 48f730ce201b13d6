"""tautrait report --html: a self-contained page, checked as text and in headless Chromium.

The browser tests need Debian's ``chromium`` package (apt-get install -y chromium) and
skip without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.store.tables import DiagnosisRecord, RunRecord
from tautrait_core.testing import wheel_contents
from tests.test_reports_fixtures import SCRIPT, episode, results_store, store_run

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (CI: apt-get install -y chromium)"
)
OUTCOMES = {0: ["pass", "pass"], 1: ["pass", "fail"], 2: ["fail", "error"]}


@pytest.fixture
def report_page(tmp_path: Path) -> Path:
    """A report of a no-trait run and a run with traits whose transcript holds a script."""
    store = results_store()
    base = store_run(store, OUTCOMES, run_name="<b>bold name</b>")
    impatient = store_run(store, OUTCOMES, traits="impatience=high")
    hostile = episode(1, 1, "fail", text=f"{SCRIPT} <img src=x onerror=\"document.title='img'\">")
    hostile.messages[3].content = SCRIPT
    hostile.reward_info.state_diff = [SCRIPT]
    store.save_episode(impatient.id, hostile)
    store.save_diagnosis(
        DiagnosisRecord(
            run_id=impatient.id,
            task_id=1,
            trial=1,
            fault="agent",
            fault_type="unintended_action",
            explanation=SCRIPT,
            model="judge",
        )
    )
    page = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["report", base.id, impatient.id, "--html", str(page)])
    assert result.exit_code == 0, result.output
    return page


def test_page_is_self_contained_and_escapes_run_text(report_page: Path) -> None:
    html = report_page.read_text()
    assert "<script" not in html.lower()
    assert "&lt;script&gt;document.title=" in html
    assert "<b>bold name</b>" not in html and "&lt;b&gt;bold name&lt;/b&gt;" in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    assert "Content-Security-Policy" in html
    for marker in ('class="chart pass-k-chart"', 'class="chart trait-drop-chart"'):
        assert marker in html
    assert 'class="grid success-grid"' in html
    # every episode's transcript is there: 2 runs x 6 episodes
    assert html.count('<details class="episode') == 12
    assert "Required outputs missing: CL-4" in html
    assert "Diagnosis by judge: fault agent, type unintended_action." in html


def test_a_single_run_has_no_trait_drop_chart(tmp_path: Path) -> None:
    record = store_run(results_store(), OUTCOMES)
    page = tmp_path / "one.html"
    assert CliRunner().invoke(cli, ["report", record.id, "--html", str(page)]).exit_code == 0
    html = page.read_text()
    assert "pass-k-chart" in html and "trait-drop-chart" not in html


def test_mismatched_runs_get_a_note_instead_of_a_chart(tmp_path: Path) -> None:
    store = results_store()
    base = store_run(store, OUTCOMES)
    other = store_run(store, OUTCOMES, traits="confusion=low", agent_model="openai/agent-z")
    page = tmp_path / "mismatch.html"
    result = CliRunner().invoke(cli, ["report", base.id, other.id, "--html", str(page)])
    assert result.exit_code == 0 and "No trait-drop chart" in result.output
    assert "trait-drop-chart" not in page.read_text()
    assert "differs in agent_model" in page.read_text()


def chromium(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        *arguments,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


@needs_chromium
def test_page_renders_in_chromium_and_runs_nothing(report_page: Path, tmp_path: Path) -> None:
    dom = chromium(
        tmp_path, "--virtual-time-budget=2000", "--dump-dom", report_page.as_uri()
    ).stdout
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert title is not None and title.group(1).startswith("tautrait report: ")
    assert 'id="pwned"' not in dom and "<script" not in dom.lower()
    assert "&lt;script&gt;document.title='pwned'" in dom  # shown as text
    assert "<img" not in dom
    assert dom.count("<svg") == 2 and "pass-k-chart" in dom and "trait-drop-chart" in dom
    assert dom.count("<polyline") == 2  # one pass^k curve per run


@needs_chromium
def test_page_screenshot(report_page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    chromium(tmp_path, "--window-size=1200,1600", f"--screenshot={shot}", report_page.as_uri())
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000


def hostile(place: str) -> str:
    """Model text naming ``place`` that would run, inject markup or be evaluated by a template."""
    return (
        f"{place}: <script>document.title='pwned'</script> "
        '"><img src=x onerror=alert(1)> {{ 7*7 }}'
    )


class PageText(HTMLParser):
    """The tags and text nodes of a page, as a browser's parser splits them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self.svg_depth = 0
        self.texts: list[tuple[str, bool]] = []  # (text, inside an <svg>)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes |= {name for name, _ in attrs}
        self.svg_depth += tag == "svg"

    def handle_endtag(self, tag: str) -> None:
        self.svg_depth -= tag == "svg"

    def handle_data(self, data: str) -> None:
        self.texts.append((data, self.svg_depth > 0))

    def count(self, text: str, in_svg: bool) -> int:
        return sum(text in data for data, svg in self.texts if svg == in_svg)


@pytest.fixture
def hostile_page(tmp_path: Path) -> Path:
    """A two-run report whose every piece of run, task and model text is hostile."""
    store = results_store()
    model = hostile("agent model")
    base = store_run(store, OUTCOMES, run_name=hostile("run name"), agent_model=model)
    impatient = store_run(store, OUTCOMES, traits="impatience=high", agent_model=model)
    with store.session() as session:  # a trait label as an older or imported database holds it
        record = session.get(RunRecord, impatient.id)
        assert record is not None
        record.traits = hostile("trait label")
        session.add(record)
        session.commit()
    for run_id in (base.id, impatient.id):
        result = episode(1, 1, "fail", text=hostile("agent reply"))
        result.messages[0].content = hostile("agent instructions")
        result.messages[1].content = hostile("user message")
        result.messages[3].content = hostile("tool result")
        assert result.reward_info is not None
        result.reward_info.outputs = {hostile("required output"): False}
        store.save_episode(run_id, result)
    page = tmp_path / "hostile.html"
    result = CliRunner().invoke(cli, ["report", base.id, impatient.id, "--html", str(page)])
    assert result.exit_code == 0, result.output
    return page


def test_model_text_is_shown_escaped_and_never_evaluated(hostile_page: Path) -> None:
    html = hostile_page.read_text()
    page = PageText()
    page.feed(html)
    assert "script" not in page.tags and "img" not in page.tags
    assert "onerror" not in page.attributes
    # each text is shown whole, as written: no markup made of it, no template expression run
    shown = {
        # place: (text nodes in HTML, in SVG)
        "run name": (2, 0),  # runs table, run heading
        # runs table, run headings, trait-drop table; legend, point tips, trait-drop row, bar tip
        "agent model": (5, 8),
        # runs table, trait-drop column, run heading; legend, point tips, bar label, bar tip
        "trait label": (3, 5),
        "agent instructions": (2, 0),  # each run's system prompt
        "user message": (2, 0),
        "agent reply": (2, 0),
        "tool result": (2, 0),
        "required output": (2, 0),  # each failed episode's breakdown
    }
    for place, (in_html, in_svg) in shown.items():
        text = hostile(place)
        assert (page.count(text, False), page.count(text, True)) == (in_html, in_svg), place
    assert "{{ 7*7 }}" in html and ">49<" not in html


@needs_chromium
def test_hostile_text_runs_nothing_in_chromium(hostile_page: Path, tmp_path: Path) -> None:
    dom = chromium(
        tmp_path, "--virtual-time-budget=2000", "--dump-dom", hostile_page.as_uri()
    ).stdout
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert title is not None and title.group(1).startswith("tautrait report: ")
    assert "<script" not in dom.lower() and "<img" not in dom
    assert "{{ 7*7 }}" in dom and "&lt;script&gt;document.title='pwned'" in dom


def test_the_templates_ship_in_the_core_wheel(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    names = wheel_contents(root, tmp_path)
    templates = root / "tautrait_core" / "render" / "templates"
    shipped = {path.relative_to(root).as_posix() for path in templates.iterdir()}
    assert shipped and shipped <= names


def test_help_does_not_import_jinja2() -> None:
    probe = (
        "import sys\nfrom tautrait_core.cli import main\nimport tautrait_core.render.html\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print('JINJA2', 'jinja2' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert "JINJA2 False" in result.stdout, result.stdout + result.stderr


Box = tuple[float, float, float, float]  # left, top, right, bottom


def text_box(element: ElementTree.Element) -> Box:
    """A generous bounding box of an SVG text: 0.6 em per character, 1 em above the
    baseline, 0.3 em below it (sans-serif glyphs fit inside)."""
    size = float(element.get("font-size", "12"))
    width = len(element.text or "") * 0.6 * size
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    left = {"start": x, "middle": x - width / 2, "end": x - width}[
        element.get("text-anchor", "start")
    ]
    return left, y - size, left + width, y + 0.3 * size


def rect_box(element: ElementTree.Element) -> Box:
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    return x, y, x + float(element.get("width", "0")), y + float(element.get("height", "0"))


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_pass_k_axis_label_clears_the_legend(report_page: Path) -> None:
    html = report_page.read_text()
    svg = re.search(r'<svg class="chart pass-k-chart".*?</svg>', html, re.S)
    assert svg is not None
    chart = ElementTree.fromstring(svg.group(0))
    ns = {"svg": "http://www.w3.org/2000/svg"}
    (axis_label,) = [
        t for t in chart.iterfind("svg:text", ns) if t.text == "k (trials that must all succeed)"
    ]
    legend = chart.find("svg:g[@class='legend']", ns)
    assert legend is not None
    entries = [text_box(t) for t in legend.iterfind("svg:text", ns)]
    entries += [rect_box(r) for r in legend.iterfind("svg:rect", ns)]
    assert len(entries) == 4  # a swatch and a label per run
    assert not any(overlap(text_box(axis_label), entry) for entry in entries)
    height = float(chart.get("height", "0"))
    assert all(entry[3] <= height for entry in entries)  # the legend is inside the chart
