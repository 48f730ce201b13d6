"""Environment cost per episode, without any model: fresh state + gold actions + reward.

For each domain on the upstream tau-trait test split (read from the reference material or an
imported checkout), every task is run as an episode whose agent is the gold replay itself:
a fresh private copy of the database, the gold actions through the tools, then the reward
(gold replay on another fresh copy, canonical hashes, output check). The gold-replay cache
is cleared before every episode, so each reward pays for its own replay (upstream's way).
A second figure keeps the cache, as a run does for every trial of a task after its first
(the gold state of a task and date is computed once per process).

Times are CPU time of this process (``time.process_time``), so that what else a shared
machine runs does not change them; the work is single-threaded and reads files that the
first episode brought into the page cache.

Baseline, measured in the same run: the upstream way of handling the data, i.e. reading the
domain's JSON files from disk twice per episode and hashing the whole database twice with
``sha256(str(to_hashable(data)))``. It leaves out upstream's tool work, so it is a lower
bound of upstream's cost per episode.

Upstream, measured in the same run with ``--upstream PATH`` (a tau-trait checkout):
upstream's own environment class of the domain (``tau_trait/envs/<domain>/env.py``, its
``load_data`` and tools) runs the same tasks the way its episodes do: ``reset`` (fresh data),
the gold actions through ``step``, then ``calculate_reward`` (fresh data again, the gold
replay, both data hashes). Its user simulator is replaced by a stub that answers nothing,
so no model is called. Both sides are timed over ``--repeat`` passes over the tasks, each
of upstream's passes right after one of tautrait's, so that a change of load on a shared
machine reaches both; the ratio per domain is upstream's median over tautrait's.

Memory: ``--inflight`` episodes are held open at once (after their gold actions) and the
process's peak resident memory is reported.

τ² domains (``tau2-telecom`` and, with ``--tau2 PATH`` or after ``tautrait import tau2``,
``tau2-mock``, ``tau2-retail``, ``tau2-airline`` and the imported ``tau2:*`` task sets):
graded episodes of the gold calls against τ²'s data handling and, when ``--tau2 PATH`` is a
τ²-bench source checkout, against τ²'s own telecom environment; see ``tau2_env_cost.py``.

    python bench/env_cost.py --peers ../shared/peers/tau-trait --upstream ~/src/tau-trait
    python bench/env_cost.py --domains tau2-telecom --tau2 ../shared/peers/tau2-bench/data
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tautrait_core.compat.hashing import upstream_hash
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.task_sets import TAU2_SOURCE
from tautrait_core.grading import reward as reward_module
from tautrait_core.grading.reward import compute_reward, replay_actions
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.types.task import Task

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tau2_env_cost import bench_tau2_domain, import_tau2_for_this_run

BASELINE_MS = 1000.0
"""CPU time spent at least on the baseline of a domain (see ``measure_for``)."""
DEFAULT_PEERS = Path(__file__).resolve().parents[2] / "shared" / "peers" / "tau-trait"


def rss_mib(field: str = "VmRSS") -> float:
    """Resident memory of this process from /proc (VmRSS now, VmHWM peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_episode(domain: Any, template: StateTemplate, task: Task, clear_gold: bool = True) -> None:
    if clear_gold:
        reward_module._gold_states.clear()
    with template.new_episode() as db:
        replay_actions(domain, db, task.actions)
        compute_reward(domain, task, db, [])


def baseline_episode(domain: Any, data_folder: Path) -> None:
    for _ in range(2):  # upstream reloads the data for the episode and for the gold replay
        data = domain.upstream.read_data(data_folder)
        upstream_hash(data)


class UpstreamError(Exception):
    """The --upstream folder cannot be used (the message says why, in one line)."""


class SilentUser:
    """Stands in for upstream's user simulator: no model, no words."""

    def reset(self, instruction: str | None = None) -> str:
        return ""

    def step(self, content: str) -> str:
        return ""

    def get_total_cost(self) -> float:
        return 0.0


class UpstreamCheckout:
    """Upstream tau-trait's own environments, imported from a checkout at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path.expanduser().resolve()
        if not (self.path / "tau_trait" / "envs" / "base.py").is_file():
            raise UpstreamError(f"{path} is not a tau-trait checkout (no tau_trait/envs/base.py)")
        sys.path.insert(0, str(self.path))
        # upstream's user simulator imports litellm: its cost map comes from disk, not the web
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        try:
            self.base = importlib.import_module("tau_trait.envs.base")
            self.types = importlib.import_module("tau_trait.types")
        except Exception as exc:  # a checkout that does not import is reported, not raised
            raise UpstreamError(f"cannot import tau_trait from {path}: {exc!r}") from exc
        if not Path(self.base.__file__).resolve().is_relative_to(self.path):
            raise UpstreamError(f"tau_trait was imported from {self.base.__file__}, not {path}")

    def require(self, domain: str) -> None:
        """Refuse a domain whose environment the checkout lacks."""
        folder = self.path / "tau_trait" / "envs" / domain
        for part in ("env.py", "tools/__init__.py", "data/__init__.py"):
            if not (folder / part).is_file():
                raise UpstreamError(
                    f"domain {domain} is missing from the tau-trait checkout at {self.path} "
                    f"(no tau_trait/envs/{domain}/{part})"
                )

    def episodes(
        self, domain: str, tasks: list[dict[str, Any]], terminating: list[str]
    ) -> UpstreamEpisodes:
        """Upstream's environment of ``domain``, set up to run ``tasks``."""
        self.require(domain)
        try:
            return UpstreamEpisodes(self, domain, tasks, terminating)
        except Exception as exc:
            raise UpstreamError(f"cannot set up upstream's {domain} environment: {exc!r}") from exc


class UpstreamEpisodes:
    """One upstream environment object of a domain, reset for every episode as upstream
    does. It is built as ``Env.__init__`` builds it, except for the user simulator (a
    :class:`SilentUser`) and the tasks (the given ones, so both sides run the same)."""

    def __init__(
        self,
        checkout: UpstreamCheckout,
        domain: str,
        tasks: list[dict[str, Any]],
        terminating: list[str],
    ) -> None:
        package = f"tau_trait.envs.{domain}"
        env_module = importlib.import_module(f"{package}.env")
        env_base = checkout.base.Env
        env_class = next(
            value
            for value in vars(env_module).values()
            if isinstance(value, type) and issubclass(value, env_base) and value is not env_base
        )
        load_data = importlib.import_module(f"{package}.data").load_data
        tools = importlib.import_module(f"{package}.tools").ALL_TOOLS
        env = env_class.__new__(env_class)
        env.data_load_func = load_data
        env.data = load_data()
        env.tools_map = {tool.get_info()["function"]["name"]: tool for tool in tools}
        env.tools_info = [tool.get_info() for tool in tools]
        env.terminate_tools = list(terminating)
        env.tasks = [checkout.types.Task(**task) for task in tasks]
        env.task_index, env.task = 0, env.tasks[0]
        env.wiki, env.rules = "", []
        env.user, env.trait_dict, env.actions = SilentUser(), None, []
        self.env = env
        self.respond = checkout.types.RESPOND_ACTION_NAME

    def run_episode(self, index: int) -> None:
        """Task ``index`` as an upstream episode: reset, gold actions, reward."""
        env = self.env
        env.reset(task_index=index)
        for action in env.task.actions:
            if action.name != self.respond and action.name not in env.terminate_tools:
                env.step(action)
        env.calculate_reward()


def measure_for(
    min_samples: int, min_ms: float, action: Any, max_samples: int = 200
) -> list[float]:
    """Time ``action`` at least ``min_samples`` times and until ``min_ms`` CPU ms are spent
    (at most ``max_samples`` times), so that a cheap action's median rests on many samples."""
    timings: list[float] = []
    while len(timings) < max_samples and (len(timings) < min_samples or sum(timings) < min_ms):
        timings.extend(measure(1, action))
    return timings


def measure(samples: int, action: Any) -> list[float]:
    timings = []
    for _ in range(samples):
        started = time.process_time()
        action()
        timings.append((time.process_time() - started) * 1000)
    return timings


def bench_domain(
    name: str,
    peers: Path,
    repeat: int,
    inflight: int,
    baseline_samples: int,
    upstream: UpstreamCheckout | None = None,
) -> dict[str, Any]:
    domain = get_plugin_manager().get("domain", name)
    data_folder = peers / "data" / name
    task_dicts = json.loads((peers / "tasks" / f"{name}_test.json").read_text())
    tasks = [Task.model_validate(t) for t in task_dicts]
    theirs = (
        None if upstream is None else upstream.episodes(name, task_dicts, domain.terminating_tools)
    )
    started = time.perf_counter()
    template = StateTemplate(
        f"{name}:upstream",
        domain.tables,
        domain.upstream.to_rows(domain.upstream.read_data(data_folder)),
    )
    build_ms = (time.perf_counter() - started) * 1000
    for task in tasks[:5]:  # warm up
        run_episode(domain, template, task)
    if theirs is not None:
        theirs.run_episode(0)  # warm up
    per_episode, upstream_times = [], []
    for _ in range(repeat):  # upstream's passes alternate with ours: a change of load hits both
        for task in tasks:
            per_episode.extend(measure(1, lambda task=task: run_episode(domain, template, task)))
        for index in range(len(tasks) if theirs is not None else 0):
            upstream_times.extend(measure(1, lambda index=index: theirs.run_episode(index)))
    cached = []
    for _ in range(repeat):
        for task in tasks:
            run_episode(domain, template, task)  # fills the cache for this task
            cached.extend(measure(1, lambda task=task: run_episode(domain, template, task, False)))
    baseline = measure_for(
        baseline_samples, BASELINE_MS, lambda: baseline_episode(domain, data_folder)
    )
    gc.collect()
    before = rss_mib()
    held = []
    for index in range(inflight):
        db = template.new_episode()
        replay_actions(domain, db, tasks[index % len(tasks)].actions)
        db.flush()
        held.append(db)
    after = rss_mib()
    for db in held:
        db.close()
    ours = statistics.median(per_episode)
    baseline_median = statistics.median(baseline)
    result = {
        "domain": name,
        "tasks": len(tasks),
        "episodes_timed": len(per_episode),
        "template_build_ms": round(build_ms, 1),
        "image_kib": template.size_bytes() // 1024,
        "median_ms": round(ours, 3),
        "p90_ms": round(statistics.quantiles(per_episode, n=10)[-1], 3),
        "gold_cached_median_ms": round(statistics.median(cached), 3),
        "baseline_median_ms": round(baseline_median, 1),
        "speedup_vs_baseline": round(baseline_median / ours, 1),
        "gold_cached_speedup_vs_baseline": round(baseline_median / statistics.median(cached), 1),
        "inflight": inflight,
        "inflight_rss_mib": round(after - before, 1),
        "peak_rss_mib": round(rss_mib("VmHWM"), 1),
    }
    if upstream_times:
        upstream_median = statistics.median(upstream_times)
        result["upstream_episodes_timed"] = len(upstream_times)
        result["upstream_median_ms"] = round(upstream_median, 3)
        result["speedup_vs_upstream"] = round(upstream_median / ours, 1)
        result["gold_cached_speedup_vs_upstream"] = round(
            upstream_median / statistics.median(cached), 1
        )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peers", type=Path, default=DEFAULT_PEERS, help="tau-trait reference folder"
    )
    parser.add_argument(
        "--domains",
        default="retail,airline,telecom,telehealth,tau2-telecom,tau2-mock,tau2-retail,tau2-airline",
    )
    parser.add_argument("--repeat", type=int, default=3, help="passes over the test split")
    parser.add_argument("--inflight", type=int, default=256, help="episodes held open at once")
    parser.add_argument(
        "--baseline-samples",
        type=int,
        default=5,
        help=f"at least this many baseline episodes, and more until {BASELINE_MS:.0f} ms are spent",
    )
    parser.add_argument(
        "--upstream",
        type=Path,
        metavar="PATH",
        help="a tau-trait checkout: also time its own environment on the same tasks",
    )
    parser.add_argument(
        "--tau2",
        type=Path,
        metavar="PATH",
        help="a τ²-bench checkout: imported for this run only (tau2:* task sets); "
        "the τ² baseline reads its files; a source checkout's own telecom environment is timed",
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    if args.tau2 is not None:
        import_tau2_for_this_run(args.tau2)
    installed = set(get_plugin_manager().names("domain"))
    domains, tau2_domains = [], []
    for name in args.domains.split(","):
        if name.startswith(f"{TAU2_SOURCE}-"):
            if name in installed:
                tau2_domains.append(name)
            else:
                print(f"{name}: skipped (domain plugin not installed)")
        elif name not in installed or not (args.peers / "data" / name).is_dir():
            print(f"{name}: skipped (domain plugin not installed or no reference data)")
        else:
            domains.append(name)
    try:
        upstream = None if args.upstream is None else UpstreamCheckout(args.upstream)
        for name in domains if upstream is not None else []:
            upstream.require(name)
        for name in domains:
            report(
                bench_domain(
                    name,
                    args.peers,
                    args.repeat,
                    args.inflight,
                    args.baseline_samples,
                    upstream,
                ),
                args.json,
            )
    except UpstreamError as exc:
        sys.exit(f"env_cost.py: error: {exc}")
    for name in tau2_domains:
        bench_tau2_domain(name, args, measure, measure_for)


def report(result: dict[str, Any], as_json: bool) -> None:
    """Print one domain's figures: a JSON line, or a line for people."""
    if as_json:
        print(json.dumps(result), flush=True)
        return
    name = result["domain"]
    upstream = ""
    if "upstream_median_ms" in result:
        upstream = (
            f" | upstream tau-trait {result['upstream_median_ms']:.3f} ms "
            f"({result['upstream_episodes_timed']} episodes) -> {result['speedup_vs_upstream']}x, "
            f"gold cached {result['gold_cached_speedup_vs_upstream']}x"
        )
    print(
        f"{name:<11} median {result['median_ms']:.3f} ms/episode "
        f"(p90 {result['p90_ms']:.3f}, {result['episodes_timed']} episodes; "
        f"gold cached {result['gold_cached_median_ms']:.3f}) | "
        f"baseline {result['baseline_median_ms']:.1f} ms "
        f"-> {result['speedup_vs_baseline']}x (gold cached "
        f"{result['gold_cached_speedup_vs_baseline']}x) | image {result['image_kib']} KiB, "
        f"build {result['template_build_ms']:.0f} ms | {result['inflight']} in flight: "
        f"+{result['inflight_rss_mib']} MiB (peak RSS {result['peak_rss_mib']} MiB)" + upstream,
        flush=True,
    )


if __name__ == "__main__":
    main()
