"""τ²-bench's telecom policies, read from a folder of its telecom files (the copy
``tautrait import tau2`` keeps, or a checkout's ``data/tau2/domains/telecom``).

Nothing of τ²-bench is shipped with the plugin: its database is read with
:func:`tautrait_telecom.tau2.database.read_rows` and its policies with :func:`tau2_policy`.
"""

from __future__ import annotations

from pathlib import Path

POLICY_VARIANTS = ("manual", "workflow")
"""τ²'s two telecom policies: ``telecom`` (tech-support manual) and ``telecom-workflow``."""


def tau2_policy(folder: Path, variant: str = "manual", solo: bool = False) -> str:
    """τ²'s agent policy for telecom: the main policy plus the tech-support manual or
    workflow, in the tags τ² wraps them in. Solo mode has its own main policy and
    workflow; it reuses the manual (τ² ships no solo manual).

    Raises:
        ValueError: ``variant`` is neither ``"manual"`` nor ``"workflow"``.
        OSError: a policy file is missing from ``folder``.
    """
    if variant not in POLICY_VARIANTS:
        raise ValueError(f"telecom policy variant {variant!r}: choose manual or workflow")
    main = "main_policy_solo.md" if solo else "main_policy.md"
    tech = "tech_support_workflow_solo.md" if solo and variant == "workflow" else None
    tech = tech or f"tech_support_{variant}.md"
    main_text = (folder / main).read_text(encoding="utf-8")
    tech_text = (folder / tech).read_text(encoding="utf-8")
    return (
        f"<main_policy>\n{main_text}\n</main_policy>\n"
        f"<tech_support_policy>\n{tech_text}\n</tech_support_policy>"
    )
