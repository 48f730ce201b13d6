"""The ``few-shot`` agent: native tool calling with example conversations in the prompt.

The examples come from ``--few-shot-file F.jsonl`` (``AgentSettings.few_shot_file``), one JSON
object per line with a ``messages_display`` string (the form of upstream's few-shot
files). Each episode shows up to :data:`EXAMPLES_PER_EPISODE` of them after the policy,
drawn with the episode's seed, so a rerun shows the same ones. A missing or invalid file
is a :class:`ConfigError` raised by :meth:`FewShotAgent.check_config`, before a run starts.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

from tautrait_core.builtin.agents.tool_calling import SystemSectionAgent
from tautrait_core.config.parts import AgentSettings
from tautrait_core.config.run_config import RunConfig
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.errors import ConfigError
from tautrait_core.files import read_text_file

EXAMPLES_PER_EPISODE = 5
DISPLAY_FIELD = "messages_display"

FIX = (
    "pass --few-shot-file with a UTF-8 JSONL file whose lines are objects with a "
    f"{DISPLAY_FIELD!r} string"
)

EXAMPLES_SECTION = """## Example conversations

Below are conversations from this service that were handled well. Use them to see how the \
policy is applied and in which order tools are called; their customers, ids and facts are \
not those of your conversation.

{examples}"""


def load_demonstrations(path: str | Path) -> list[str]:
    """The ``messages_display`` strings of a few-shot JSONL file (blank lines skipped).

    Raises:
        ConfigError: the file is missing, unreadable, not UTF-8, empty, or a line is not a
            JSON object with a ``messages_display`` string.
    """
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"few-shot file {file} not found: {FIX}")
    return list(_read(str(file.resolve()), file.stat().st_mtime_ns, str(file)))


@lru_cache(maxsize=8)
def _read(resolved: str, mtime_ns: int, path: str) -> tuple[str, ...]:
    """The displays of the file ``path`` (``resolved`` and ``mtime_ns`` key the cache),
    named in errors as the user gave it."""
    displays: list[str] = []
    text = read_text_file(Path(path), ConfigError, "the --few-shot-file")
    # split on newlines only (as reading line by line does): JSON strings may hold U+2028
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except RecursionError as exc:
            raise ConfigError(
                f"few-shot file {path} line {number}: nested too deeply to parse; {FIX}"
            ) from exc
        except ValueError as exc:
            column = f" (column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
            raise ConfigError(f"few-shot file {path} line {number}: not JSON{column}") from exc
        display = record.get(DISPLAY_FIELD) if isinstance(record, dict) else None
        if not isinstance(display, str) or not display.strip():
            raise ConfigError(
                f"few-shot file {path} line {number}: expected a JSON object with a "
                f"non-empty {DISPLAY_FIELD!r} string"
            )
        displays.append(display)
    if not displays:
        raise ConfigError(f"few-shot file {path} has no examples: add JSONL lines")
    return tuple(displays)


def few_shot_path(agent: AgentSettings) -> str:
    """``agent.few_shot_file``; raises :class:`ConfigError` when it is not set."""
    if not agent.few_shot_file:
        raise ConfigError(
            "agent 'few-shot' needs examples: pass --few-shot-file F.jsonl (one JSON "
            f"object per line with a {DISPLAY_FIELD!r} string)"
        )
    return agent.few_shot_file


def examples_section(displays: list[str], seed: int) -> str:
    """Up to :data:`EXAMPLES_PER_EPISODE` examples, chosen with ``seed``, as prompt text."""
    chosen = displays
    if len(displays) > EXAMPLES_PER_EPISODE:
        chosen = random.Random(seed).sample(displays, EXAMPLES_PER_EPISODE)
    examples = "\n\n".join(
        f"### Example {number}\n{display.strip()}" for number, display in enumerate(chosen, 1)
    )
    return EXAMPLES_SECTION.format(examples=examples)


class FewShotAgent(SystemSectionAgent):
    """Tool calling whose system prompt is the policy followed by example conversations."""

    name = "few-shot"
    description = "native tool calls with example conversations from --few-shot-file"

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        load_demonstrations(few_shot_path(config.agent))

    def __init__(self, context: EpisodeContext) -> None:
        displays = load_demonstrations(few_shot_path(context.agent))
        super().__init__(context, examples_section(displays, context.seed))
