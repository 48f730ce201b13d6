"""tautrait: evaluate tool-using agents against simulated users with personality traits.

This module is the public API: everything a plugin (a domain, an agent, a user simulator, a
trait backend or a command) imports comes from here or from three public modules beside it,
and nothing else in the package is promised to stay where it is: tests of plugins use
:mod:`tautrait_core.testing`, τ²-style domains :mod:`tautrait_core.tau2`, and a plugin's own
CLI commands :mod:`tautrait_core.commands`. Each public name is listed once, in the
``if TYPE_CHECKING:`` block below.

Names load on first use, so importing the package (and starting the CLI) stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tautrait_core.hookmarkers import hookimpl as hookimpl, hookspec as hookspec
from tautrait_core.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from tautrait_core.analysis.rescore import (
        rescore as rescore,
    )
    from tautrait_core.compat.data_files import (
        UpstreamCodec as UpstreamCodec,
        read_collections as read_collections,
        upstream_collection as upstream_collection,
        write_collections as write_collections,
        write_data_command as write_data_command,
    )
    from tautrait_core.compat.hashing import (
        UpstreamBaseline as UpstreamBaseline,
        upstream_changes as upstream_changes,
        upstream_hash as upstream_hash,
    )
    from tautrait_core.compat.records import (
        JSONValue as JSONValue,
        RecordRow as RecordRow,
        check_record_id as check_record_id,
        check_record_keys as check_record_keys,
        json_field as json_field,
        json_value_field as json_value_field,
    )
    from tautrait_core.config.parts import (
        AgentSettings as AgentSettings,
        ExecutorSettings as ExecutorSettings,
        JudgeSettings as JudgeSettings,
        Limits as Limits,
        RetrievalSettings as RetrievalSettings,
        StorageSettings as StorageSettings,
        TransportSettings as TransportSettings,
        UserSettings as UserSettings,
    )
    from tautrait_core.config.run_config import (
        RunConfig as RunConfig,
    )
    from tautrait_core.domain.common_tools import (
        calculate as calculate,
        think as think,
        transfer_to_human_agents as transfer_to_human_agents,
    )
    from tautrait_core.domain.documents import (
        Document as Document,
        DocumentCollection as DocumentCollection,
    )
    from tautrait_core.domain.domain import (
        Domain as Domain,
        TaskSet as TaskSet,
        UpstreamFormat as UpstreamFormat,
    )
    from tautrait_core.domain.hook import (
        domain_hook as domain_hook,
    )
    from tautrait_core.domain.initial_state import (
        apply_initial_state as apply_initial_state,
    )
    from tautrait_core.domain.layout import (
        DomainLayout as DomainLayout,
    )
    from tautrait_core.domain.plain_rows import (
        PlainRecord as PlainRecord,
    )
    from tautrait_core.domain.state import (
        EpisodeDB as EpisodeDB,
        StateTemplate as StateTemplate,
    )
    from tautrait_core.domain.task_sets import (
        resolve_task_set as resolve_task_set,
        template_for as template_for,
    )
    from tautrait_core.domain.template_cache import (
        TemplateCache as TemplateCache,
        per_template as per_template,
    )
    from tautrait_core.domain.tools import (
        ERROR_PREFIX as ERROR_PREFIX,
        Tool as Tool,
        tool as tool,
    )
    from tautrait_core.episode.agent import (
        Agent as Agent,
    )
    from tautrait_core.episode.context import (
        EpisodeContext as EpisodeContext,
    )
    from tautrait_core.episode.trait_backend import (
        Generation as Generation,
        TraitBackend as TraitBackend,
    )
    from tautrait_core.episode.user import (
        UserSimulator as UserSimulator,
        UserTurn as UserTurn,
    )
    from tautrait_core.errors import (
        ConfigError as ConfigError,
        ContextWindowError as ContextWindowError,
        PluginError as PluginError,
        ProviderError as ProviderError,
        TaskSetError as TaskSetError,
        TautraitError as TautraitError,
        TraitError as TraitError,
        UnknownNameError as UnknownNameError,
    )
    from tautrait_core.grading.checks import (
        TaskCheck as TaskCheck,
        check_task as check_task,
        check_task_set as check_task_set,
    )
    from tautrait_core.grading.reward import (
        compute_reward as compute_reward,
        gold_plan as gold_plan,
        is_gold_tool_call as is_gold_tool_call,
        replay_actions as replay_actions,
    )
    from tautrait_core.llm.client import (
        Completion as Completion,
        ModelSpec as ModelSpec,
        call_log as call_log,
        complete as complete,
    )
    from tautrait_core.llm.http_session import (
        ConnectionFailed as ConnectionFailed,
        HttpAnswer as HttpAnswer,
        RequestTimeout as RequestTimeout,
        post_json as post_json,
    )
    from tautrait_core.llm.keys import (
        apply_stored_keys as apply_stored_keys,
        redact as redact,
        set_key as set_key,
    )
    from tautrait_core.llm.retries import (
        AttemptFailure as AttemptFailure,
        RetriesExhausted as RetriesExhausted,
        parse_retry_after as parse_retry_after,
        retry_delay as retry_delay,
        send_with_retries as send_with_retries,
    )
    from tautrait_core.plugins import (
        get_plugin_manager as get_plugin_manager,
        lookup as lookup,
    )
    from tautrait_core.registrations import (
        DeferredPart as DeferredPart,
    )
    from tautrait_core.retrieval.base import (
        Retrieval as Retrieval,
    )
    from tautrait_core.retrieval.results import (
        hit_list as hit_list,
        timed_search as timed_search,
        without_timing as without_timing,
    )
    from tautrait_core.retrieval.shared import (
        shared_index as shared_index,
    )
    from tautrait_core.run.prepared import (
        PreparedRun as PreparedRun,
        prepare as prepare,
    )
    from tautrait_core.run.runner import (
        RunReport as RunReport,
        execute as execute,
        run as run,
    )
    from tautrait_core.run_options import (
        RunOption as RunOption,
    )
    from tautrait_core.trait_mix import (
        INTENSITY_WORDS as INTENSITY_WORDS,
        TRAITS as TRAITS,
        TraitMix as TraitMix,
        canonical_trait as canonical_trait,
    )
    from tautrait_core.types.criteria import (
        EnvAssertion as EnvAssertion,
        EnvFunctionCall as EnvFunctionCall,
        EvaluationCriteria as EvaluationCriteria,
        InitialData as InitialData,
        InitialState as InitialState,
        RewardBasis as RewardBasis,
    )
    from tautrait_core.types.messages import (
        OUT_OF_SCOPE_TOKEN as OUT_OF_SCOPE_TOKEN,
        STOP_TOKEN as STOP_TOKEN,
        TRANSFER_TOKEN as TRANSFER_TOKEN,
        Message as Message,
        ToolCall as ToolCall,
    )
    from tautrait_core.types.result import (
        EpisodeResult as EpisodeResult,
        Outcome as Outcome,
        Termination as Termination,
    )
    from tautrait_core.types.reward import (
        RewardInfo as RewardInfo,
    )
    from tautrait_core.types.task import (
        RESPOND_ACTION as RESPOND_ACTION,
        Action as Action,
        Task as Task,
    )
    from tautrait_core.types.usage import (
        ModelCall as ModelCall,
        Usage as Usage,
    )

__getattr__, __dir__, __all__ = lazy_exports(
    __name__, __file__, globals(), ("hookimpl", "hookspec")
)
