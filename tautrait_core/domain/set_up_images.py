"""A process-wide, size-bounded store of set-up database images, per template.

:func:`~tautrait_core.domain.initial_state.apply_initial_state` keeps the image of a copy
it has set up, keyed by what the set-up depends on (the domain, the initial state and the
episode's date), so the next copy with the same set-up is loaded in one memory copy
instead of running it again (see :mod:`tautrait_core.domain.episode_image`). The least
recently used images go first once the store holds more than :data:`MAX_BYTES`.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable

from tautrait_core.domain.state import StateTemplate

MAX_BYTES = 128 * 1024 * 1024
"""The most bytes of images kept in one process (all templates together)."""

_images: OrderedDict[tuple[int, Hashable], bytes] = OrderedDict()
"""(id of the template, key) -> image, least recently used first."""
_watched: set[int] = set()
_held = [0]
_lock = threading.Lock()


def find_image(template: StateTemplate, key: Hashable) -> bytes | None:
    """The image kept for ``key`` on ``template``, or ``None``."""
    with _lock:
        image = _images.get((id(template), key))
        if image is not None:
            _images.move_to_end((id(template), key))
        return image


def keep_image(template: StateTemplate, key: Hashable, image: bytes) -> None:
    """Keep ``image`` for ``key`` on ``template`` (an image larger than the whole store is
    not kept; a template's images go when the template does)."""
    if len(image) > MAX_BYTES:
        return
    with _lock:
        if id(template) not in _watched:
            _watched.add(id(template))
            weakref.finalize(template, _forget_template, id(template))
        previous = _images.pop((id(template), key), None)
        _held[0] += len(image) - (0 if previous is None else len(previous))
        _images[(id(template), key)] = image
        while _held[0] > MAX_BYTES:
            _held[0] -= len(_images.popitem(last=False)[1])


def _forget_template(template_id: int) -> None:
    with _lock:
        _watched.discard(template_id)
        for found in [found for found in _images if found[0] == template_id]:
            _held[0] -= len(_images.pop(found))


def forget_images() -> None:
    """Drop every kept image (for benchmarks that time set-ups from scratch, and tests)."""
    with _lock:
        _images.clear()
        _held[0] = 0
