"""Reading a judge model's answer: the JSON objects written anywhere in its text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """Each JSON object that starts at a ``{`` in ``text``, in order; code fences, prose and
    malformed candidates around them are skipped."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            yield value
