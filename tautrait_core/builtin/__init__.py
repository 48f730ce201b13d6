"""The built-in agents, users, prompt traits and retrieval configurations, registered like
any plugin.

:data:`BUILTIN_PARTS` lists them all; the plugin modules :mod:`.agents`, :mod:`.users`,
:mod:`.traits` and :mod:`.retrievals` each register the parts of their kind from it, by
name, so that each part is imported only when a command uses it.
"""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.registrations import DeferredPart

BUILTIN_PARTS = (
    ("agent", "oracle", "agents.oracle:OracleAgent"),
    ("agent", "tool-calling", "agents.tool_calling:ToolCallingAgent"),
    ("agent", "act", "agents.text_action:ActAgent"),
    ("agent", "react", "agents.text_action:ReActAgent"),
    ("agent", "few-shot", "agents.few_shot:FewShotAgent"),
    ("agent", "human", "human:HumanAgent"),
    ("agent", "oracle-plan", "agents.oracle_plan:OraclePlanAgent"),
    ("agent", "solo", "agents.solo:SoloAgent"),
    ("agent", "a2a", "agents.a2a:A2AAgent"),
    ("user", "scripted", "users.scripted:ScriptedUser"),
    ("user", "llm", "users.llm:LLMUser"),
    ("user", "react", "users.strategies:ReActUser"),
    ("user", "verify", "users.strategies:VerifyingUser"),
    ("user", "reflection", "users.strategies:ReflectingUser"),
    ("user", "human", "human:HumanUser"),
    ("trait_backend", "prompt", "traits.prompt:PromptTraitBackend"),
    ("retrieval", "no_knowledge", "retrievals.knowledge:NoKnowledge"),
    ("retrieval", "full_kb", "retrievals.knowledge:FullKnowledgeBase"),
    ("retrieval", "golden_retrieval", "retrievals.knowledge:GoldenRetrieval"),
    ("retrieval", "bm25", "retrievals.bm25:BM25"),
    ("retrieval", "bm25_grep", "retrievals.bm25:BM25Grep"),
    ("retrieval", "grep_only", "retrievals.grep:GrepOnly"),
    ("retrieval", "openai_embeddings", "retrievals.dense:OpenAIEmbeddings"),
    ("retrieval", "openai_embeddings_grep", "retrievals.dense:OpenAIEmbeddingsGrep"),
    ("retrieval", "qwen_embeddings", "retrievals.dense:QwenEmbeddings"),
    ("retrieval", "qwen_embeddings_grep", "retrievals.dense:QwenEmbeddingsGrep"),
    ("retrieval", "terminal_use", "retrievals.shell:TerminalUse"),
    ("retrieval", "alltools", "retrievals.alltools:AllTools"),
    ("retrieval", "alltools-qwen", "retrievals.alltools:AllToolsQwen"),
)
"""Every built-in part: its registry kind, its name, and where it lives (``module:class``,
the module relative to this package), in the order each kind registers them."""


def register_builtin(kind: str, register: Callable[[DeferredPart], None]) -> None:
    """Register the built-in parts of ``kind`` (a :data:`BUILTIN_PARTS` kind) by name."""
    for part_kind, name, target in BUILTIN_PARTS:
        if part_kind == kind:
            register(DeferredPart(name, f"{__name__}.{target}"))
