"""The public API for a plugin's own CLI commands (hook ``register_commands``): the console
tautrait prints with, ``--json`` output, the ``--results-db`` option and opening the results
database it names, and :func:`library_call`, which turns library errors into one ``Error:``
line. Plugin authors import these from here; everything else comes from :mod:`tautrait_core`.

Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tautrait_core.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from tautrait_core.cli.root import (
        json_option as json_option,
        library_call as library_call,
        open_store as open_store,
        results_db_option as results_db_option,
    )
    from tautrait_core.render.console import (
        console as console,
        echo_json as echo_json,
    )

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
