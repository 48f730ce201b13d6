"""Built-in user simulators, registered through the same hook as third-party plugins.

Each is registered by name and imported only when a command uses it.
"""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.hookspecs import hookimpl
from tautrait_core.registrations import DeferredPart

USERS = "tautrait_core.builtin.users"


@hookimpl
def register_user_simulators(register: Callable[[DeferredPart], None]) -> None:
    register(DeferredPart("scripted", f"{USERS}.scripted:ScriptedUser"))
    register(DeferredPart("llm", f"{USERS}.llm:LLMUser"))
    register(DeferredPart("react", f"{USERS}.strategies:ReActUser"))
    register(DeferredPart("verify", f"{USERS}.strategies:VerifyingUser"))
    register(DeferredPart("reflection", f"{USERS}.strategies:ReflectingUser"))
    register(DeferredPart("human", "tautrait_core.builtin.human:HumanUser"))
