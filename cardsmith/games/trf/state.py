"""A TRF game in progress: the table (`board.Board`) with the game contract on top; the phases
(`phases`) work on the board, and this module joins them (see docs/rules/trf.md for every reading).
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Decision, Event, IllegalAction, Outcome
from cardsmith.engine.kit import EventRecorder, position_header
from cardsmith.games.trf.board import Board, copy_table, plain_copy
from cardsmith.games.trf.phases import FOLLOW_UPS, HANDLERS, LISTINGS
from cardsmith.games.trf.decisions import decision as _decision


class _Quiet:
    """The recorder of a muted state: events and log lines go nowhere."""

    __slots__ = ()

    def __call__(self, kind: str, text: str = "", seen_by: tuple[int, ...] | None = None, **data: Any) -> None:
        return None

    def take(self) -> tuple[Event, ...]:
        return ()

    def __bool__(self) -> bool:  # `if rec:` skips building the text of an event nobody records
        return False


_QUIET: Any = _Quiet()
_SEAT = ((0,), (1,))  # `to_act()`'s answers (asked before every action: no new tuple each time)


class TRFState(Board):
    """One game of TRF between two seats. The game (card tables, costs, settings) is `g`, a class
    attribute of a subclass each TRFGame makes (`TRFGame.state_class`)."""

    _quiet = False  # set by `mute()`

    # --- the contract ---------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """The pending decision by name: kind, seats, prompt (docs/rules/trf.md, "Decisions")."""
        return _decision(self)

    def to_act(self) -> tuple[int, ...]:
        d = self.d
        if d["end"] is not None:
            return ()
        return _SEAT[1 - d["active"]] if d["phase"] == "block" else _SEAT[d["active"]]

    def legal_actions(self, seat: int | None = None) -> tuple:
        d = self.d
        if d["end"] is not None:
            return ()
        if seat is not None and seat != (1 - d["active"] if d["phase"] == "block" else d["active"]):
            return ()
        if self._legal is None:
            self._legal = tuple(LISTINGS[d["phase"]](self))
        return self._legal

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        # `legal_actions(seat)` inlined (every action of a simulated game comes through here).
        d = self.d
        if d["end"] is not None or (seat is not None and seat != (1 - d["active"] if d["phase"] == "block" else d["active"])):
            listed: tuple = ()
        elif self._legal is not None:
            listed = self._legal
        else:
            listed = self._legal = tuple(LISTINGS[d["phase"]](self))
        if action not in listed:
            raise IllegalAction(f"{action!r} is not legal now (phase {self.d['phase']}, turn {self.turn})")
        self._legal = None
        if type(action) is not tuple:
            action = tuple(action)
        kind = action[0]
        follow = FOLLOW_UPS.get(kind)
        if self._quiet:  # (a simulated game: nothing to record or hand back)
            HANDLERS[kind](self, action, _QUIET)
            self._legal = None if follow is None else follow(listed, action)
            return ()
        rec = EventRecorder(self.log)
        HANDLERS[kind](self, action, rec)
        self._legal = None if follow is None else follow(listed, action)
        return rec.take()

    def mute(self) -> None:
        """From now on record no events and no log lines (`apply` returns ()); clones stay muted.
        The runner mutes a game whose log nobody reads (replaying its actions gives the log back)."""
        self._quiet = True

    def outcome(self) -> Outcome | None:
        end = self.d["end"]
        if end is None:
            return None
        if self.d["winner"] is None:
            return Outcome.draw(2, end, capped=end == "turn cap")
        return Outcome.win(self.d["winner"], 2, end)

    def returns(self) -> tuple[float, ...]:
        out = self.outcome()
        return out.returns() if out else (0.5, 0.5)

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything public, this seat's own hand, and the sizes of hidden piles."""
        d = copy_table(self.d)
        for s, p in enumerate(d["p"]):
            p["deck"] = len(p["deck"])
            if s != seat:
                p["hand"] = len(p["hand"])
        d["seat"] = seat
        return d

    def clone(self) -> "TRFState":
        twin = type(self)(copy_table(self.d), self.chance.fork(), list(self.log))
        twin._quiet = self._quiet
        return twin

    def position(self) -> dict[str, Any]:
        return {**position_header("trf", 2), **plain_copy(self.d)}

    def cards_played(self, seat: int) -> frozenset[str]:
        return frozenset(self.d["p"][seat]["played"])
