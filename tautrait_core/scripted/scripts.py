"""Responders for :class:`ScriptedModelServer` that play whole episodes.

:class:`GoldScript` plays both sides of a task set through real model calls: as the user
it opens with the task instruction and stops once the agent has answered; as the agent it
calls the task's gold actions one at a time, then states the required outputs. An episode
run with ``--agent tool-calling --user llm`` against it therefore passes, which exercises
the full litellm path without a paid model. Requests are told apart by whether they carry
tools (agent) or not (user); the task is recognised from the conversation, so concurrent
episodes of different tasks can share one server.

With ``tau2=True`` it plays τ²-bench's protocol (dual control) the way the ``oracle`` agent
and the ``scripted`` user do in process: the customer, whose requests may carry its own
tools, is told apart by its system prompt (it holds the task instruction); it answers the
agent's greeting with the instruction, makes the next run of its gold actions
(``requestor="user"``) each time the agent writes to it, says it is done once their
results are in, and stops when none remain. The agent makes its gold actions one tool call
at a time, asks the customer for theirs when their turn comes, then states the task's
``communicate_info``. Where tasks share an instruction, a :class:`CustomerProbe` tells them
apart: the customer first looks at their own side, then names its task in its opening.
The ``solo`` agent (no customer) is played by :mod:`tautrait_core.scripted.solo`.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from typing import Any

from tautrait_core.builtin.agents.oracle import USER_STEP_REQUEST
from tautrait_core.builtin.users.scripted import DONE_MESSAGE
from tautrait_core.grading.gold import (
    describe_call,
    gold_actions,
    required_outputs,
    user_action_runs,
)
from tautrait_core.grading.reward import gold_plan
from tautrait_core.scripted.probes import PROBE_TEXT, CustomerProbe, group_key
from tautrait_core.scripted.server import Failure, Reply, reply_text, reply_tool_call
from tautrait_core.scripted.solo import solo_task, solo_turn, tickets
from tautrait_core.trait_mix import TRAITS
from tautrait_core.types.messages import STOP_TOKEN, TAU2_GREETING, read_out
from tautrait_core.types.task import RESPOND_ACTION, Action, Task


class UnknownConversation(LookupError):
    """An agent request whose conversation opens with none of the script's tasks."""


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):  # content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


