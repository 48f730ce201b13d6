"""A customer-service agent built with the OpenAI Agents SDK, served over A2A.

It is what a team's own agent looks like to tautrait: the Agents SDK runs its model loop,
its tools come from an MCP server, and it answers A2A messages. Nothing in it imports
tautrait. It reads the MCP endpoint (and the domain policy, used as its instructions) from
the metadata of the first message of each conversation, as tautrait sends them.

    python agent_service.py --port 9999 --model gpt-4o-mini
    python agent_service.py --port 9999 --model scripted --base-url http://127.0.0.1:8000/v1

Needs ``pip install a2a-sdk openai-agents uvicorn``.
"""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn
from a2a.helpers.proto_helpers import new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes.agent_card_routes import create_agent_card_routes
from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes
from a2a.server.tasks.inmemory_task_store import InMemoryTaskStore
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStreamableHttp
from google.protobuf.json_format import MessageToDict
from openai import AsyncOpenAI
from starlette.applications import Starlette


class Conversation:
    """What the service remembers of one A2A context: its tools, instructions and items."""

    def __init__(self, mcp_url: str, instructions: str) -> None:
        self.mcp_url = mcp_url
        self.instructions = instructions
        self.items: list[Any] = []


class CustomerServiceExecutor(AgentExecutor):
    """Answers each customer message with one run of an Agents SDK agent."""

    def __init__(self, model: OpenAIChatCompletionsModel) -> None:
        self.model = model
        self.conversations: dict[str, Conversation] = {}

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        conversation = self._conversation(context)
        user_text = context.get_user_input()
        tools = MCPServerStreamableHttp(
            params={"url": conversation.mcp_url}, cache_tools_list=True, name="tools"
        )
        await tools.connect()
        try:
            agent = Agent(
                name="support",
                instructions=conversation.instructions,
                model=self.model,
                mcp_servers=[tools],
            )
            items = [*conversation.items, {"role": "user", "content": user_text}]
            result = await Runner.run(agent, items, max_turns=60)
        finally:
            await tools.cleanup()
        conversation.items = result.to_input_list()
        reply = str(result.final_output)
        await event_queue.enqueue_event(new_text_message(reply, context_id=context.context_id))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        self.conversations.pop(context.context_id or "", None)

    def _conversation(self, context: RequestContext) -> Conversation:
        key = context.context_id or ""
        if key not in self.conversations:
            metadata = MessageToDict(context.message.metadata) if context.message else {}
            given = metadata.get("tautrait", {})
            self.conversations[key] = Conversation(
                given["mcp_url"], given.get("policy") or "You are a helpful support agent."
            )
        return self.conversations[key]


def agent_card(url: str, streaming: bool) -> AgentCard:
    """What the service says about itself at /.well-known/agent-card.json."""
    return AgentCard(
        name="Agents SDK support agent",
        description="Customer service with an OpenAI Agents SDK loop and MCP tools.",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        capabilities=AgentCapabilities(streaming=streaming),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[
            AgentSkill(id="support", name="Support", description="Helps customers.", tags=["cs"])
        ],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9999)
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--base-url", default=None, help="an OpenAI-compatible server")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--no-streaming", action="store_true", help="answer message/send only")
    args = parser.parse_args()

    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=args.base_url, api_key=args.api_key or "unused")
    model = OpenAIChatCompletionsModel(model=args.model, openai_client=client)
    card = agent_card(f"http://{args.host}:{args.port}/", not args.no_streaming)
    handler = DefaultRequestHandler(
        agent_executor=CustomerServiceExecutor(model),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    routes = [*create_agent_card_routes(card), *create_jsonrpc_routes(handler, rpc_url="/")]
    uvicorn.run(Starlette(routes=routes), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
