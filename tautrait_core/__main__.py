"""``python -m tautrait_core``: the same as the ``tautrait`` command."""

from tautrait_core.cli import main

main()
