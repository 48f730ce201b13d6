"""``tautrait view``: browse stored runs in the terminal.

Three screens, each one page of the terminal (80x24 is enough): the runs, newest first;
one run's episodes (all of them, or only those that did not pass); one episode's
transcript and reward breakdown (the view ``tautrait show`` prints), a page at a time.
Each screen reads one line of input: a number opens an entry, a letter moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tautrait_core.analysis.task_outcomes import failing_parts
from tautrait_core.analysis.transcript import visible
from tautrait_core.render.console import run_heading
from tautrait_core.render.terminal import episode_view
from tautrait_core.types.result import Outcome

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.table import Table

    from tautrait_core.store.results import ResultStore
    from tautrait_core.store.tables import RunRecord
    from tautrait_core.types.result import EpisodeResult

CHROME_LINES = 8
"""Lines of a list screen that are not entries: title, run heading, column heads and
their rule, message, keys, the prompt, and one to spare."""

Screen = Callable[[], "Screen | None"]
"""A screen shows itself, reads one answer and returns the next screen (``None``: quit)."""


@dataclass
class Page:
    """Which slice of a list of ``total`` entries shows, ``size`` at a time."""

    total: int
    size: int
    first: int = 0

    @property
    def last(self) -> int:
        """The index after the last entry shown."""
        return min(self.first + self.size, self.total)

    def turn(self, step: int) -> bool:
        """Move a page forward (``1``) or back (``-1``); ``False`` when there is none."""
        first = self.first + step * self.size
        if first < 0 or first >= self.total:
            return False
        self.first = first
        return True

    def where(self) -> str:
        """``21-40 of 74``."""
        return f"{self.first + 1}-{self.last} of {self.total}" if self.total else "none"


class RunBrowser:
    """The screens of ``tautrait view`` over one results database."""

    def __init__(self, store: ResultStore, out: Console) -> None:
        self.store = store
        self.out = out
        self.message = ""

    def list_size(self) -> int:
        """How many entries a list screen shows at once."""
        return max(3, self.out.size.height - CHROME_LINES)

    def ask(self, keys: str) -> str:
        """Print the pending message and ``keys``, then read one answer (``q`` at the
        end of input)."""
        from rich.text import Text

        self.out.print(Text(self.message, style="yellow"))
        self.message = ""
        self.out.print(Text(keys, style="dim"), overflow="ellipsis", no_wrap=True)
        try:
            return self.out.input("> ").strip().lower()
        except EOFError:
            return "q"

    def show(self, title: str, body: Sequence[RenderableType]) -> None:
        """Clear the terminal, then print ``title`` (one line) and ``body``."""
        from rich.text import Text

        self.out.clear()
        self.out.print(Text(visible(title), style="bold"), overflow="ellipsis", no_wrap=True)
        for item in body:
            if isinstance(item, Text):  # one line: rich wraps a Text unless print says not to
                self.out.print(item, overflow="ellipsis", no_wrap=True)
            else:
                self.out.print(item)

    def runs(self) -> Screen:
        """The screen listing the stored runs."""
        records = self.store.list_runs()
        page = Page(len(records), self.list_size())

        def screen() -> Screen | None:
            heads = ("#", "run", "domain/task set", "agent", "traits", "pass/fail/err")
            rows = [
                (
                    str(number),
                    record.id,
                    visible(f"{record.domain}/{record.task_set}"),
                    visible(record.agent),
                    visible(record.traits),
                    "{pass}/{fail}/{error}".format(**self.store.episode_counts(record.id)),
                )
                for number, record in enumerate(records[page.first : page.last], page.first + 1)
            ]
            # the run id and the counts stay whole: an id is typed into report or show
            widths = fit_widths(heads, rows, {0, 1, 5}, self.out.size.width)
            table = _table(heads, widths)
            for row in rows:
                table.add_row(*row)
            self.show(f"Runs ({page.where()}) in {self.store.path}", [table])
            answer = self.ask("number: open run   n/p: next/previous page   q: quit")
            if answer.isdigit() and 1 <= int(answer) <= len(records):
                return self.episodes(records[int(answer) - 1], screen)
            return self._move(answer, page, screen, "run")

        return screen

    def episodes(self, record: RunRecord, back: Screen, failed_only: bool = False) -> Screen:
        """The screen listing one run's episodes (only those that did not pass when
        ``failed_only``); ``back`` is the runs screen."""
        stored = sorted(self.store.episodes(record.id), key=lambda r: (r.task_id, r.trial))
        results = [r for r in stored if r.outcome != Outcome.PASS] if failed_only else stored
        page = Page(len(results), self.list_size())

        def screen() -> Screen | None:
            table = _table(("#", "task", "trial", "outcome", "reward", "why"))
            for number, result in enumerate(results[page.first : page.last], page.first + 1):
                table.add_row(
                    str(number),
                    str(result.task_id),
                    str(result.trial),
                    result.outcome.value,
                    f"{result.reward:g}",
                    ", ".join(_why(result)) or "-",
                    style=_OUTCOME_STYLES[result.outcome],
                )
            count = f"{len(results)} of {len(stored)}" if failed_only else str(len(stored))
            which = " failed or errored" if failed_only else ""
            title = f"Run {record.id}: {count} episodes{which} ({page.where()})"
            heading = _line(run_heading(record).removeprefix(f"Run {record.id}  "))
            self.show(title, [heading, table])  # the heading is cut to one line
            toggle = "all episodes" if failed_only else "failed only"
            answer = self.ask(f"number: open   f: {toggle}   n/p: page   b: runs   q: quit")
            if answer.isdigit() and 1 <= int(answer) <= len(results):
                return self.episode(record, results[int(answer) - 1], screen)
            if answer == "f":
                return self.episodes(record, back, not failed_only)
            if answer == "b":
                return back
            return self._move(answer, page, screen, "episode")

        return screen

    def episode(self, record: RunRecord, result: EpisodeResult, back: Screen) -> Screen:
        """The screen paging through one episode's transcript and reward breakdown."""
        from rich.text import Text

        diagnosis = next(
            (
                d
                for d in self.store.diagnoses(record.id)
                if (d.task_id, d.trial) == (result.task_id, result.trial)
            ),
            None,
        )
        with self.out.capture() as captured:
            for view in episode_view(record, result, diagnosis):
                self.out.print(view)
        lines = [Text.from_ansi(line) for line in captured.get().splitlines()]
        page = Page(len(lines), max(3, self.out.size.height - 4))
        rules = [i for i, line in enumerate(lines) if line.plain.strip("─ ") == "reward"]

        def screen() -> Screen | None:
            title = (
                f"Task {result.task_id} trial {result.trial}: {result.outcome.value} "
                f"(lines {page.where()})"
            )
            self.show(title, lines[page.first : page.last])
            answer = self.ask("enter/n: next page   p: previous   r: reward   b: back   q: quit")
            if answer in ("", "n"):
                return screen if page.turn(1) else back
            if answer == "r":
                page.first = rules[-1] if rules else page.first
                return screen
            if answer == "b":
                return back
            return self._move(answer, page, screen, "line")

        return screen

    def _move(self, answer: str, page: Page, screen: Screen, entry: str) -> Screen | None:
        """Page turns and quitting, shared by every screen; anything else is noted."""
        if answer == "q":
            return None
        if answer in ("n", "p"):
            if not page.turn(1 if answer == "n" else -1):
                self.message = "No more pages that way."
        elif answer.isdigit():
            self.message = f"No {entry} {answer} here."
        else:
            self.message = f"Unknown answer {answer!r}."
        return screen


