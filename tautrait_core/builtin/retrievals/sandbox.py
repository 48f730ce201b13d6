"""A read-only shell over a collection's documents, inside a bubblewrap sandbox.

The documents are written once per process as Markdown files (``<id>.md``: ``# <title>``,
a blank line, the content) with an ``INDEX.md``, in τ³'s layout (domain-spec B.9.5). A
command runs with ``bwrap``: no network, no other processes, the system's programs
read-only, the documents read-only as the working directory, a private ``/tmp``; after 30
seconds it is stopped. Commands that name a way out (``..``, ``~``, ``$HOME``, an absolute
path) are refused without running, as τ³ refuses them. Where ``bwrap`` is missing or cannot
create a sandbox, the configuration is refused before the run starts.
"""

from __future__ import annotations

import atexit
import re
import shutil
import subprocess
import tempfile
import uuid
from functools import cache
from pathlib import Path

from tautrait_core.domain.documents import Document
from tautrait_core.errors import ConfigError

TIMEOUT_S = 30
MOUNT = "/knowledge_base"
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc/alternatives")
LS_LINE = re.compile(
    r"^([-dlcbps][-rwxsStT]{9}[.+@]?\s+\d+\s+)\S+\s+\S+(\s+\d+\s+)"
    r"[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|\d{4})(\s)",
    re.M,
)
QUOTED = re.compile(r"'[^']*'|\"(?:\\.|[^\"\\])*\"")


def sanitised_name(document_id: str) -> str:
    """The file name (without ``.md``) of a document: path separators and ``..`` become
    ``_``, as does anything but letters, digits and ``._-``; at most 255 characters."""
    name = document_id.replace("/", "_").replace("\\", "_").replace("..", "_")
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:255]


def export_documents(documents: list[Document]) -> Path:
    """Write the documents and ``INDEX.md`` into a new temporary folder (removed when the
    process exits) and return it."""
    folder = Path(tempfile.gettempdir()) / f"agentic_search_{uuid.uuid4().hex[:8]}"
    root = folder / "knowledge_base"
    root.mkdir(parents=True)
    atexit.register(shutil.rmtree, folder, True)
    files = {}
    for document in documents:
        file_name = f"{sanitised_name(document.id)}.md"
        (root / file_name).write_text(f"# {document.title}\n\n{document.content}", "utf-8")
        files[document.id] = (file_name, document.title)
    index = "# Knowledge Base Index\n\n"
    index += f"**Total documents:** {len(documents)}\n\n## Documents\n\n"
    index += "".join(f"- **{files[i][0]}** - {files[i][1]}\n" for i in sorted(files))
    (root / "INDEX.md").write_text(index, "utf-8")
    return root


def escape_attempt(command: str) -> str | None:
    """What in ``command`` (outside quotes) could leave the documents' folder, or ``None``."""
    bare = QUOTED.sub("''", command)
    if ".." in bare:
        return ".."
    if "~" in bare:
        return "~"
    if "$HOME" in bare or "${HOME}" in bare:
        return "$HOME"
    if bare.lstrip().startswith("/"):
        return "absolute path at start"
    for word in re.split(r"[\s;|&()<>=`]+", bare):
        if word.startswith("/"):
            return f"absolute path: {word}"
    return None


def bwrap_command(root: Path, command: str) -> list[str]:
    """The ``bwrap`` command line that runs ``command`` over ``root`` read-only."""
    arguments = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
    arguments += ["--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LC_ALL", "C"]
    for path in map(Path, SYSTEM_PATHS):
        if path.is_symlink():
            arguments += ["--symlink", str(path.readlink()), str(path)]
        elif path.exists():
            arguments += ["--ro-bind", str(path), str(path)]
    arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    arguments += ["--ro-bind", str(root), MOUNT, "--chdir", MOUNT, "/bin/sh", "-c", command]
    return arguments


def run_in_sandbox(root: Path, command: str) -> str:
    """What the agent's ``shell`` tool answers for ``command`` (τ³'s texts)."""
    blocked = escape_attempt(command)
    if blocked is not None:
        return (
            "Error (exit code 1): Error: Command blocked - contains "
            f"'{blocked}' which could escape the sandbox"
        )
    try:
        done = subprocess.run(
            bwrap_command(root, command),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return f"Error (exit code 124): Command timed out after {TIMEOUT_S} seconds"
    if done.returncode == 0:
        output = LS_LINE.sub(r"\1kb_user kb_group\2Jan  1 00:00\3", done.stdout)
        return output or "(no output)"
    if done.returncode == 1 and "grep" in command and not done.stderr:
        return "No matches found."
    if done.stderr:
        return f"Error (exit code {done.returncode}): {done.stderr}"
    return f"Command failed with exit code {done.returncode}"


@cache
def sandbox_problem() -> str | None:
    """Why no sandbox can be made here (``None``: one can), found once per process."""
    if shutil.which("bwrap") is None:
        return "bwrap (bubblewrap) is not installed"
    with tempfile.TemporaryDirectory() as folder:
        try:
            done = subprocess.run(
                bwrap_command(Path(folder), "true"), capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bwrap cannot run ({type(exc).__name__}: {exc})"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return f"bwrap cannot create a sandbox here ({lines[-1] if lines else done.returncode})"
    return None


def require_sandbox(name: str) -> None:
    """Refuse the configuration ``name`` where commands cannot run in a sandbox."""
    problem = sandbox_problem()
    if problem is not None:
        raise ConfigError(
            f"--retrieval {name} runs the agent's shell commands only inside a sandbox, and "
            f"{problem}: install bubblewrap (apt-get install bubblewrap) or choose an offline "
            "--retrieval such as bm25 or grep_only"
        )
