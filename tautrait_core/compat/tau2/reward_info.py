"""τ²-bench's RewardInfo JSON object <-> :class:`~tautrait_core.grading.reward.RewardInfo`."""

from __future__ import annotations

from typing import Any

from tautrait_core.types.reward import RewardInfo

_DEFAULT_BASIS = ["DB"]
"""τ²'s RewardInfo default basis (what a premature ending reports)."""


def tau2_reward_info(info: RewardInfo, rules: str = "tau2") -> dict[str, Any]:
    """A τ²-style :class:`RewardInfo` as τ²'s RewardInfo JSON object (§3.6 field order).

    An env-assertion check that could not run keeps only τ²'s keys (its ``error`` note is
    tautrait's own). With τ³'s ``rules`` a grade without a basis (a premature ending, kept
    as an empty basis) has ``reward_basis`` null, as τ³ writes it.
    """
    basis = info.reward_basis
    if rules == "tau3":
        basis = basis or None
    elif basis is None:
        basis = _DEFAULT_BASIS
    return {
        "reward": info.reward,
        "db_check": info.db_check,
        "env_assertions": _without_errors(info.env_assertions),
        "action_checks": info.action_checks,
        "nl_assertions": info.nl_assertions,
        "communicate_checks": info.communicate_checks,
        "reward_basis": basis,
        "reward_breakdown": info.reward_breakdown,
        "info": info.info,
    }


def reward_info_from_tau2(data: dict[str, Any]) -> RewardInfo:
    """τ²'s RewardInfo JSON object as a :class:`RewardInfo` (no state hashes: τ² keeps none).

    Raises:
        ValueError: ``data`` has no numeric ``reward``.
    """
    reward = data.get("reward")
    if not isinstance(reward, int | float) or isinstance(reward, bool):
        raise ValueError(f"reward_info has no numeric reward (got {reward!r})")
    db_check = data.get("db_check")
    return RewardInfo(
        reward=float(reward),
        r_actions=bool(isinstance(db_check, dict) and db_check.get("db_match")),
        data_hash="",
        gt_data_hash="",
        reward_basis=list(data.get("reward_basis") or _DEFAULT_BASIS),
        reward_breakdown=data.get("reward_breakdown"),
        db_check=db_check,
        env_assertions=data.get("env_assertions"),
        action_checks=data.get("action_checks"),
        communicate_checks=data.get("communicate_checks"),
        nl_assertions=data.get("nl_assertions"),
        info=data.get("info"),
    )


def _without_errors(checks: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    if checks is None:
        return None
    return [{key: value for key, value in check.items() if key != "error"} for check in checks]
