"""A person at the terminal plays one side: the ``human`` user and the ``human`` agent.

Input is read in a daemon thread (:func:`read_line`), so the event loop keeps running
while the person types and Ctrl-C does not wait for a line to be finished. Closing the
input (Ctrl-D) as the user ends the conversation as if they had typed ``/stop``; as the
agent it ends the episode as an agent failure (:class:`HumanLeftError`). Both need
``--concurrency 1``.

The human agent types a reply to the customer, or a command:

* ``/tool NAME {json}``: call a tool (the arguments are checked as for a model's call, so
  a mistake comes back as an ``Error: ...`` result);
* ``/tools``: list the tools and their arguments; ``/policy``: show the policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any, Protocol

import click

from tautrait_core.config.run_config import RunConfig
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.trait_backend import TraitBackend
from tautrait_core.episode.user import UserSimulator, UserTurn
from tautrait_core.errors import ConfigError
from tautrait_core.types.messages import STOP_TOKEN, TAU2_GREETING, Message, ToolCall

STOP_COMMAND = "/stop"

USER_INTRO = """You are the customer. Your situation:
{instruction}
{traits}Type your messages to the agent. Type {stop} (or {token}) when you are done."""

USER_TOOLS_INTRO = """You can also act on your own device (the agent does not see it):
  /tool NAME {{"argument": "value"}}   call one of your tools
  /tools                              list your tools
Your tools: {tools}"""

AGENT_INTRO = """You are the agent. Reply to the customer by typing text, or:
  /tool NAME {{"argument": "value"}}   call a tool
  /tools                              list the tools
  /policy                             show the policy
Tools: {tools}"""


class HumanConsole(Protocol):
    """Where a person reads the conversation and types their turns."""

    def ask(self, prompt: str) -> str:
        """Read one line (blocking); raises ``EOFError`` when the input is closed."""
        ...

    def show(self, text: str) -> None:
        """Show ``text`` to the person."""
        ...


class TerminalConsole:
    """The terminal: ``input()`` and ``click.echo``."""

    def ask(self, prompt: str) -> str:
        return input(prompt)

    def show(self, text: str) -> None:
        click.echo(text)


async def read_line(console: HumanConsole, prompt: str) -> str:
    """``console.ask(prompt)`` without blocking the event loop.

    The read runs in a daemon thread rather than the loop's executor, which an exiting
    ``asyncio.run`` would wait for: an interrupted program must not hang on ``input()``.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: Exception | None) -> None:
        if answer.done():  # the waiting task was cancelled
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(line or "")

    def read() -> None:
        line: str | None = None
        error: Exception | None = None
        try:
            line = console.ask(prompt)
        except Exception as exc:  # EOFError when the input is closed
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile
            loop.call_soon_threadsafe(settle, line, error)

    threading.Thread(target=read, name="tautrait-human-input", daemon=True).start()
    return await answer


def require_one_episode_at_a_time(part: str, config: RunConfig) -> None:
    """A person plays one episode at a time: refuse ``--concurrency`` above 1."""
    if config.executor.concurrency > 1:
        raise ConfigError(f"{part} 'human' is typed by one person: use --concurrency 1")


class HumanLeftError(RuntimeError):
    """The person playing the agent closed the input."""


