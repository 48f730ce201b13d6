"""The telecom domain plugin for tautrait.

Importing this module is cheap: the CLI loads it on every start. The domain (tables,
tools, data) is built only when the hook runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tautrait_core import hookimpl

if TYPE_CHECKING:
    from tautrait_core import Domain


@hookimpl
def register_domains(register: Callable[[Domain], None]) -> None:
    """Register the ``telecom`` domain."""
    from tautrait_telecom.domain import build_domain

    register(build_domain())
