"""Tasks and their gold actions.

Field names follow upstream tau-bench / tau-trait (``user_id``, ``instruction``, ``actions``,
``outputs``), so upstream task files port over unchanged.
"""

from __future__ import annotations

import json
from os import PathLike
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from tautrait_core.types.criteria import EvaluationCriteria, InitialState, Side

RESPOND_ACTION = "respond"
"""Name of the pseudo-action an agent uses to talk to the user (upstream ``respond``)."""


class _OmitsUnsetTau2Fields(BaseModel):
    """Serialises without the τ²-only fields that hold their defaults, so a τ-bench task or
    action dumps exactly as upstream writes it."""

    tau2_defaults: ClassVar[dict[str, Any]] = {}

    @model_serializer(mode="wrap")
    def _omit_tau2_defaults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        for key, default in self.tau2_defaults.items():
            if key in data and data[key] == default:
                del data[key]
        return data


class Action(_OmitsUnsetTau2Fields):
    """One gold action: a tool call, or ``respond`` with ``kwargs={"content": ...}``.

    τ²-style actions also say who makes the call (``requestor``: the agent, or the customer
    in a dual-control domain) and which arguments a grader compares (``compare_args``:
    ``None`` compares the keys the predicted call gives; ``[]`` the name alone).
    """

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)
    requestor: Side = "assistant"
    action_id: str | None = None
    compare_args: list[str] | None = None
    info: str | None = None

    tau2_defaults: ClassVar[dict[str, Any]] = {
        "requestor": "assistant",
        "action_id": None,
        "compare_args": None,
        "info": None,
    }


class Task(_OmitsUnsetTau2Fields):
    """A task: who the user is, what they want, and the gold actions and outputs.

    The reward compares the agent's final database with the database obtained by replaying
    ``actions``, and requires every string in ``outputs`` to appear in an agent reply.
    Unknown fields (upstream's ``annotator``) are ignored.

    A τ²-style task may also carry ``initial_state`` (how the episode starts) and
    ``evaluation_criteria`` (the reward basis and its components; when set, it grades the
    episode instead of ``actions``/``outputs``), its own ``id`` and the ``ticket`` a solo agent
    gets instead of a customer.
    """

    model_config = ConfigDict(extra="ignore")

    user_id: str
    instruction: str
    actions: list[Action] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)
    id: str | None = None
    ticket: str | None = None
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None
    user_tools: list[str] | None = None
    """τ³: the user tools the customer gets in this task (``None``: all of the domain's;
    ``[]``: none)."""
    required_documents: list[str] | None = None
    """τ³: the knowledge-base documents the task needs (by title or id)."""
    issues: list[dict[str, Any]] | None = None
    """τ³: known issues of the task (informational)."""
    user_scenario: dict[str, Any] | None = None
    """τ²: the task's ``user_scenario`` as its file has it (``instruction`` is its rendered
    text), so a τ² results file written back keeps the task unchanged."""

    tau2_defaults: ClassVar[dict[str, Any]] = {
        "id": None,
        "ticket": None,
        "initial_state": None,
        "evaluation_criteria": None,
        "user_tools": None,
        "required_documents": None,
        "issues": None,
        "user_scenario": None,
    }

    @classmethod
    def list_from_file(cls, path: str | PathLike[str]) -> list[Task]:
        """The tasks of a JSON file holding a list of task objects (a domain's task set)."""
        with open(path, encoding="utf-8") as file:
            return [cls.model_validate(item) for item in json.load(file)]
