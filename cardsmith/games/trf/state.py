"""A TRF game in progress: the table (`board.Board`) with the game contract on top; the phases
(`phases`) work on the board, and this module joins them (see docs/rules/trf.md for every reading).
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Decision, Event, IllegalAction, Outcome
from cardsmith.engine.kit import EventRecorder, position_header
from cardsmith.games.trf.board import Board, plain_copy
from cardsmith.games.trf.phases import do, legal
from cardsmith.games.trf.decisions import decision as _decision


class TRFState(Board):
    """One game of TRF between two seats. The game (card tables, costs, settings) is `g`, a class
    attribute of a subclass each TRFGame makes (`TRFGame.state_class`)."""

    # --- the contract ---------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """The pending decision by name: kind, seats, prompt (docs/rules/trf.md, "Decisions")."""
        return _decision(self)

    def to_act(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        return (1 - self.active,) if self.d["phase"] == "block" else (self.active,)

    def legal_actions(self, seat: int | None = None) -> tuple:
        acting = self.to_act()
        if not acting or (seat is not None and seat not in acting):
            return ()
        if self._legal is None:
            self._legal = tuple(legal(self))
        return self._legal

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"{action!r} is not legal now (phase {self.d['phase']}, turn {self.turn})")
        rec = EventRecorder(self.log)
        self._legal = None
        do(self, tuple(action), rec)
        self._legal = None
        return rec.take()

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
        d = plain_copy(self.d)
        for s, p in enumerate(d["p"]):
            p["deck"] = len(p["deck"])
            if s != seat:
                p["hand"] = len(p["hand"])
        d["seat"] = seat
        return d

    def clone(self) -> "TRFState":
        return type(self)(plain_copy(self.d), self.chance.fork(), list(self.log))

    def position(self) -> dict[str, Any]:
        return {**position_header("trf", 2), **plain_copy(self.d)}

    def cards_played(self, seat: int) -> frozenset[str]:
        return frozenset(self.d["p"][seat]["played"])
