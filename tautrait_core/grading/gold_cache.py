"""A bounded cache of gold replays, keyed by what a replay depends on.

Replaying a task's gold actions depends only on the domain's tools, the template the
episode database is copied from, the task and the episode's date, so its result is shared
by every trial of the task. Keys name the domain and its tools (a solo episode's domain is a
new object with the user tools added, and reuses the replay of every other solo episode)
and a token per template that is never reused (``id()`` is, once an object is freed). At most
:data:`GOLD_CACHE_SIZE` replays are kept, the least recently used going first.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import StateTemplate
from tautrait_core.types.task import Task

GOLD_CACHE_SIZE = 4096
Value = TypeVar("Value")

_template_tokens: weakref.WeakKeyDictionary[StateTemplate, int] = weakref.WeakKeyDictionary()
_next_token = itertools.count()
_tokens_lock = threading.Lock()


def replay_key(domain: Domain, template: StateTemplate, task: Task, today: object) -> Hashable:
    """What a gold replay of ``task`` depends on, as a cache key."""
    with _tokens_lock:
        token = _template_tokens.get(template)
        if token is None:
            token = _template_tokens[template] = next(_next_token)
    tools = tuple(sorted(tool.name for tool in domain.tools))
    return (domain.name, tools, template.name, token, task.model_dump_json(), str(today))


class GoldCache(Generic[Value]):
    """A thread-safe map of replay results that keeps the ``size`` most recently used."""

    def __init__(self, size: int = GOLD_CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], Value]) -> Value:
        """The value stored for ``key``, else ``compute()`` (run outside the lock), kept."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = compute()
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry (benchmarks time replays from scratch)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
