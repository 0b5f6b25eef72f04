"""Recording what an action caused: events for `apply` to return and readable lines for the log."""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Event

# Simulations record hundreds of events a game: build them without the frozen dataclass's
# checked __init__ (same object, same fields; about half the cost).
_new = object.__new__
_kind, _text, _data, _seen = (getattr(Event, name).__set__ for name in ("kind", "text", "data", "seen_by"))


class EventRecorder:
    """Collects the events of one `apply` call; `text` lines also go to the game's log."""

    __slots__ = ("log", "events")

    def __init__(self, log: list[str]):
        self.log = log
        self.events: list[Event] = []

    def __call__(self, kind: str, text: str = "", seen_by: tuple[int, ...] | None = None, **data: Any) -> None:
        e = _new(Event)
        _kind(e, kind)
        _text(e, text)
        _data(e, data)
        _seen(e, seen_by)
        self.events.append(e)
        if text and seen_by is None:
            self.log.append(text)

    def take(self) -> tuple[Event, ...]:
        """The events so far, and a fresh start for the next action."""
        out, self.events = tuple(self.events), []
        return out