class GoldScript:
    """Plays gold-action agents and instruction-reading users for a list of tasks.

    Args:
        tasks: The task set being run.
        terminating_tools: Tools the agent must not call (as the gold replay skips them;
            ignored with ``tau2``, where a transfer is replayed like any other call).
        tau2: Play τ²-bench's protocol (see the module docstring).
        probe: With ``tau2``, tells apart tasks that share an instruction.
    """

    def __init__(
        self,
        tasks: Sequence[Task],
        terminating_tools: Sequence[str] = (),
        tau2: bool = False,
        probe: CustomerProbe | None = None,
    ) -> None:
        self.tasks = list(tasks)
        self.tau2 = tau2
        self.probe = probe
        self.terminating = set() if tau2 else set(terminating_tools)
        self._by_opening = {self.spoken_opening(task): task for task in self.tasks}
        self._by_ticket = tickets(self.tasks)

    @staticmethod
    def opening(task: Task) -> str:
        """The task's instruction on one line, as the customer's system prompt holds it."""
        return " ".join(task.instruction.split())

    def spoken_opening(self, task: Task) -> str:
        """The user's first message for ``task``: its instruction read out (the end signals
        it mentions end nothing), and its id when the probe told it apart from tasks with
        the same instruction."""
        said = read_out(self.opening(task))
        if self.probe is not None and task.id in self.probe.told_apart:
            return f"{said} (task {task.id})"
        return said

    def __call__(self, request: dict[str, Any]) -> Reply | Failure:
        """The answer to ``request``; a 400 (which clients do not retry) that says what
        the script plays when the conversation is of none of its tasks."""
        try:
            return self.respond(request)
        except UnknownConversation as exc:
            message = (
                f"the scripted server plays {len(self.tasks)} tasks and this conversation "
                f"opens with none of them ({exc}); start it with the --domain and "
                "--task-set of the run"
            )
            return Failure(
                400, body={"error": {"message": message, "type": "invalid_request_error"}}
            )

    def respond(self, request: dict[str, Any]) -> Reply:
        """The scripted answer to ``request`` (raises :class:`UnknownConversation`)."""
        messages = request.get("messages", [])
        if self.tau2 and self._is_user_prompt(_text(messages[0]) if messages else ""):
            return self.user_turn(messages)
        if request.get("tools"):
            return self.agent_turn(messages)
        return self.user_turn(messages)

    def _is_user_prompt(self, system: str) -> bool:
        return bool(self._tasks_in_prompt(system))

    def _tasks_in_prompt(self, system: str) -> list[Task]:
        """The tasks whose instruction the (customer's) system prompt holds; of instructions
        that hold one another (τ² puts a persona before some), the longest."""
        flat = " ".join(system.split())
        found = [task for task in self.tasks if self.opening(task) in flat]
        longest = max((len(self.opening(task)) for task in found), default=0)
        return [task for task in found if len(self.opening(task)) == longest]

    def _task_for_agent(self, messages: list[dict[str, Any]]) -> Task:
        if self.tau2:
            return self._tau2_opening(messages)[1]
        first_user = next((_text(m) for m in messages if m.get("role") == "user"), "")
        if first_user not in self._by_opening:
            raise UnknownConversation(f"first customer message {first_user[:60]!r}")
        return self._by_opening[first_user]

    def _tau2_opening(self, messages: list[dict[str, Any]]) -> tuple[int, Task]:
        """Where the customer's opening is in the agent's view, and its task. After a
        task's prior conversation the opening comes later; of tasks sharing an
        instruction, one with a prior conversation is taken when the view has one."""
        found = next(
            (
                (index, _text(m))
                for index, m in enumerate(messages)
                if m.get("role") == "user" and _text(m) in self._by_opening
            ),
            None,
        )
        if found is None:
            raise UnknownConversation("no customer message is a task's opening")
        index, text = found
        prior = any(_text(m) != TAU2_GREETING for m in messages[1:index])
        candidates = [task for task in self.tasks if self.spoken_opening(task) == text]
        return index, _with_history(candidates, prior)

    def agent_turn(self, messages: list[dict[str, Any]]) -> Reply:
        """The next gold action as a tool call, then the final answer."""
        solo = solo_task(self._by_ticket, _text(messages[0])) if messages else None
        if solo is not None:
            return solo_turn(solo, messages)
        if self.tau2:
            return self.tau2_agent_turn(messages)
        task = self._task_for_agent(messages)
        plan = gold_plan(task.actions, self.terminating)
        done = sum(1 for m in messages if m.get("role") == "tool")
        if done < len(plan):
            action = plan[done]
            return reply_tool_call(action.name, dict(action.kwargs))
        if task.outputs:
            return reply_text("Here you go: " + "; ".join(task.outputs))
        return reply_text("All done.")

    def user_turn(self, messages: list[dict[str, Any]]) -> Reply:
        """The instruction as the opening message, then the stop token."""
        system = _text(messages[0]) if messages else ""
        candidates = self._tasks_in_prompt(system) if self.tau2 else []
        if candidates:  # a conversation that does not open with the greeting had a prior one
            greeted = len(messages) > 1 and _text(messages[1]) == TAU2_GREETING
            task = _with_history(candidates, not greeted)
            if self.probe is None or not self.probe.calls(task):
                return self.tau2_user_turn(task, messages)
            results = _probe_results(messages)
            if results is None:
                calls = [(name, {}) for name in self.probe.calls(task)]
                return Reply(content=PROBE_TEXT, tool_calls=calls)
            group = [other for other in candidates if group_key(other) == group_key(task)]
            shown = self.probe.matching(group, results)
            return self.tau2_user_turn(shown[0] if shown else task, messages)
        replies = [m for m in messages if m.get("role") == "assistant"]
        if not replies:
            for task in self.tasks:
                if " ".join(task.instruction.split()) in " ".join(system.split()):
                    return reply_text(read_out(self.opening(task)))
            return reply_text("I need help with something.")
        return reply_text(STOP_TOKEN)

    def tau2_agent_turn(self, messages: list[dict[str, Any]]) -> Reply:
        """τ²: the next of the task's gold steps (a tool call of the agent's, or a request
        for the customer's next run of actions), then the required outputs.

        Progress is read from the agent's view after the customer's opening: one tool
        result per agent action done, one request message per customer run asked for.
        """
        opening, task = self._tau2_opening(messages)
        since = messages[opening + 1 :]  # a prior conversation's calls are not this plan's
        results = sum(1 for m in since if m.get("role") == "tool")
        asked = sum(1 for m in since if _is_user_step_request(m))
        for step in tau2_steps(task):
            if isinstance(step, Action):
                if results:
                    results -= 1
                    continue
                return reply_tool_call(step.name, dict(step.kwargs))
            if asked:
                asked -= 1
                continue
            calls = ", then ".join(map(describe_call, step))
            return reply_text(USER_STEP_REQUEST.format(calls=calls))
        outputs = required_outputs(task)
        if outputs:
            return reply_text("Here is what you asked for: " + "; ".join(outputs) + ".")
        return reply_text("Everything you asked for is done. Is there anything else?")

    def tau2_user_turn(self, task: Task, messages: list[dict[str, Any]]) -> Reply:
        """τ²: the instruction (answering the greeting), the next run of the customer's gold
        actions as tool calls each time the agent writes, ``Done.`` after their results,
        and the stop token once none remain. The customer's own turns are ``assistant``."""
        own = [m for m in messages if m.get("role") == "assistant" and _text(m) != PROBE_TEXT]
        opening = read_out(self.opening(task))
        if not any(opening in " ".join(_text(m).split()) for m in own):
            return reply_text(self.spoken_opening(task))
        if messages[-1].get("role") == "tool":
            return reply_text(DONE_MESSAGE)
        runs = user_action_runs(gold_actions(task))
        made = sum(1 for m in own if m.get("tool_calls"))
        if made < len(runs):
            return Reply(tool_calls=[(action.name, dict(action.kwargs)) for action in runs[made]])
        return reply_text(STOP_TOKEN)


