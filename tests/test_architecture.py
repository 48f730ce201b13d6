"""The shape of the core: what plugins may import, the public API, layering and module size."""

from __future__ import annotations

import ast
import importlib
import re
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

import tautrait_core
import tautrait_core.tau2
import tautrait_core.testing

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "tautrait_core"
PUBLIC_MODULES = {"tautrait_core", "tautrait_core.tau2", "tautrait_core.testing"}
MAX_MODULE_LINES = 400
IMPORT_LINE = re.compile(
    r"^\s*(?:from\s+(tautrait_core[\w.]*)\s+import|import\s+(tautrait_core[\w.]*))", re.M
)


def plugin_sources() -> Iterator[tuple[Path, str]]:
    """Every file a plugin author writes or copies: plugin packages and tests, scaffold
    templates, and the Python blocks of the guides."""
    for path in sorted((REPO / "plugins").glob("*/**/*.py")):
        yield path, path.read_text(encoding="utf-8")
    for path in sorted((CORE / "scaffold" / "templates").rglob("*.tmpl")):
        yield path, path.read_text(encoding="utf-8")
    for path in [*sorted((REPO / "docs").glob("*.md")), *sorted(REPO.glob("plugins/*/README.md"))]:
        blocks = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
        yield path, "\n".join(blocks)


def test_plugins_templates_and_guides_import_only_the_public_api() -> None:
    offenders = []
    for path, text in plugin_sources():
        for match in IMPORT_LINE.finditer(text):
            module = match.group(1) or match.group(2)
            if module not in PUBLIC_MODULES:
                line = text.count("\n", 0, match.start()) + 1
                offenders.append(f"{path.relative_to(REPO)}:{line}: {module}")
    assert not offenders, "private core modules imported:\n" + "\n".join(offenders)


def test_the_plugin_source_walk_sees_every_plugin() -> None:
    walked = {
        path.relative_to(REPO).parts[1] for path, _ in plugin_sources() if "plugins" in path.parts
    }
    assert {
        "tautrait-retail",
        "tautrait-airline",
        "tautrait-telecom",
        "tautrait-telehealth",
    } <= walked
    assert "tautrait-steer-user" in walked


@pytest.mark.parametrize("package", [tautrait_core, tautrait_core.tau2, tautrait_core.testing])
def test_every_public_name_is_listed_and_resolves(package) -> None:  # type: ignore[no-untyped-def]
    exports = set(package._EXPORTS)
    listed = set(package.__all__)
    assert exports <= listed, f"exported but missing from __all__: {sorted(exports - listed)}"
    unexported = listed - exports - {"hookimpl", "hookspec"}
    assert not unexported, f"in __all__ but not exported: {sorted(unexported)}"
    for name in package.__all__:
        assert getattr(package, name) is not None, name


def test_the_public_api_names_what_plugin_authors_subclass() -> None:
    for name in ("Domain", "TaskSet", "Task", "tool", "Agent", "UserSimulator", "TraitBackend"):
        assert name in tautrait_core.__all__
    for name in ("EpisodeContext", "StateTemplate", "EpisodeDB", "hookimpl", "ConfigError"):
        assert name in tautrait_core.__all__


def core_modules() -> dict[str, Path]:
    modules = {}
    for path in CORE.rglob("*.py"):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def runtime_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Core modules that ``name`` imports at run time (function-level imports included,
    ``if TYPE_CHECKING:`` blocks left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target != "tautrait_core":
                found.add(target)
                break
    return found


def test_the_core_has_no_import_cycles() -> None:
    modules = core_modules()
    graph = {name: runtime_imports(name, path, set(modules)) for name, path in modules.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_core_module_is_over_the_size_limit() -> None:
    sizes = {
        str(path.relative_to(REPO)): len(path.read_text(encoding="utf-8").splitlines())
        for path in CORE.rglob("*.py")
    }
    too_big = {path: lines for path, lines in sizes.items() if lines > MAX_MODULE_LINES}
    assert not too_big, f"modules over {MAX_MODULE_LINES} lines: {too_big}"


def test_only_the_llm_provider_imports_litellm() -> None:
    importers = sorted(
        str(path.relative_to(REPO))
        for path in CORE.rglob("*.py")
        if re.search(r"^\s*(import litellm|from litellm)", path.read_text(encoding="utf-8"), re.M)
    )
    assert importers == ["tautrait_core/llm/provider.py"]


def test_subpackages_say_what_they_hold() -> None:
    for init in CORE.glob("*/__init__.py"):
        module = importlib.import_module(f"tautrait_core.{init.parent.name}")
        assert module.__doc__, f"{init.relative_to(REPO)} has no docstring"


DISTRIBUTIONS = {
    "tautrait-core": (REPO, "tautrait_core"),
    **{
        path.name: (path, next(p.name for p in path.glob("tautrait_*") if p.is_dir()))
        for path in sorted((REPO / "plugins").glob("tautrait-*"))
    },
}
TEST_ONLY = {"pytest"}
"""Imported only by the pytest plugin that pytest itself loads."""


def third_party_imports(package: Path) -> set[str]:
    found = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and not top.startswith("tautrait"):
                    found.add(top)
    return found


def declared_requirements(root: Path) -> set[str]:
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements.extend(extra)
    return {canonical(re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0]) for r in requirements}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.parametrize("distribution", sorted(DISTRIBUTIONS))
def test_every_imported_package_is_declared(distribution: str) -> None:
    root, package = DISTRIBUTIONS[distribution]
    providers = metadata.packages_distributions()
    declared = declared_requirements(root)
    undeclared = {}
    for module in third_party_imports(root / package) - TEST_ONLY:
        candidates = {canonical(d) for d in providers.get(module, [module])}
        if not candidates & declared:
            undeclared[module] = sorted(candidates)
    assert not undeclared, f"{distribution} imports packages it does not declare: {undeclared}"
