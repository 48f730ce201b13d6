"""The rows the results database stores for a run and an episode, built from their models.

Known API key values are redacted, and text that UTF-8 cannot encode (a lone surrogate from
a model) is replaced, so a row can always be written.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from typing import Any

from tautrait_core.config.run_config import RunConfig
from tautrait_core.llm.client import encodable_text
from tautrait_core.llm.keys import redact
from tautrait_core.store.tables import (
    EpisodeRecord,
    RunRecord,
)
from tautrait_core.types.result import EpisodeResult
from tautrait_core.types.usage import Usage


def now() -> str:
    """The current UTC time as stored: ISO 8601 to the second."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def new_run_id() -> str:
    """A sortable, readable run id: ``20261122-153012-7f3a``."""
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


def episode_cost(result: EpisodeResult) -> float | None:
    """Dollars spent on both sides (``None`` when a price is unknown)."""
    total = Usage()
    total.add(result.agent_usage)
    total.add(result.user_usage)
    return total.cost


def result_json(result: EpisodeResult) -> str:
    """The result as JSON; text UTF-8 cannot encode (lone surrogates) becomes U+FFFD."""
    try:
        return result.model_dump_json()
    except ValueError:  # pydantic's serialization error: "surrogates not allowed"
        cleaned = encodable_values(result.model_dump(mode="python"))
        return EpisodeResult.model_validate(cleaned).model_dump_json()


def encodable_values(value: Any) -> Any:
    if isinstance(value, str):
        return encodable_text(value)
    if isinstance(value, dict):
        return {encodable_values(key): encodable_values(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [encodable_values(item) for item in value]
    return value


def run_record(
    config: RunConfig, task_set: str, task_ids: list[int], plugins: dict[str, str]
) -> RunRecord:
    """The row of a new run, with known API key values redacted."""
    config = RunConfig.model_validate_json(redact(config.model_dump_json()))
    return RunRecord(
        id=new_run_id(),
        created_at=now(),
        name=config.storage.run_name,
        domain=config.domain,
        task_set=task_set,
        agent=config.agent.strategy,
        agent_model=config.agent.model,
        user_strategy=config.user.strategy,
        user_model=config.user.model,
        traits=config.user.traits.label(),
        num_trials=config.num_trials,
        task_ids=task_ids,
        config=json.loads(config.model_dump_json()),
        plugins=plugins,
    )


def episode_record(run_id: str, result: EpisodeResult) -> EpisodeRecord:
    """The row of one episode, with known API key values redacted."""
    result = EpisodeResult.model_validate_json(redact(result_json(result)))
    return EpisodeRecord(
        run_id=run_id,
        task_id=result.task_id,
        trial=result.trial,
        outcome=result.outcome.value,
        reward=result.reward,
        termination=result.termination.value,
        reward_info=result.reward_info.model_dump() if result.reward_info else None,
        messages=[m.model_dump(exclude_none=True) for m in result.messages],
        error=result.error,
        agent_usage=result.agent_usage.model_dump(),
        user_usage=result.user_usage.model_dump(),
        calls=[call.model_dump() for call in result.calls],
        cost=episode_cost(result),
        steps=result.steps,
        duration_s=result.duration_s,
        finished_at=now(),
        env_date=result.env_date.isoformat() if result.env_date else None,
    )
