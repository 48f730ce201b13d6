"""Built-in user simulators, registered through the same hook as third-party plugins.

The classes are imported only when the registry is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core.hookspecs import hookimpl


@hookimpl
def register_user_simulators(register: Callable[[type[Any]], None]) -> None:
    from tautrait_core.builtin.human import HumanUser
    from tautrait_core.builtin.users.llm import LLMUser
    from tautrait_core.builtin.users.scripted import ScriptedUser
    from tautrait_core.builtin.users.strategies import ReActUser, ReflectingUser, VerifyingUser

    register(ScriptedUser)
    register(LLMUser)
    register(ReActUser)
    register(VerifyingUser)
    register(ReflectingUser)
    register(HumanUser)
