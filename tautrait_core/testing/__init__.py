"""Helpers for testing tautrait plugins: the scripted model server (and the loopback service
it is built on, for fakes of other services), CLI entry points, the
plugin manager reset, the contract suite every domain plugin runs on itself
(:class:`DomainPluginContract`), the fixtures its tool tests share, and where the
reference material is.

Plugin tests import from here (and from :mod:`tautrait_core`); the submodules may move.
Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tautrait_core.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from tautrait_core.cli import cli, main
    from tautrait_core.plugins import reset_plugin_manager
    from tautrait_core.testing.domain_contract import DomainPluginContract, UpstreamDomainContract
    from tautrait_core.testing.episode_fixtures import EpisodeFixtures, episode_fixtures
    from tautrait_core.testing.loopback import JSONRequestHandler, LoopbackService
    from tautrait_core.testing.plugin_checks import (
        heavy_modules_imported_by,
        oracle_average_reward,
        package_files,
        registered_domain,
        wheel_contents,
        write_upstream_checkout,
    )
    from tautrait_core.testing.reference import missing_reference_material, reference_material_dir
    from tautrait_core.testing.server import (
        Failure,
        Reply,
        ScriptedModelServer,
        reply_text,
        reply_tool_call,
    )
    from tautrait_core.testing.tau2_reference import (
        apply_initial_state_for_test,
        build_tau2_checkout,
        call_function,
        golden_records,
        run_side_call,
        tau2_schema_differences,
    )

_EXPORTS = {
    "apply_initial_state_for_test": "tautrait_core.testing.tau2_reference",
    "build_tau2_checkout": "tautrait_core.testing.tau2_reference",
    "call_function": "tautrait_core.testing.tau2_reference",
    "golden_records": "tautrait_core.testing.tau2_reference",
    "run_side_call": "tautrait_core.testing.tau2_reference",
    "tau2_schema_differences": "tautrait_core.testing.tau2_reference",
    "cli": "tautrait_core.cli",
    "main": "tautrait_core.cli",
    "reset_plugin_manager": "tautrait_core.plugins",
    "Failure": "tautrait_core.testing.server",
    "Reply": "tautrait_core.testing.server",
    "ScriptedModelServer": "tautrait_core.testing.server",
    "reply_text": "tautrait_core.testing.server",
    "reply_tool_call": "tautrait_core.testing.server",
    "JSONRequestHandler": "tautrait_core.testing.loopback",
    "LoopbackService": "tautrait_core.testing.loopback",
    "heavy_modules_imported_by": "tautrait_core.testing.plugin_checks",
    "oracle_average_reward": "tautrait_core.testing.plugin_checks",
    "package_files": "tautrait_core.testing.plugin_checks",
    "registered_domain": "tautrait_core.testing.plugin_checks",
    "wheel_contents": "tautrait_core.testing.plugin_checks",
    "write_upstream_checkout": "tautrait_core.testing.plugin_checks",
    "DomainPluginContract": "tautrait_core.testing.domain_contract",
    "UpstreamDomainContract": "tautrait_core.testing.domain_contract",
    "EpisodeFixtures": "tautrait_core.testing.episode_fixtures",
    "episode_fixtures": "tautrait_core.testing.episode_fixtures",
    "missing_reference_material": "tautrait_core.testing.reference",
    "reference_material_dir": "tautrait_core.testing.reference",
}

__all__ = [
    "DomainPluginContract",
    "EpisodeFixtures",
    "Failure",
    "JSONRequestHandler",
    "LoopbackService",
    "Reply",
    "ScriptedModelServer",
    "UpstreamDomainContract",
    "apply_initial_state_for_test",
    "build_tau2_checkout",
    "call_function",
    "cli",
    "episode_fixtures",
    "golden_records",
    "heavy_modules_imported_by",
    "main",
    "missing_reference_material",
    "oracle_average_reward",
    "package_files",
    "reference_material_dir",
    "registered_domain",
    "reply_text",
    "reply_tool_call",
    "reset_plugin_manager",
    "run_side_call",
    "tau2_schema_differences",
    "wheel_contents",
    "write_upstream_checkout",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
