"""``terminal_use``: a read-only shell over the documents, only inside a bubblewrap sandbox
(refused in one line where there is none)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from tautrait_core import (
    Document,
    DocumentCollection,
    RetrievalSettings,
    RunConfig,
    Task,
    prepare,
)
from tautrait_core.builtin.retrievals import sandbox
from tautrait_core.builtin.retrievals.alltools import AllTools
from tautrait_core.builtin.retrievals.shell import TerminalUse
from tautrait_core.errors import ConfigError
from tautrait_core.scripted.server import ScriptedModelServer

DOCUMENTS = DocumentCollection(
    [
        Document("cards/lost", "Lost cards", "A lost card is replaced for 2."),
        Document("hours", "Opening hours", "The library opens at 9."),
    ]
)


@pytest.fixture
def no_sandbox_check_cache() -> Iterator[None]:
    sandbox.sandbox_problem.cache_clear()
    yield
    sandbox.sandbox_problem.cache_clear()


def test_without_bwrap_terminal_use_is_refused_in_one_line(
    knowledge_plugin: object, monkeypatch: pytest.MonkeyPatch, no_sandbox_check_cache: None
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(ConfigError) as raised:
        prepare(RunConfig(domain="toyknow", agent="oracle", retrieval="terminal_use"))
    assert str(raised.value) == (
        "--retrieval terminal_use runs the agent's shell commands only inside a sandbox, and "
        "bwrap (bubblewrap) is not installed: install bubblewrap (apt-get install bubblewrap) "
        "or choose an offline --retrieval such as bm25 or grep_only"
    )


def test_escapes_are_refused_before_anything_runs() -> None:
    for command, what in [
        ("cat ../secret", ".."),
        ("ls ~", "~"),
        ("echo ${HOME}", "$HOME"),
        ("/bin/ls", "absolute path at start"),
        ("cat INDEX.md /etc/passwd", "absolute path: /etc/passwd"),
    ]:
        assert sandbox.escape_attempt(command) == what
    assert sandbox.escape_attempt("grep -ri 'a/b ..' .") is None  # quoted text is data
    assert sandbox.sanitised_name("a/b\\c..d e") == "a_b_c_d_e"


needs_bwrap = pytest.mark.skipif(
    sandbox.sandbox_problem() is not None,
    reason=f"no sandbox here ({sandbox.sandbox_problem()}); apt-get install bubblewrap",
)


@needs_bwrap
def test_commands_read_the_documents_and_cannot_write_or_leave() -> None:
    TerminalUse.check(RetrievalSettings())
    (shell,) = TerminalUse(DOCUMENTS, RetrievalSettings()).tools()

    def run(command: str) -> str:
        return shell.invoke(None, {"command": command})

    assert run("ls") == "INDEX.md\ncards_lost.md\nhours.md\n"
    assert run("cat cards_lost.md") == "# Lost cards\n\nA lost card is replaced for 2."
    assert run("cat INDEX.md").endswith(
        "**Total documents:** 2\n\n## Documents\n\n"
        "- **cards_lost.md** - Lost cards\n- **hours.md** - Opening hours\n"
    )
    assert " kb_user kb_group " in run("ls -l hours.md") and "Jan  1 00:00 hours.md" in run(
        "ls -l hours.md"
    )
    assert run("grep -ri zebra .") == "No matches found."
    assert run("true") == "(no output)"
    assert "Read-only file system" in run("touch new.md")
    assert run("cd ..") == (
        "Error (exit code 1): Error: Command blocked - contains '..' which could escape the sandbox"
    )
    # past the check (the path is quoted), the sandbox still holds: no host /etc there
    outside = run("cat \"$(printf '\\057')etc/passwd\"")
    assert outside == "Error (exit code 1): cat: /etc/passwd: No such file or directory\n"
    assert run("exit 3") == "Command failed with exit code 3"


@needs_bwrap
def test_alltools_gives_bm25_dense_and_the_shell_with_k() -> None:
    with ScriptedModelServer() as server:
        settings = RetrievalSettings(model="openai/embed", api_base=server.base_url)
        AllTools.check(settings)
        retrieval = AllTools(DOCUMENTS, settings)
        bm25, dense, shell = retrieval.tools()
        found = dense.invoke(None, {"query": "when does the library open", "k": 1})
    assert [bm25.name, dense.name, shell.name] == ["KB_search_bm25", "KB_search_dense", "shell"]
    assert bm25.schema["function"]["parameters"]["properties"]["k"]["default"] == 10
    assert found.startswith("1. Opening hours\n") and "\n2. " not in found
    assert bm25.invoke(None, {"query": "lost card", "k": 0}).startswith(
        "No relevant documents found.\n\n[Timing: "
    )
    assert "ls" in shell.invoke(None, {"command": "echo ls"})
    retrieval.settings = RetrievalSettings()  # τ³'s own words for its default model
    assert retrieval.placeholders(Task(user_id="", instruction="")) == {
        "all_tools_dense_instructions": "The `KB_search_dense` tool uses **OpenAI API** with "
        "embedding model `text-embedding-3-large` for dense retrieval."
    }
