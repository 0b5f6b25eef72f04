"""A #rm2k_anime game in progress: the table (`board.Board`) with the game contract on top. The turn
(`flow`), views (`observation`) and positions (`positions`) work on the board; this module joins them.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Decision, Event, IllegalAction
from cardsmith.engine.kit import EventRecorder, WinnerState, plain_copy
from cardsmith.games.rm2k_anime.board import Board
from cardsmith.games.rm2k_anime.flow import handle, legal, settle
from cardsmith.games.rm2k_anime.observation import Observation
from cardsmith.games.rm2k_anime.positions import to_position
from cardsmith.games.rm2k_anime.decisions import decision as _decision


class RmState(Board, WinnerState):
    """A #rm2k_anime game (made by `Rm2kAnime.new_game` or `from_position`; see the contract)."""

    # ------------------------------------------------------------------ the contract
    def decision(self) -> Decision | None:
        """The pending decision by name: kind, seats, prompt (docs/rules/rm2k-anime.md, "Decisions")."""
        return _decision(self)

    def to_act(self) -> tuple[int, ...]:
        return () if self.end_reason else (self.actor,)

    def legal_actions(self, seat: int | None = None) -> tuple:
        if self.end_reason or (seat is not None and seat != self.actor):
            return ()
        if self._legal is None:
            self._legal = legal(self)
        return self._legal

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        if self.end_reason:
            raise IllegalAction(f"the game is over ({self.end_reason}); no action is legal")
        acts = self.legal_actions()
        if action not in acts or (seat is not None and seat != self.actor):
            raise IllegalAction(f"{action!r} is not legal for seat {self.actor if seat is None else seat} now "
                                f"({self.dec} for seat {self.actor}); legal: {list(acts[:8])}")
        self._legal = None
        handle(self, action)
        settle(self)
        return self.rec.take()

    def observation(self, seat: int) -> Any:
        return Observation(self, seat)

    def cards_played(self, seat: int) -> frozenset[str]:
        return frozenset(self.played[seat])

    def position(self) -> dict[str, Any]:
        return to_position(self)

    def clone(self) -> "RmState":
        s = RmState.__new__(RmState)
        s.__dict__.update(self.__dict__)
        s.chance = self.chance.fork()
        s.log = self.log[:]
        s.rec = EventRecorder(s.log)
        s.p = [x.copy() for x in self.p]
        s.ch = plain_copy(self.ch)
        s.pending = plain_copy(self.pending)
        s.played = [set(x) for x in self.played]
        return s

    def __repr__(self) -> str:
        return f"<RmState turn {self.turn} {self.stage}/{self.dec} seat {self.actor}{' over' if self.end_reason else ''}>"
