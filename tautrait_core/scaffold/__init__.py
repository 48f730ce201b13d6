"""``tautrait new``: create a working plugin package from a template.

A generated package installs with ``pip install -e '.[test]'`` and passes its own tests
unchanged; it is the starting point for a new domain or user simulator.
"""

from __future__ import annotations

import re
from pathlib import Path

from tautrait_core.errors import ConfigError

TEMPLATES = Path(__file__).parent / "templates"
KINDS = ("domain", "user")


def module_name(name: str) -> str:
    """The Python module suffix for a plugin name (``my-clinic`` -> ``my_clinic``)."""
    return name.replace("-", "_")


DUAL_CONTROL = "dual_control"
"""The templates written over the domain's for ``--dual-control``: the customer's phone,
its user tools, sync and functions, a task the customer must act in, and their tests."""


def create_plugin(kind: str, name: str, parent: Path, dual_control: bool = False) -> Path:
    """Write the template of ``kind`` as ``parent/tautrait-<name>/`` and return that folder.

    With ``dual_control`` (domains only) the domain is dual-control: the customer has a
    phone and tools to act on it.
    """
    if kind not in KINDS:
        raise ConfigError(f"unknown plugin kind {kind!r}: choose one of {', '.join(KINDS)}")
    if dual_control and kind != "domain":
        raise ConfigError("--dual-control makes a domain: use tautrait new domain NAME")
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name):
        raise ConfigError(f"invalid name {name!r}: use lower-case letters, digits and '-'")
    target = parent / f"tautrait-{name}"
    if target.exists():
        raise ConfigError(f"{target} already exists")
    module = module_name(name)
    _write_templates(TEMPLATES / kind, target, name, module)
    if dual_control:
        _write_templates(TEMPLATES / DUAL_CONTROL, target, name, module)
    return target


def _write_templates(source_root: Path, target: Path, name: str, module: str) -> None:
    """Write every template under ``source_root`` into ``target`` (replacing what is there)."""
    for template in sorted(source_root.rglob("*.tmpl")):
        relative = template.relative_to(source_root).with_suffix("")
        parts = [f"tautrait_{module}" if part == "package" else part for part in relative.parts]
        destination = target.joinpath(*parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        text = template.read_text().replace("@@name@@", name).replace("@@module@@", module)
        destination.write_text(text)