class HumanUser(UserSimulator):
    """A person types the customer's turns (the trait mix is shown to them as a role); in a
    dual-control domain they may call their own tools with ``/tool NAME {json}``."""

    name = "human"
    description = "a person types the customer's turns in the terminal"
    needs_model = False

    def __init__(
        self, context: EpisodeContext, traits: TraitBackend, console: HumanConsole | None = None
    ) -> None:
        super().__init__(context, traits)
        self.console = console or TerminalConsole()
        self._calls = 0

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        require_one_episode_at_a_time("user simulator", config)

    async def start(self) -> UserTurn:
        mix = self.context.user.traits
        traits = f"Play this personality: {mix.label()}\n" if mix else ""
        self.console.show(
            USER_INTRO.format(
                instruction=self.context.task.instruction.strip(),
                traits=traits,
                stop=STOP_COMMAND,
                token=STOP_TOKEN,
            )
        )
        tools = self.context.user_tool_schemas
        if tools:
            names = ", ".join(schema["function"]["name"] for schema in tools)
            self.console.show(USER_TOOLS_INTRO.format(tools=names))
        if self.context.tau2:
            self.console.show(f"Agent: {TAU2_GREETING}")
        return await self._read()

    async def reply(self, agent_message: str) -> UserTurn:
        self.console.show(f"Agent: {agent_message}")
        return await self._read()

    async def observe_tool_results(self, results: list[Message]) -> UserTurn:
        for result in results:
            self.console.show(f"[{result.name}] {result.content}")
        return await self._read()

    async def _read(self) -> UserTurn:
        tools = self.context.user_tool_schemas
        while True:
            try:
                line = (await read_line(self.console, "You: ")).strip()
            except EOFError:
                return STOP_TOKEN
            if line.lower() == STOP_COMMAND:
                return STOP_TOKEN
            command, _, rest = line.partition(" ")
            if tools and command == "/tools":
                self.console.show(describe_tools(tools))
            elif tools and command == "/tool" and rest.strip():
                name, _, arguments = rest.strip().partition(" ")
                self._calls += 1
                call = ToolCall(
                    id=f"human_user_{self._calls}", name=name, arguments=arguments or "{}"
                )
                return Message(role="user", content=None, tool_calls=[call], requestor="user")
            elif line:
                return line


class HumanAgent(Agent):
    """A person types the agent's turns: replies, or tool calls with ``/tool``."""

    name = "human"
    description = "a person types the agent's replies and tool calls in the terminal"
    needs_model = False

    def __init__(self, context: EpisodeContext, console: HumanConsole | None = None) -> None:
        super().__init__(context)
        self.console = console or TerminalConsole()
        self._shown = 0
        self._calls = 0

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        require_one_episode_at_a_time("agent", config)

    async def next_message(self, conversation: list[Message]) -> Message:
        if self._shown == 0:
            tools = ", ".join(tool.name for tool in self.context.domain.tools)
            self.console.show(AGENT_INTRO.format(tools=tools))
        for message in conversation[self._shown :]:
            if message.role == "user":
                self.console.show(f"Customer: {message.content}")
            elif message.role == "tool":
                self.console.show(f"[{message.name}] {message.content}")
        self._shown = len(conversation)
        while True:
            try:
                line = (await read_line(self.console, "You: ")).strip()
            except EOFError as exc:
                raise HumanLeftError("the person playing the agent closed the input") from exc
            reply = self._interpret(line)
            if reply is not None:
                return reply

    def _interpret(self, line: str) -> Message | None:
        """The message a typed line stands for, or ``None`` after a command that only
        shows something (or a blank line)."""
        if not line:
            return None
        command, _, rest = line.partition(" ")
        if command == "/policy":
            self.console.show(self.context.domain.policy)
        elif command == "/tools":
            self.console.show(describe_tools(self.context.domain.tool_schemas))
        elif command == "/tool" and rest.strip():
            name, _, arguments = rest.strip().partition(" ")
            self._calls += 1
            call = ToolCall(id=f"human_{self._calls}", name=name, arguments=arguments or "{}")
            return Message(role="assistant", content=None, tool_calls=[call])
        elif command.startswith("/"):
            self.console.show('Commands: /tool NAME {"argument": "value"}, /tools, /policy')
        else:
            return Message(role="assistant", content=line)
        return None


def describe_tools(schemas: list[dict[str, Any]]) -> str:
    """One line per tool: ``name(argument: type, ...)`` and its description."""
    lines = []
    for schema in schemas:
        function = schema.get("function", schema)
        properties = function.get("parameters", {}).get("properties", {})
        arguments = ", ".join(
            f"{name}: {spec.get('type', 'any')}" for name, spec in properties.items()
        )
        lines.append(f"{function['name']}({arguments}): {function.get('description', '')}")
    return "\n".join(lines)
