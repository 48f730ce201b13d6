"""``tautrait cache``: where the model response cache (``--cache``) lives, and clearing it."""

from __future__ import annotations

import click

from tautrait_core.cli.root import cli, json_option, library_call
from tautrait_core.render.console import console, echo_json


@cli.group()
def cache() -> None:
    """The model response cache used by `tautrait run --cache`.

    With --cache, a model request identical to an earlier one of the same episode (task
    and trial) is answered from this cache, at no cost. It is one SQLite file in the
    tautrait data directory ($TAUTRAIT_HOME when set); `tautrait cache info` prints where.
    """


@cache.command("info")
@json_option
def cache_info(as_json: bool) -> None:
    """Where the response cache is, and how many answers it holds."""
    from tautrait_core.llm.cache import cache_entries
    from tautrait_core.paths import response_cache_path

    path = response_cache_path()
    entries = library_call(cache_entries, path)
    if as_json:
        echo_json({"path": str(path), "entries": entries})
        return
    console().print(f"Response cache: {path} ({entries} stored answers)", markup=False)


@cache.command("clear")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
def cache_clear(yes: bool) -> None:
    """Delete every stored answer, so that later --cache runs call the models again.

    A damaged cache file (one that is not a response cache) is deleted whole.
    """
    from tautrait_core.errors import StorageError
    from tautrait_core.llm.cache import cache_entries, clear_cache, remove_cache_file
    from tautrait_core.paths import response_cache_path

    path = response_cache_path()
    try:
        entries = cache_entries(path)
    except StorageError as damaged:
        if not yes:
            click.confirm(f"{path} is damaged ({damaged.__cause__}). Delete it?", abort=True)
        library_call(remove_cache_file, path)
        console().print(f"Deleted the damaged response cache {path}.", markup=False)
        return
    if not entries:
        console().print(f"The response cache is empty ({path}).", markup=False)
        return
    if not yes:
        click.confirm(f"Delete {entries} stored answers from {path}?", abort=True)
    library_call(clear_cache, path)
    console().print(f"Deleted {entries} stored answers from {path}.", markup=False)
