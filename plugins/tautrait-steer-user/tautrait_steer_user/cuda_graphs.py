"""Running a decoding step as a CUDA graph: launched as one unit instead of hundreds of
kernels, which is most of the time a small model's step takes from Python.

One graph per (batch, length) bucket, captured the first time it is needed. The step reads
and writes only tensors that live across calls (the cache and the slot state), so
replaying the graph is the same as calling the step. Off a GPU the step is simply called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class StepGraphs:
    """Calls ``step(batch, length)``, through CUDA graphs when ``enabled``.

    Args:
        step: The decoding step; must not synchronise with the host.
        stepped: The tensors a step changes that must be put back after the warm-up run
            that precedes a capture (the warm-up must not count as a step); what else it
            writes (the cache at the rows' current positions, the token written at their
            current counts) the real step writes again.
        enabled: Capture and replay graphs.
        device: The CUDA device the step runs on (when ``enabled``).
    """

    def __init__(
        self,
        step: Callable[[int, int], None],
        stepped: Sequence[Any],
        enabled: bool,
        device: Any = None,
    ) -> None:
        self.step = step
        self.stepped = list(stepped)
        self.enabled = enabled
        self.device = device
        self.graphs: dict[tuple[int, int], Any] = {}
        self._pool: Any = None

    def __call__(self, batch: int, length: int) -> None:
        if not self.enabled:
            self.step(batch, length)
            return
        graph = self.graphs.get((batch, length))
        if graph is None:
            graph = self.graphs[(batch, length)] = self._capture(batch, length)
        graph.replay()

    def warm_up(self, batch: int, length: int) -> None:
        """Run the step once and put the ``stepped`` tensors back, so that it does not
        count. Done before each capture (on a side stream), so that whatever the step
        initialises lazily is initialised outside the graph."""
        import torch

        saved = [tensor.clone() for tensor in self.stepped]
        if self.enabled:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                self.step(batch, length)
            torch.cuda.current_stream().wait_stream(side)
        else:
            self.step(batch, length)
        for tensor, before in zip(self.stepped, saved, strict=True):
            tensor.copy_(before)

    def _capture(self, batch: int, length: int) -> Any:
        """Warm up and capture the step on its device (a replay runs on the device it was
        captured on)."""
        import torch

        with torch.cuda.device(self.device):
            self.warm_up(batch, length)
            if self._pool is None:
                self._pool = torch.cuda.graph_pool_handle()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, pool=self._pool, capture_error_mode="thread_local"):
                self.step(batch, length)
        return graph