def tau2_steps(task: Task) -> list[Action | list[Action]]:
    """A τ² task's gold plan as the agent plays it: its own actions one by one, and each
    run of consecutive customer actions as one step (a request to the customer)."""
    steps: list[Action | list[Action]] = []
    for action in gold_plan(gold_actions(task), ()):
        if action.requestor != "user":
            steps.append(action)
        elif steps and isinstance(steps[-1], list):
            steps[-1].append(action)
        else:
            steps.append([action])
    return steps


def _with_history(candidates: list[Task], prior: bool) -> Task:
    """Of tasks sharing an instruction, the first that starts from a prior conversation
    exactly when the episode did (else the first)."""
    for task in candidates:
        state = task.initial_state
        if bool(state is not None and state.message_history) == prior:
            return task
    return candidates[0]


def _probe_results(messages: list[dict[str, Any]]) -> dict[str, str] | None:
    """What the customer's probing calls showed (tool -> output); ``None`` before them."""
    for index, message in enumerate(messages):
        if message.get("role") == "assistant" and _text(message) == PROBE_TEXT:
            results = {}
            for result in messages[index + 1 :]:
                if result.get("role") != "tool":
                    break
                results[str(result.get("name"))] = _text(result)
            return results
    return None


def _is_user_step_request(message: dict[str, Any]) -> bool:
    """Whether an agent message asks the customer to act (see :func:`tau2_steps`)."""
    prefix = USER_STEP_REQUEST.split("{", 1)[0]
    return message.get("role") == "assistant" and _text(message).startswith(prefix)


# -- every built-in strategy -----------------------------------------------------------------


