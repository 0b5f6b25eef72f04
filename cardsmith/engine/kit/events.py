"""Recording what an action caused: events for `apply` to return and readable lines for the log."""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Event


class EventRecorder:
    """Collects the events of one `apply` call; `text` lines also go to the game's log."""

    __slots__ = ("log", "events")

    def __init__(self, log: list[str]):
        self.log = log
        self.events: list[Event] = []

    def __call__(self, kind: str, text: str = "", seen_by: tuple[int, ...] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, text, data, seen_by))
        if text and seen_by is None:
            self.log.append(text)

    def take(self) -> tuple[Event, ...]:
        """The events so far, and a fresh start for the next action."""
        out, self.events = tuple(self.events), []
        return out
