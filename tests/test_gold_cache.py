"""The cache of gold replays: bounded, keyed by what a replay depends on, never by id()."""

from __future__ import annotations

import dataclasses

from tautrait_core import Action, StateTemplate, Task, compute_reward
from tautrait_core.grading import criteria_reward, reward
from tautrait_core.grading.gold_cache import GoldCache, replay_key

TASK = Task(
    user_id="ann_1",
    instruction="Borrow B1.",
    actions=[Action(name="borrow_book", kwargs={"member_id": "ann_1", "book_id": "B1"})],
)


def test_the_cache_keeps_the_most_recently_used_entries() -> None:
    cache: GoldCache[int] = GoldCache(size=2)
    computed: list[str] = []

    def value(key: str) -> int:
        return cache.get(key, lambda: computed.append(key) or len(computed))

    assert [value("a"), value("b"), value("a"), value("c")] == [1, 2, 1, 3]
    assert len(cache) == 2
    assert value("a") == 1 and value("b") == 4  # b was the least recently used
    assert computed == ["a", "b", "c", "b"]


def test_a_copy_of_the_domain_with_the_same_tools_shares_the_replay(toy_plugin) -> None:
    domain = toy_plugin.build_domain()
    template = StateTemplate("toylib:gold", domain.tables, domain.seed_data())
    copy = dataclasses.replace(domain)  # what solo mode makes for every episode
    assert replay_key(domain, template, TASK, None) == replay_key(copy, template, TASK, None)
    fewer = dataclasses.replace(domain, tools=domain.tools[:1])
    assert replay_key(fewer, template, TASK, None) != replay_key(domain, template, TASK, None)


def test_a_new_template_never_takes_an_old_one_s_key(toy_plugin) -> None:
    domain = toy_plugin.build_domain()
    keys = set()
    for _ in range(20):  # freed templates: their id() is reused, their key must not be
        template = StateTemplate("toylib:same-name", domain.tables, domain.seed_data())
        keys.add(replay_key(domain, template, TASK, None))
        del template
    assert len(keys) == 20


def test_grading_many_episodes_of_one_task_replays_the_gold_once(toy_plugin) -> None:
    domain = toy_plugin.build_domain()
    template = StateTemplate("toylib:episodes", domain.tables, domain.seed_data())
    episode_domains = [dataclasses.replace(domain) for _ in range(50)]  # one per solo episode
    before = len(reward._gold_states), len(criteria_reward._gold_hashes)
    for episode_domain in episode_domains:
        with template.new_episode() as db:
            info = compute_reward(episode_domain, TASK, db, [])
        assert info.r_actions is False  # the agent did nothing; the gold borrowed B1
        criteria_reward.gold_side_hashes(episode_domain, TASK, template, None, TASK.actions)
    after = len(reward._gold_states), len(criteria_reward._gold_hashes)
    assert after == (before[0] + 1, before[1] + 1)
