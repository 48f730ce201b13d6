"""One A2A conversation (context) with a remote agent, through the a2a-sdk client.

Streaming and non-streaming agents both work: the SDK picks what the agent card says, and
the reply is read from whatever comes back (a message, a task's status message, its
artifacts). A reply without text, a failed, rejected or cancelled task, or an answer the SDK
cannot read raises :class:`RemoteAgentError`: the agent's failure. An agent that cannot be
reached at all raises :class:`AgentUnreachable`.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from tautrait_core.errors import TautraitError


class RemoteAgentError(TautraitError):
    """The remote agent answered badly (an error, malformed data, no text) or too late."""


class AgentUnreachable(TautraitError):
    """Nothing listens at the agent's URL."""


UNDER_WAY = (1, 2)
"""TASK_STATE_SUBMITTED and TASK_STATE_WORKING: a status message then is progress, not
the reply."""

_CARDS: dict[str, Any] = {}
"""Agent cards by URL, fetched once per process."""


class A2ASession:
    """A conversation with the agent at ``url``: one context, a message per user turn."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self.context_id = uuid.uuid4().hex
        self._task_id = ""  # a task waiting for input goes on with the next message
        self._client: Any = None
        self._http: Any = None

    async def send(self, text: str, metadata: dict[str, Any] | None = None) -> str:
        """Send one user turn and return the agent's text reply."""
        from a2a.types import Message, Part, Role, SendMessageRequest

        client = await self._connect()
        message = Message(
            message_id=uuid.uuid4().hex,
            context_id=self.context_id,
            task_id=self._task_id,
            role=Role.ROLE_USER,
            parts=[Part(text=text)],
        )
        if metadata:
            message.metadata.update(metadata)
        try:
            responses = [
                response
                async for response in client.send_message(SendMessageRequest(message=message))
            ]
        except Exception as exc:
            if unreachable(exc):
                raise AgentUnreachable(f"no agent answers at {self.url}: {exc}") from exc
            raise RemoteAgentError(f"{type(exc).__name__}: {exc}") from exc
        return self._reply(responses)

    async def close(self) -> None:
        """Close the HTTP connections of the conversation."""
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def _connect(self) -> Any:
        if self._client is not None:
            return self._client
        import httpx
        from a2a.client import ClientConfig, ClientFactory

        self._http = httpx.AsyncClient(timeout=self.timeout_s, verify=_tls())
        try:
            card = _CARDS.get(self.url)
            if card is None:
                from a2a.client import A2ACardResolver

                card = await A2ACardResolver(self._http, self.url).get_agent_card()
                _CARDS[self.url] = card
        except Exception as exc:
            if unreachable(exc):
                raise AgentUnreachable(f"no agent answers at {self.url}: {exc}") from exc
            if getattr(exc, "status_code", None) == 404:  # a server, but no agent there
                raise AgentUnreachable(
                    f"no agent answers at {self.url}: its agent card is not found (HTTP 404)"
                ) from exc
            raise RemoteAgentError(f"no usable agent card at {self.url}: {exc}") from exc
        config = ClientConfig(streaming=card.capabilities.streaming, httpx_client=self._http)
        self._client = ClientFactory(config).create(card)
        return self._client

    def _reply(self, responses: list[Any]) -> str:
        """The agent's text from the responses to one message."""
        from a2a.types import TaskState

        failed = {TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED}
        failed.add(TaskState.TASK_STATE_CANCELED)
        texts: list[str] = []
        artifacts: list[str] = []
        state = None
        for response in responses:
            kind = response.WhichOneof("payload")
            if kind == "message":
                self._adopt(response.message.context_id, "")
                texts.append(text_of(response.message.parts))
                continue
            if kind == "task":
                task = response.task
                status = task.status
                self._adopt(task.context_id, task.id)
                artifacts.extend(text_of(artifact.parts) for artifact in task.artifacts)
            elif kind == "status_update":
                status = response.status_update.status
                self._adopt(response.status_update.context_id, response.status_update.task_id)
            elif kind == "artifact_update":
                artifacts.append(text_of(response.artifact_update.artifact.parts))
                continue
            else:
                raise RemoteAgentError(f"the agent sent a response without content: {kind}")
            state = status.state
            if status.HasField("message") and state not in UNDER_WAY:
                texts.append(text_of(status.message.parts))
        if state in failed:
            name = TaskState.Name(state)
            detail = " ".join(text for text in texts if text)
            raise RemoteAgentError(f"the agent's task ended {name}: {detail or 'no reason given'}")
        if state != TaskState.TASK_STATE_INPUT_REQUIRED:
            self._task_id = ""
        reply = "".join(text for text in texts if text) or "\n".join(a for a in artifacts if a)
        if not reply:
            raise RemoteAgentError("the agent's answer holds no text")
        return reply

    def _adopt(self, context_id: str, task_id: str) -> None:
        """Go on in the context and task the agent answered in."""
        if context_id:
            self.context_id = context_id
        self._task_id = task_id


@functools.cache
def _tls() -> Any:
    """One TLS context for every conversation: loading the CA bundle costs ~18 ms of CPU,
    as much as the rest of an episode's A2A and MCP work."""
    import httpx

    return httpx.create_ssl_context()


def text_of(parts: Any) -> str:
    """The text parts of a message or artifact, joined."""
    return "".join(part.text for part in parts if part.WhichOneof("content") == "text")


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) says nothing listens at the address."""
    import httpx

    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, httpx.ConnectError | ConnectionRefusedError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
