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
PUBLIC_MODULES = {
    "tautrait_core",
    "tautrait_core.testing",
    "tautrait_core.tau2",
    "tautrait_core.commands",
}
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


@pytest.mark.parametrize("name", sorted(PUBLIC_MODULES))
def test_every_public_name_is_listed_once_and_resolves(name: str) -> None:
    package = importlib.import_module(name)
    source = Path(package.__file__).read_text(encoding="utf-8")
    listed = re.findall(r"^\s+(\w+) as (\w+),?$", source, re.M)
    assert listed, f"{name} lists no names"
    assert all(original == alias for original, alias in listed), listed
    names = [alias for _, alias in listed]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    assert not duplicated, f"listed more than once in {name}: {duplicated}"
    assert set(package.__all__) >= set(names)
    for public in package.__all__:
        assert getattr(package, public) is not None, public


def test_no_public_name_is_in_two_public_modules() -> None:
    seen: dict[str, str] = {}
    for name in sorted(PUBLIC_MODULES):
        for public in importlib.import_module(name).__all__:
            assert public not in seen, f"{public} is public in {seen[public]} and {name}"
            seen[public] = name


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


def imported_modules(
    name: str, path: Path, known: set[str], type_checking: bool = False
) -> set[str]:
    """Core modules that ``name`` imports: at run time (function-level imports included),
    and with ``type_checking`` also those of its ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    if not type_checking:
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
            if target and target != name:
                found.add(target)
                break
    return found


LAYERS = [
    {"errors", "paths", "files", "money", "trait_mix", "run_options", "registrations"}
    | {"hookmarkers", "lazy_exports"},
    {"types"},
    {"compat"},
    {"config"},
    {"llm"},
    {"store"},
    {"domain"},
    {"retrieval"},
    {"grading"},
    {"episode"},
    {"remote"},
    {"hookspecs", "plugins"},
    {"builtin"},
    {"interchange"},
    {"run"},
    {"analysis"},
    {"render"},
    {"scripted"},
    {"gym", "scaffold"},
    {"cli"},
    {"testing"},
]
"""The core's layers, bottom first: a module imports only from its own layer and those
below it. The public modules (the package itself, ``tau2``, ``commands``) and ``__main__``
sit above every layer."""
FACADES = {
    "tautrait_core",
    "tautrait_core.__main__",
    "tautrait_core.tau2",
    "tautrait_core.commands",
}


def unit_of(module: str) -> str:
    """The package (or top-level module) of the core that ``module`` belongs to."""
    return module.split(".")[1]


def layer_of(module: str) -> int:
    unit = unit_of(module)
    return next(index for index, layer in enumerate(LAYERS) if unit in layer)


def test_every_core_package_has_a_layer() -> None:
    units = {unit_of(name) for name in core_modules() if name not in FACADES}
    assert units == set().union(*LAYERS)


def test_no_core_module_imports_from_a_layer_above_its_own() -> None:
    modules = core_modules()
    upward = []
    for name, path in sorted(modules.items()):
        if name in FACADES:
            continue
        for target in sorted(imported_modules(name, path, set(modules), type_checking=True)):
            if target == "tautrait_core":
                upward.append(f"{name} -> the public API (import from the defining module)")
            elif target not in FACADES and layer_of(target) > layer_of(name):
                upward.append(f"{name} -> {target}")
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


def test_no_two_core_packages_import_each_other() -> None:
    modules = core_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if name in FACADES:
            continue
        targets = imported_modules(name, path, set(modules), type_checking=True)
        graph.setdefault(unit_of(name), set()).update(
            unit_of(t) for t in targets if t not in FACADES and unit_of(t) != unit_of(name)
        )
    cycles = [
        f"{a} <-> {b}" for a in sorted(graph) for b in sorted(graph[a]) if a < b and a in graph[b]
    ]
    assert not cycles, "packages importing each other: " + ", ".join(cycles)


def test_the_core_has_no_import_cycles() -> None:
    modules = core_modules()
    graph = {
        name: imported_modules(name, path, set(modules)) - {"tautrait_core"}
        for name, path in modules.items()
    }
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