class StrategyScript(GoldScript):
    """:class:`GoldScript` extended to the other built-in agent and user strategies.

    Requests are told apart by their system prompt, so one server can serve both sides:

    * agent requests with tools: native tool calls, as :class:`GoldScript` (``tool-calling``,
      ``few-shot``);
    * agent requests without tools (``act``, ``react``): the same gold actions written as
      text, a bare JSON object, or ``Thought: ...`` then ``Action: {...}`` when the prompt
      asks for thoughts;
    * user requests (the prompt holds a task's instruction): the instruction, then the stop
      token, wrapped in ``Thought: ... Response: ...`` when the prompt asks for it (``react``);
    * review requests (``verify``, ``reflection``): the next of ``verdicts``, then
      ``Verdict: accept``; reflection requests: a line of advice;
    * diagnosis requests (``tautrait diagnose``): a fixed verdict (fault ``agent``);
    * trait-rating requests (``tautrait traits audit``): every trait rated 0.

    Args:
        tasks: The task set being run.
        terminating_tools: Tools the agent must not call.
        verdicts: Review answers to give first, in order (e.g. a rejection).
        tau2: Play τ²-bench's protocol (see :class:`GoldScript`).
        probe: With ``tau2``, tells apart tasks that share an instruction.
    """

    ACCEPT = "Verdict: accept\nReason: the message fits the situation."
    ADVICE = "Advice: say only what the situation gives."
    DIAGNOSIS = json.dumps(
        {
            "fault": "agent",
            "fault_type": "other",
            "explanation": "A fixed answer of the scripted server, which judges nothing.",
        }
    )

    TRAIT_RATINGS = json.dumps(
        {
            trait: {"rating": 0, "reason": "A fixed answer of the scripted server."}
            for trait in TRAITS
        }
    )

    def __init__(
        self,
        tasks: Sequence[Task],
        terminating_tools: Sequence[str] = (),
        verdicts: Sequence[str] = (),
        tau2: bool = False,
        probe: CustomerProbe | None = None,
    ) -> None:
        super().__init__(tasks, terminating_tools, tau2, probe)
        self.verdicts = deque(verdicts)

    def respond(self, request: dict[str, Any]) -> Reply:
        from tautrait_core.analysis.diagnose import SYSTEM_PROMPT as DIAGNOSIS_PROMPT
        from tautrait_core.analysis.trait_rating import SYSTEM_PROMPT as TRAIT_RATING_PROMPT
        from tautrait_core.builtin.users import strategies as user_strategies

        messages = request.get("messages", [])
        system = _text(messages[0]) if messages else ""
        if system == user_strategies.VERIFIER_PROMPT:
            return reply_text(self.verdicts.popleft() if self.verdicts else self.ACCEPT)
        if system == user_strategies.REFLECTION_PROMPT:
            return reply_text(self.ADVICE)
        if system == DIAGNOSIS_PROMPT:
            return reply_text(self.DIAGNOSIS)
        if system == TRAIT_RATING_PROMPT:
            return reply_text(self.TRAIT_RATINGS)
        if request.get("tools") and not (self.tau2 and self._is_user_prompt(system)):
            return self.agent_turn(messages)
        if self._is_user_prompt(system):
            reply = self.user_turn(messages)
            if user_strategies.RESPONSE_MARKER not in system or reply.tool_calls:
                return reply
            return reply_text(f"Thought: I will say what I need.\nResponse: {reply.content}")
        return self.text_agent_turn(messages, react="Thought:" in system)

    def text_agent_turn(self, messages: list[dict[str, Any]], react: bool) -> Reply:
        """The next gold action written as text (after as many as already carried out)."""
        from tautrait_core.builtin.agents.text_action import ActionParseError, parse_action

        task = self._task_for_agent(messages)
        plan = gold_plan(task.actions, self.terminating)
        done = 0
        for message in messages:
            if message.get("role") != "assistant":
                continue
            try:
                done += parse_action(_text(message)).name != RESPOND_ACTION
            except ActionParseError:
                continue
        if done < len(plan):
            action = {"name": plan[done].name, "arguments": dict(plan[done].kwargs)}
        else:
            final = "Here you go: " + "; ".join(task.outputs) if task.outputs else "All done."
            action = {"name": RESPOND_ACTION, "arguments": {"content": final}}
        text = json.dumps(action)
        return reply_text(f"Thought: next step.\nAction: {text}" if react else text)
