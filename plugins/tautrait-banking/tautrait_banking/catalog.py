"""The bank's discoverable tools: their functions, the texts an unlock shows (τ³'s
docstrings, kept in ``data/discoverable_tools.json``) and the ledger in the database."""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from tautrait_banking.discover import MODULES
from tautrait_banking.records import query_text, short_hash
from tautrait_banking.store import TODAY, Bank
from tautrait_core import EpisodeDB
from tautrait_core.tau2 import Discoverables, DiscoverableTool, Parameter

CATALOG = Path(__file__).parent / "data" / "discoverable_tools.json"


class BankLedger:
    """τ³'s record of discoverable-tool use: tables ``agent_discoverable_tools``,
    ``user_discoverable_tools`` and ``user_discoverable_tool_calls``."""

    def log_agent_call(self, db: EpisodeDB, name: str) -> None:
        key = short_hash(f"agent_discoverable_tool:{name}", 16)
        Bank(db).add("agent_discoverable_tools", key, {"tool_name": name, "status": "CALLED"})

    def agent_calls(self, db: EpisodeDB) -> str:
        text = query_text(Bank(db), "agent_discoverable_tools")
        if "No results found" in text:
            return (
                "No agent tools have been called yet. Search the knowledge base to discover "
                "available tools."
            )
        return "Your called agent tools:\n" + text

    def log_given(self, db: EpisodeDB, name: str) -> None:
        key = short_hash(f"user_discoverable_tool:{name}", 16)
        Bank(db).add("user_discoverable_tools", key, {"tool_name": name, "status": "GIVEN"})

    def is_given(self, db: EpisodeDB, name: str) -> bool:
        return any(
            record.get("tool_name") == name
            for _, record in Bank(db).records("user_discoverable_tools")
        )

    def log_user_call(self, db: EpisodeDB, name: str, arguments: dict[str, Any]) -> None:
        key = short_hash(
            f"user_discoverable_tool_call:{name}:{json.dumps(arguments, sort_keys=True)}", 16
        )
        Bank(db).add(
            "user_discoverable_tool_calls",
            key,
            {"tool_name": name, "arguments": arguments, "called_at": TODAY, "status": "CALLED"},
        )

    def given(self, db: EpisodeDB) -> str:
        text = query_text(Bank(db), "user_discoverable_tools")
        if "No results found" in text:
            return "No tools have been given to you yet by the agent."
        return "Tools given to you by the agent:\n" + text


def _functions() -> dict[str, Any]:
    found = {}
    for module in map(importlib.import_module, MODULES):
        for value in vars(module).values():
            name = getattr(value, "name", None)
            if name is not None and getattr(value, "function", None) is not None:
                found[name] = value
    return found


@cache
def discoverables() -> Discoverables:
    """The bank's discoverable tools (the same catalog for both bank domains)."""
    described = json.loads(CATALOG.read_text(encoding="utf-8"))
    functions = _functions()

    def items(side: str) -> list[DiscoverableTool]:
        return [
            DiscoverableTool(
                tool=functions[entry["name"]],
                description=entry["description"],
                parameters=tuple(Parameter(**parameter) for parameter in entry["parameters"]),
            )
            for entry in described[side]
        ]

    return Discoverables(items("agent"), items("user"), BankLedger(), toolkit="KnowledgeTools")
