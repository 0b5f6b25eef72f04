"""A Solar Empires game in progress: the game-state contract on the table (`board.Board`), which
holds the zones and the moves between them.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.contract import Decision, Event, IllegalAction
from cardsmith.engine.kit import EventRecorder, WinnerState
from cardsmith.games.solar_empires.board import Board
from cardsmith.games.solar_empires.flow import _HANDLE, compute_legal, settle
from cardsmith.games.solar_empires.observation import Observation
from cardsmith.games.solar_empires.positions import to_position
from cardsmith.games.solar_empires.decisions import decision as _decision

_ACTING = ((0,), (1,))  # `to_act()` by seat, made once (the runner asks before every action)


class SolarState(Board, WinnerState):
    """A Solar Empires game (made by `SolarEmpires.new_game` or `from_position`; see the contract).
    `is_terminal`, `outcome` and `returns` come from the kit's `WinnerState`."""

    __slots__ = ()  # the board's slots only: no __dict__

    # ------------------------------------------------------------------ the contract
    def decision(self) -> Decision | None:
        """The pending decision by name: kind, seats, prompt (docs/rules/solar-empires.md, "Decisions")."""
        return _decision(self)

    def to_act(self) -> tuple[int, ...]:
        return () if self.end_reason else _ACTING[self.current_player]

    def legal_actions(self, seat: int | None = None) -> tuple:
        legal = self._legal
        if legal is None:
            legal = self._legal = () if self.end_reason else compute_legal(self)
        if seat is not None and seat != self.current_player:
            return ()
        return legal

    def apply(self, action: Any, seat: int | None = None, *, _lazy: bool = False) -> tuple[Event, ...]:
        if self.end_reason:
            raise IllegalAction(f"the game is over ({self.end_reason}); no action is legal")
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal or (seat is not None and seat != self.current_player):
            who = self.current_player if seat is None else seat
            raise IllegalAction(f"{action!r} is not legal for seat {who} now ({self.dec} for seat "
                                f"{self.current_player}); legal: {list(legal[:8])}{' ...' if len(legal) > 8 else ''}")
        d = self.dec
        self.dec = None  # a handler that opens a new decision sets it again
        _HANDLE[d](self, self.current_player, action)
        settle(self, _lazy)  # leaves the next decision's legal set in self._legal (unless lazy)
        return self.rec.take() if self.loud else ()

    def peek(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        """`apply` for a look-ahead that will be scored, not played on (greedy agents): the same
        checks and rules, but the next decision's legal set is listed only when asked for."""
        return self.apply(action, seat, _lazy=True)

    def mute(self) -> None:
        """From now on record no events and no log lines (`apply` returns ()); clones stay muted.
        The runner mutes a game whose log nobody asked for: replaying its actions gives the log back."""
        self.loud = False

    @property
    def first_player(self) -> int | None:
        """The seat that goes first by the rules (priority on turn 1, after the coin toss), or None while
        the fleets are ordered and the coin is tossed. The runner reads it to credit the first player."""
        return None if self.stage in ("setup", "coin") else self.priority

    def observation(self, seat: int) -> Any:
        return Observation(self, seat)

    def cards_played(self, seat: int) -> frozenset[str]:
        return self.played[seat]

    def cards_dealt(self, seat: int) -> frozenset[str]:
        """The seat's solar bodies that chance placed in the system (its star, its planets): the
        balance report's natural experiment for cards the game deals rather than the player plays."""
        t = self.t
        placed = [i for i in (self.star, *self.planet) if i >= 0]
        return frozenset(t.info[i].id for i in placed if t.owner[i] == seat)

    def position(self) -> dict[str, Any]:
        return to_position(self)

    def clone(self, keep_log: bool = True, keep_chance: bool = True) -> "SolarState":
        """An independent copy; the card table is shared (it never changes) and chance is forked
        when either copy next draws (`keep_chance=False`: the copy has no chance at all)."""
        s = SolarState.__new__(SolarState)
        # Written out rather than looped over names: greedy and search agents clone for every action
        # they weigh. Immutable values are shared; every list is copied (per seat where it is per seat).
        s.t, s.loud, s.winner, s.end_reason = self.t, self.loud, self.winner, self.end_reason
        s.keep_forced = self.keep_forced
        s._legal, s._sup = self._legal, self._sup
        s.turn, s.priority, s.current_player, s.dec = self.turn, self.priority, self.current_player, self.dec
        s.stage, s.stage_i, s.star, s.black_hole, s.pick = self.stage, self.stage_i, self.star, self.black_hole, self.pick
        s.cpos, s.cstage, s.cshots, s.cfirst, s.catt = self.cpos, self.cstage, self.cshots, self.cfirst, self.catt
        s.pd_amt, s.swarm_i, s.pd_forced = self.pd_amt, self.swarm_i, self.pd_forced
        s.cwinner, s.cprev = self.cwinner, self.cprev
        x = self.deck
        s.deck = [x[0][:], x[1][:]]
        x = self.hand
        s.hand = [x[0][:], x[1][:]]
        x = self.disc
        s.disc = [x[0][:], x[1][:]]
        x = self.ships
        s.ships = [x[0][:], x[1][:]]
        x = self.events
        s.events = [x[0][:], x[1][:]]
        x = self.cf
        s.cf = [x[0][:], x[1][:]]
        s.ev_done, s.sp_done, s.cannon_done = self.ev_done[:], self.sp_done[:], self.cannon_done[:]
        s.point, s.point_max, s.played = self.point[:], self.point_max[:], self.played[:]
        s.at, s.dmg, s.planet, s.ctrl, s.bldg = self.at[:], self.dmg[:], self.planet[:], self.ctrl[:], self.bldg[:]
        s.removed, s.flare, s.swarm = self.removed[:], self.flare[:], self.swarm[:]
        s.cpending, s.cfx = self.cpending[:], self.cfx[:]
        s.gaze = self.gaze.copy()
        if keep_chance:
            s.chance = self.chance
            self._chance_shared = s._chance_shared = True
        else:  # a copy without chance (an observation's) never rolls
            s.chance = None  # type: ignore[assignment]
            s._chance_shared = False
        if self.loud:
            s.log = log = self.log[:] if keep_log else []
            s.rec = EventRecorder(log)
        else:  # a muted state never writes to its log or recorder: copies share them
            s.log = self.log if keep_log else []
            s.rec = self.rec
        return s

    def __repr__(self) -> str:
        return (f"<SolarState turn {self.turn} {self.dec} seat {self.current_player}"
                f"{' over: ' + self.end_reason if self.end_reason else ''}>")
