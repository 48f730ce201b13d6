"""τ² telecom from a τ²-bench checkout: where its database, task files and policies are.

A checkout keeps them in ``data/tau2/domains/telecom`` (the reference material keeps the
same files in ``data/telecom``). Nothing of τ²-bench is shipped with the plugin: its
database is read with :func:`tautrait_telecom.tau2.database.read_rows` and its policies with
:func:`tau2_policy`, from the folder :func:`telecom_folder` finds.
"""

from __future__ import annotations

from pathlib import Path

CHECKOUT_FOLDER = Path("data", "tau2", "domains", "telecom")
"""Where a τ²-bench checkout keeps the telecom files."""
TASK_FILES = {"telecom": "tasks.json", "telecom_small": "tasks_small.json"}
"""τ²'s telecom task sets and their files (``telecom_full`` is not in the reference)."""
POLICY_VARIANTS = ("manual", "workflow")
"""τ²'s two telecom policies: ``telecom`` (tech-support manual) and ``telecom-workflow``."""


def telecom_folder(path: Path) -> Path:
    """The folder holding the telecom files: ``path`` itself, or the one inside a
    checkout at ``path``."""
    inside = path / CHECKOUT_FOLDER
    return inside if inside.is_dir() else path


def tau2_policy(folder: Path, variant: str = "manual", solo: bool = False) -> str:
    """τ²'s agent policy for telecom: the main policy plus the tech-support manual or
    workflow, in the tags τ² wraps them in. Solo mode has its own main policy and
    workflow; it reuses the manual (τ² ships no solo manual).

    Raises:
        ValueError: ``variant`` is neither ``"manual"`` nor ``"workflow"``.
    """
    if variant not in POLICY_VARIANTS:
        raise ValueError(f"telecom policy variant {variant!r}: choose manual or workflow")
    main = "main_policy_solo.md" if solo else "main_policy.md"
    tech = f"tech_support_{variant}.md"
    if solo and variant == "workflow":
        tech = "tech_support_workflow_solo.md"
    main_text = (folder / main).read_text(encoding="utf-8")
    tech_text = (folder / tech).read_text(encoding="utf-8")
    return (
        f"<main_policy>\n{main_text}\n</main_policy>\n"
        f"<tech_support_policy>\n{tech_text}\n</tech_support_policy>"
    )
