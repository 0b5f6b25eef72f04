"""Bounded in-process memos of a layout's pure steps.

Turning a card into its layer tree reads each layer's YAML and checks each layer against the layout
schema. Most layers come out the same for card after card (frames, panels, badges), so both steps
are memoised by their input text (`template.load_tree`, `template.check_tree`): on the 360-card
benchmark set, 0.6 s of layer trees instead of 4 s.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any


class Memo:
    """A memo emptied when it holds `limit` entries (a long-lived process drawing set after set)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.values: dict[Hashable, Any] = {}

    def get(self, key: Hashable, default: Any = None) -> Any:
        return self.values.get(key, default)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.values

    def put(self, key: Hashable, value: Any) -> None:
        if len(self.values) >= self.limit:
            self.values.clear()
        self.values[key] = value

    def clear(self) -> None:
        self.values.clear()
