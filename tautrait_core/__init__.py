"""tautrait: evaluate tool-using agents against simulated users with personality traits.

This module is the public API: everything a plugin (a domain, an agent, a user simulator, a
trait backend or a command) imports comes from here, and nothing else in the package is
promised to stay where it is. Tests of plugins also use :mod:`tautrait_core.testing`.

Names load on first use, so importing the package (and starting the CLI) stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tautrait_core.hookspecs import hookimpl, hookspec
from tautrait_core.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from tautrait_core.analysis.rescore import rescore
    from tautrait_core.cli.root import json_option, library_call, open_store, results_db_option
    from tautrait_core.compat.data_files import (
        UpstreamCodec,
        read_collections,
        upstream_collection,
        write_collections,
        write_data_command,
    )
    from tautrait_core.compat.hashing import UpstreamBaseline, upstream_changes, upstream_hash
    from tautrait_core.compat.records import (
        JSONValue,
        RecordRow,
        check_record_id,
        check_record_keys,
        json_field,
        json_value_field,
    )
    from tautrait_core.compat.tau2.hashing import tau2_db_hash
    from tautrait_core.compat.tau2.merge import tau2_deep_merge
    from tautrait_core.compat.tau2.serialise import tau2_json
    from tautrait_core.compat.tau2.tools import (
        TAU2_UNKNOWN_TOOL,
        Tau2Tool,
        tau2_calculate,
        tau2_calculate_tool,
        tau2_found,
        tau2_tool,
        tau2_transfer_tool,
    )
    from tautrait_core.config import RunConfig
    from tautrait_core.domain.checks import TaskCheck, check_task, check_task_set
    from tautrait_core.domain.common_tools import calculate, think, transfer_to_human_agents
    from tautrait_core.domain.criteria import (
        EnvAssertion,
        EnvFunctionCall,
        EvaluationCriteria,
        InitialData,
        InitialState,
        RewardBasis,
    )
    from tautrait_core.domain.domain import Domain, TaskSet, UpstreamFormat
    from tautrait_core.domain.hook import domain_hook
    from tautrait_core.domain.initial_state import apply_initial_state
    from tautrait_core.domain.layout import DomainLayout, imported_tau2_domain
    from tautrait_core.domain.plain_rows import PlainRecord
    from tautrait_core.domain.reward import (
        RewardInfo,
        compute_reward,
        gold_plan,
        is_gold_tool_call,
        replay_actions,
    )
    from tautrait_core.domain.state import EpisodeDB, StateTemplate
    from tautrait_core.domain.task import RESPOND_ACTION, Action, Task
    from tautrait_core.domain.task_sets import (
        resolve_task_set,
        tau2_data_dir,
        tau2_data_file,
        template_for,
    )
    from tautrait_core.domain.template_cache import TemplateCache, per_template
    from tautrait_core.domain.tools import ERROR_PREFIX, Tool, tool
    from tautrait_core.episode.agent import Agent
    from tautrait_core.episode.context import EpisodeContext
    from tautrait_core.episode.messages import (
        OUT_OF_SCOPE_TOKEN,
        STOP_TOKEN,
        TAU2_GREETING,
        TRANSFER_TOKEN,
        Message,
        ToolCall,
    )
    from tautrait_core.episode.result import EpisodeResult, Outcome, Termination
    from tautrait_core.episode.trait_backend import Generation, TraitBackend
    from tautrait_core.episode.user import UserSimulator, UserTurn
    from tautrait_core.errors import (
        ConfigError,
        ContextWindowError,
        PluginError,
        ProviderError,
        TaskSetError,
        TautraitError,
        TraitError,
        UnknownNameError,
    )
    from tautrait_core.llm.client import Completion, ModelSpec, call_log, complete
    from tautrait_core.llm.http_session import (
        ConnectionFailed,
        HttpAnswer,
        RequestTimeout,
        post_json,
    )
    from tautrait_core.llm.keys import apply_stored_keys, redact, set_key
    from tautrait_core.llm.retries import (
        AttemptFailure,
        RetriesExhausted,
        parse_retry_after,
        retry_delay,
        send_with_retries,
    )
    from tautrait_core.llm.usage import ModelCall, Usage
    from tautrait_core.plugins import get_plugin_manager, lookup
    from tautrait_core.registrations import DeferredPart
    from tautrait_core.render.console import console, echo_json
    from tautrait_core.run.prepared import PreparedRun, prepare
    from tautrait_core.run.runner import RunReport, execute, run
    from tautrait_core.run_options import RunOption
    from tautrait_core.trait_mix import INTENSITY_WORDS, TRAITS, TraitMix, canonical_trait

_EXPORTS = {
    # building a domain
    "Domain": "tautrait_core.domain.domain",
    "TaskSet": "tautrait_core.domain.domain",
    "UpstreamFormat": "tautrait_core.domain.domain",
    "DomainLayout": "tautrait_core.domain.layout",
    "imported_tau2_domain": "tautrait_core.domain.layout",
    "domain_hook": "tautrait_core.domain.hook",
    "Task": "tautrait_core.domain.task",
    "RewardBasis": "tautrait_core.domain.criteria",
    "EvaluationCriteria": "tautrait_core.domain.criteria",
    "EnvAssertion": "tautrait_core.domain.criteria",
    "EnvFunctionCall": "tautrait_core.domain.criteria",
    "InitialState": "tautrait_core.domain.criteria",
    "InitialData": "tautrait_core.domain.criteria",
    "Action": "tautrait_core.domain.task",
    "RESPOND_ACTION": "tautrait_core.domain.task",
    "Tool": "tautrait_core.domain.tools",
    "tool": "tautrait_core.domain.tools",
    "ERROR_PREFIX": "tautrait_core.domain.tools",
    "EpisodeDB": "tautrait_core.domain.state",
    "PlainRecord": "tautrait_core.domain.plain_rows",
    "StateTemplate": "tautrait_core.domain.state",
    "TemplateCache": "tautrait_core.domain.template_cache",
    "per_template": "tautrait_core.domain.template_cache",
    "calculate": "tautrait_core.domain.common_tools",
    "think": "tautrait_core.domain.common_tools",
    "transfer_to_human_agents": "tautrait_core.domain.common_tools",
    "RewardInfo": "tautrait_core.domain.reward",
    "compute_reward": "tautrait_core.domain.reward",
    "replay_actions": "tautrait_core.domain.reward",
    "rescore": "tautrait_core.analysis.rescore",
    "gold_plan": "tautrait_core.domain.reward",
    "is_gold_tool_call": "tautrait_core.domain.reward",
    "TaskCheck": "tautrait_core.domain.checks",
    "check_task": "tautrait_core.domain.checks",
    "check_task_set": "tautrait_core.domain.checks",
    "resolve_task_set": "tautrait_core.domain.task_sets",
    "template_for": "tautrait_core.domain.task_sets",
    # upstream compatibility
    "UpstreamBaseline": "tautrait_core.compat.hashing",
    "upstream_changes": "tautrait_core.compat.hashing",
    "upstream_hash": "tautrait_core.compat.hashing",
    "JSONValue": "tautrait_core.compat.records",
    "RecordRow": "tautrait_core.compat.records",
    "read_collections": "tautrait_core.compat.data_files",
    "UpstreamCodec": "tautrait_core.compat.data_files",
    "upstream_collection": "tautrait_core.compat.data_files",
    "write_collections": "tautrait_core.compat.data_files",
    "write_data_command": "tautrait_core.compat.data_files",
    "check_record_keys": "tautrait_core.compat.records",
    "check_record_id": "tautrait_core.compat.records",
    "json_field": "tautrait_core.compat.records",
    "json_value_field": "tautrait_core.compat.records",
    "tau2_json": "tautrait_core.compat.tau2.serialise",
    "tau2_db_hash": "tautrait_core.compat.tau2.hashing",
    "tau2_deep_merge": "tautrait_core.compat.tau2.merge",
    "Tau2Tool": "tautrait_core.compat.tau2.tools",
    "TAU2_UNKNOWN_TOOL": "tautrait_core.compat.tau2.tools",
    "tau2_tool": "tautrait_core.compat.tau2.tools",
    "tau2_found": "tautrait_core.compat.tau2.tools",
    "tau2_calculate": "tautrait_core.compat.tau2.tools",
    "tau2_calculate_tool": "tautrait_core.compat.tau2.tools",
    "tau2_transfer_tool": "tautrait_core.compat.tau2.tools",
    "tau2_data_dir": "tautrait_core.domain.task_sets",
    "tau2_data_file": "tautrait_core.domain.task_sets",
    # agents, user simulators and trait backends
    "Agent": "tautrait_core.episode.agent",
    "UserSimulator": "tautrait_core.episode.user",
    "TraitBackend": "tautrait_core.episode.trait_backend",
    "Generation": "tautrait_core.episode.trait_backend",
    "EpisodeContext": "tautrait_core.episode.context",
    "Message": "tautrait_core.episode.messages",
    "ToolCall": "tautrait_core.episode.messages",
    "STOP_TOKEN": "tautrait_core.episode.messages",
    "TRANSFER_TOKEN": "tautrait_core.episode.messages",
    "OUT_OF_SCOPE_TOKEN": "tautrait_core.episode.messages",
    "TAU2_GREETING": "tautrait_core.episode.messages",
    "UserTurn": "tautrait_core.episode.user",
    "apply_initial_state": "tautrait_core.domain.initial_state",
    "TraitMix": "tautrait_core.trait_mix",
    "TRAITS": "tautrait_core.trait_mix",
    "INTENSITY_WORDS": "tautrait_core.trait_mix",
    "canonical_trait": "tautrait_core.trait_mix",
    # model calls
    "ModelSpec": "tautrait_core.llm.client",
    "Completion": "tautrait_core.llm.client",
    "complete": "tautrait_core.llm.client",
    "call_log": "tautrait_core.llm.client",
    "retry_delay": "tautrait_core.llm.retries",
    # calling other services: one connection pool per server, the retry policy of model calls
    "post_json": "tautrait_core.llm.http_session",
    "HttpAnswer": "tautrait_core.llm.http_session",
    "RequestTimeout": "tautrait_core.llm.http_session",
    "ConnectionFailed": "tautrait_core.llm.http_session",
    "send_with_retries": "tautrait_core.llm.retries",
    "AttemptFailure": "tautrait_core.llm.retries",
    "RetriesExhausted": "tautrait_core.llm.retries",
    "parse_retry_after": "tautrait_core.llm.retries",
    "Usage": "tautrait_core.llm.usage",
    "ModelCall": "tautrait_core.llm.usage",
    "apply_stored_keys": "tautrait_core.llm.keys",
    "redact": "tautrait_core.llm.keys",
    "set_key": "tautrait_core.llm.keys",
    # runs and results
    "RunConfig": "tautrait_core.config",
    "RunOption": "tautrait_core.run_options",
    "PreparedRun": "tautrait_core.run.prepared",
    "prepare": "tautrait_core.run.prepared",
    "RunReport": "tautrait_core.run.runner",
    "execute": "tautrait_core.run.runner",
    "run": "tautrait_core.run.runner",
    "EpisodeResult": "tautrait_core.episode.result",
    "Outcome": "tautrait_core.episode.result",
    "Termination": "tautrait_core.episode.result",
    # plugins and errors
    "get_plugin_manager": "tautrait_core.plugins",
    "lookup": "tautrait_core.plugins",
    "DeferredPart": "tautrait_core.registrations",
    "TautraitError": "tautrait_core.errors",
    "ConfigError": "tautrait_core.errors",
    "ContextWindowError": "tautrait_core.errors",
    "PluginError": "tautrait_core.errors",
    "ProviderError": "tautrait_core.errors",
    "TaskSetError": "tautrait_core.errors",
    "TraitError": "tautrait_core.errors",
    "UnknownNameError": "tautrait_core.errors",
    # command plugins
    "library_call": "tautrait_core.cli.root",
    "json_option": "tautrait_core.cli.root",
    "results_db_option": "tautrait_core.cli.root",
    "open_store": "tautrait_core.cli.root",
    "console": "tautrait_core.render.console",
    "echo_json": "tautrait_core.render.console",
}

__all__ = [
    "ERROR_PREFIX",
    "INTENSITY_WORDS",
    "OUT_OF_SCOPE_TOKEN",
    "RESPOND_ACTION",
    "STOP_TOKEN",
    "TAU2_GREETING",
    "TAU2_UNKNOWN_TOOL",
    "TRAITS",
    "TRANSFER_TOKEN",
    "Action",
    "Agent",
    "AttemptFailure",
    "Completion",
    "ConfigError",
    "ConnectionFailed",
    "ContextWindowError",
    "DeferredPart",
    "Domain",
    "DomainLayout",
    "EnvAssertion",
    "EnvFunctionCall",
    "EpisodeContext",
    "EpisodeDB",
    "EpisodeResult",
    "EvaluationCriteria",
    "Generation",
    "HttpAnswer",
    "InitialData",
    "InitialState",
    "JSONValue",
    "Message",
    "ModelCall",
    "ModelSpec",
    "Outcome",
    "PlainRecord",
    "PluginError",
    "PreparedRun",
    "ProviderError",
    "RecordRow",
    "RequestTimeout",
    "RetriesExhausted",
    "RewardBasis",
    "RewardInfo",
    "RunConfig",
    "RunOption",
    "RunReport",
    "StateTemplate",
    "Task",
    "TaskCheck",
    "TaskSet",
    "TaskSetError",
    "Tau2Tool",
    "TautraitError",
    "TemplateCache",
    "Termination",
    "Tool",
    "ToolCall",
    "TraitBackend",
    "TraitError",
    "TraitMix",
    "UnknownNameError",
    "UpstreamBaseline",
    "UpstreamCodec",
    "UpstreamFormat",
    "Usage",
    "UserSimulator",
    "UserTurn",
    "apply_initial_state",
    "apply_stored_keys",
    "calculate",
    "call_log",
    "canonical_trait",
    "check_record_id",
    "check_record_keys",
    "check_task",
    "check_task_set",
    "complete",
    "compute_reward",
    "console",
    "domain_hook",
    "echo_json",
    "execute",
    "get_plugin_manager",
    "gold_plan",
    "hookimpl",
    "hookspec",
    "imported_tau2_domain",
    "is_gold_tool_call",
    "json_field",
    "json_option",
    "json_value_field",
    "library_call",
    "lookup",
    "open_store",
    "parse_retry_after",
    "per_template",
    "post_json",
    "prepare",
    "read_collections",
    "redact",
    "replay_actions",
    "rescore",
    "resolve_task_set",
    "results_db_option",
    "retry_delay",
    "run",
    "send_with_retries",
    "set_key",
    "tau2_calculate",
    "tau2_calculate_tool",
    "tau2_data_dir",
    "tau2_data_file",
    "tau2_db_hash",
    "tau2_deep_merge",
    "tau2_found",
    "tau2_json",
    "tau2_tool",
    "tau2_transfer_tool",
    "template_for",
    "think",
    "tool",
    "transfer_to_human_agents",
    "upstream_changes",
    "upstream_collection",
    "upstream_hash",
    "write_collections",
    "write_data_command",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
