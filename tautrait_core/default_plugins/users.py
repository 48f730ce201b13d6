"""Built-in user simulators, registered through the same hook as third-party plugins.

The classes live in :mod:`.builtin_users`, :mod:`.user_strategies` and :mod:`.human`,
imported only when the registry is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core.hookspecs import hookimpl


@hookimpl
def register_user_simulators(register: Callable[[type[Any]], None]) -> None:
    from tautrait_core.default_plugins.builtin_users import LLMUser, ScriptedUser
    from tautrait_core.default_plugins.human import HumanUser
    from tautrait_core.default_plugins.user_strategies import (
        ReActUser,
        ReflectingUser,
        VerifyingUser,
    )

    register(ScriptedUser)
    register(LLMUser)
    register(ReActUser)
    register(VerifyingUser)
    register(ReflectingUser)
    register(HumanUser)