def browse(store: ResultStore, run_id: str | None = None) -> None:
    """Run ``tautrait view`` on the terminal until the user quits: from the runs list,
    or from the episodes of run ``run_id`` when given."""
    from rich.console import Console

    out = Console(highlight=False)
    browser = RunBrowser(store, out)
    screen: Screen | None = browser.runs()
    if run_id is not None:
        screen = browser.episodes(store.get_run(run_id), screen)
    try:
        while screen is not None:
            screen = screen()
    except KeyboardInterrupt:
        pass
    out.clear()


_OUTCOME_STYLES = {Outcome.PASS: "green", Outcome.FAIL: "red", Outcome.ERROR: "yellow"}


def _why(result: EpisodeResult) -> list[str]:
    """What a failed episode missed, or how an errored one ended."""
    if result.outcome == Outcome.ERROR:
        return [result.termination.value]
    return failing_parts(result)


def _line(text: str) -> RenderableType:
    from rich.text import Text

    return Text(visible(text), overflow="ellipsis", no_wrap=True)


def _table(columns: Sequence[str], widths: Sequence[int] | None = None) -> Table:
    """A borderless table of one-line rows (long cells end in an ellipsis); ``widths``,
    when given, are the columns' widths (two spaces separate columns)."""
    from rich import box
    from rich.table import Column, Table

    return Table(
        *(
            Column(name, no_wrap=True, overflow="ellipsis", width=widths[i] if widths else None)
            for i, name in enumerate(columns)
        ),
        box=box.SIMPLE_HEAD,  # a space between columns, after one or two of padding
        padding=(0, 1, 0, 0) if widths else (0, 1),
        show_edge=False,
        pad_edge=False,
    )


def fit_widths(
    heads: Sequence[str], rows: Sequence[Sequence[str]], whole: set[int], room: int
) -> list[int]:
    """Widths for the columns of :func:`_table` within ``room`` columns: those in
    ``whole`` (indexes) as wide as their widest cell or head, the rest sharing what is
    left, narrow ones first, so that only the widest are cut."""
    natural = [
        max(len(text) for text in (head, *(row[i] for row in rows))) for i, head in enumerate(heads)
    ]
    left = room - 2 * (len(heads) - 1) - sum(natural[i] for i in whole)
    widths = list(natural)
    flexible = sorted((i for i in range(len(heads)) if i not in whole), key=natural.__getitem__)
    for place, i in enumerate(flexible):
        widths[i] = max(1, min(natural[i], left // (len(flexible) - place)))
        left -= widths[i]
    return widths
