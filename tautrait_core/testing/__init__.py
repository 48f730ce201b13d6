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
    from tautrait_core.cli import (
        cli as cli,
        main as main,
    )
    from tautrait_core.grading.criteria_reward import (
        grade_criteria as grade_criteria,
    )
    from tautrait_core.plugins import (
        reset_plugin_manager as reset_plugin_manager,
    )
    from tautrait_core.scripted.loopback import (
        JSONRequestHandler as JSONRequestHandler,
        LoopbackService as LoopbackService,
    )
    from tautrait_core.scripted.server import (
        Failure as Failure,
        Reply as Reply,
        ScriptedModelServer as ScriptedModelServer,
        reply_text as reply_text,
        reply_tool_call as reply_tool_call,
    )
    from tautrait_core.testing.domain_contract import (
        DomainPluginContract as DomainPluginContract,
        UpstreamDomainContract as UpstreamDomainContract,
    )
    from tautrait_core.testing.episode_fixtures import (
        EpisodeFixtures as EpisodeFixtures,
        episode_fixtures as episode_fixtures,
    )
    from tautrait_core.testing.plugin_checks import (
        heavy_modules_imported_by as heavy_modules_imported_by,
        oracle_average_reward as oracle_average_reward,
        package_files as package_files,
        registered_domain as registered_domain,
        wheel_contents as wheel_contents,
        write_upstream_checkout as write_upstream_checkout,
    )
    from tautrait_core.testing.reference import (
        missing_reference_material as missing_reference_material,
        reference_material_dir as reference_material_dir,
    )
    from tautrait_core.testing.tau2_golden import (
        golden_trajectory as golden_trajectory,
    )
    from tautrait_core.testing.tau2_reference import (
        apply_initial_state_for_test as apply_initial_state_for_test,
        build_tau2_checkout as build_tau2_checkout,
        call_function as call_function,
        golden_records as golden_records,
        run_side_call as run_side_call,
        tau2_schema_differences as tau2_schema_differences,
    )

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
