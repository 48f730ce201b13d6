"""Upstream task files are read from their syntax tree, never executed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tautrait_core.compat.task_files import parse_task_file
from tautrait_core.errors import TaskSetError

UPSTREAM_STYLE = """
from tau_trait.types import Task, Action
from datetime import datetime
from tau_trait.envs.telehealth.data import load_data

def _unused_helper():
    raise SystemExit("must never run")

TASKS_TEST = [
    Task(
        annotator="0",
        user_id="sarah_1",
        instruction="Book a visit.",
        actions=[
            Action(name="find_patient", kwargs={"email": "s@x.org"}),
            Action(name="book", kwargs={"slots": [1, 2.5], "confirm": True, "note": None}),
        ],
        outputs=["APPT059"],
    ),
    # Task(annotator="1", user_id="commented", instruction="skip", actions=[], outputs=[]),
    Task(
        annotator="1",
        user_id="tom_2",
        instruction="".join((
            "First part, ",
            "second part.",
        )),
        actions=[],
        outputs=[],
    ),
]
"""


def write(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "tasks_test.py"
    path.write_text(source)
    return path


def test_upstream_task_file_is_parsed_field_by_field(tmp_path: Path) -> None:
    tasks = parse_task_file(write(tmp_path, UPSTREAM_STYLE))
    assert [t.user_id for t in tasks] == ["sarah_1", "tom_2"]
    assert tasks[0].actions[1].kwargs == {"slots": [1, 2.5], "confirm": True, "note": None}
    assert tasks[0].outputs == ["APPT059"]
    assert tasks[1].instruction == "First part, second part."


def test_any_list_name_is_accepted(tmp_path: Path) -> None:
    source = UPSTREAM_STYLE.replace("TASKS_TEST", "TASKS")
    assert len(parse_task_file(write(tmp_path, source))) == 2


def test_code_in_a_task_file_is_rejected_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = UPSTREAM_STYLE.replace(
        'instruction="Book a visit."', f'instruction=open("{marker}", "w").write("x") and "x"'
    )
    with pytest.raises(TaskSetError, match=r"tasks_test.py:\d+: only literal values"):
        parse_task_file(write(tmp_path, source))
    assert not marker.exists()


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = [1, 2]\n", "no list of Task"),
        (
            "TASKS = [Task(user_id='a', instruction='b', actions=[print('x')], outputs=[])]\n",
            "expected Action",
        ),
        ("TASKS = [Task('a')]\n", "keyword arguments only"),
        ("TASKS = [\n", "not valid Python"),
        ("TASKS = [Task(user_id='a', actions=[], outputs=[])]\n", "invalid task"),
    ],
)
def test_malformed_task_files_are_clear_errors(tmp_path: Path, source: str, message: str) -> None:
    with pytest.raises(TaskSetError, match=message):
        parse_task_file(write(tmp_path, source))
