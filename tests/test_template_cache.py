"""Values computed once per template database and shared by its episodes."""

from __future__ import annotations

import gc
import threading

from sqlmodel import select

from tautrait_core import EpisodeDB, StateTemplate, per_template


def build_template(toy_plugin, name: str) -> StateTemplate:
    domain = toy_plugin.build_domain()
    return StateTemplate(name, domain.tables, domain.seed_data())


def test_value_is_built_once_per_template_and_shared(toy_plugin) -> None:
    calls: list[str] = []

    @per_template
    def titles_of(db: EpisodeDB) -> list[str]:
        """The book titles."""
        calls.append(db.template.name)
        return sorted(book.title for book in db.exec(select(toy_plugin.Book)))

    first, second = build_template(toy_plugin, "a"), build_template(toy_plugin, "b")
    with first.new_episode() as db:
        titles = titles_of(db)
    with first.new_episode() as db:
        assert titles_of(db) is titles
    with second.new_episode() as db:
        assert titles_of(db) == titles and titles_of(db) is not titles
    assert calls == ["a", "b"]
    assert titles_of.__doc__ == "The book titles." and titles_of.__name__ == "titles_of"


def test_concurrent_first_calls_share_one_value(toy_plugin) -> None:
    template = build_template(toy_plugin, "threads")
    barrier = threading.Barrier(4)

    @per_template
    def token_of(db: EpisodeDB) -> object:
        barrier.wait(timeout=10)
        return object()

    found: list[object] = []

    def episode() -> None:
        with template.new_episode() as db:
            found.append(token_of(db))

    threads = [threading.Thread(target=episode) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 4 and all(token is found[0] for token in found)


def test_a_dropped_template_takes_its_value_with_it(toy_plugin) -> None:
    @per_template
    def marker_of(db: EpisodeDB) -> object:
        return object()

    template = build_template(toy_plugin, "gone")
    with template.new_episode() as db:
        marker_of(db)
    assert len(marker_of._values) == 1
    del db, template
    gc.collect()
    assert len(marker_of._values) == 0
