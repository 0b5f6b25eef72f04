"""A Solar Empires game in progress: the game-state contract, the zones and the moves between them.

Cards are instance numbers (`t.info[i]` is the card, `t.owner[i]` its owner; `t` is the game's
`Table`). Per seat: `deck` (top card last), `hand`, `disc` (discard pile), `ships` (in play: in
reinforcements or deployed), `events` (regular events on the table this turn). Per instance: `at`
(position a ship is deployed to, -1 in reinforcements) and `dmg`. Per position 0-5: `planet`,
`ctrl` (controller or -1) and `bldg` (-1 for none); a destroyed planet is -1. `dec` names the
pending decision and `current_player` who takes it; `stage` and `cstage` name where the turn and
the current combat stand (see `flow` and `combat`). Positions (`position()`) write all of it as
readable data.

Speed matters (simulations, search agents): state is slots holding flat lists that `clone()`
copies; the card table is shared; chance is forked only when a clone first rolls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.engine.contract import Chance, Event, IllegalAction
from cardsmith.engine.kit import EventRecorder, WinnerState
from cardsmith.games.solar_empires.cards import POSITIONS, SEATS, Table

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.resolve import Pick

_NO_SUPPORT: tuple = (None, None)
_ACTING = ((0,), (1,))  # `to_act()` by seat, made once (the runner asks before every action)


class SolarState:
    """A Solar Empires game (made by `SolarEmpires.new_game` or `from_position`; see the contract).

    The compiled build (see cardsmith/compiled.py) makes this an extension type whose attributes
    `state.pxd` declares. An extension type cannot derive from a plain class, so the kit's
    `WinnerState` lends its methods instead of being the base class."""

    seats = 2
    # Slots, not a __dict__: attribute access is a good share of the rules' work, and slots make it
    # cheaper (random games 6-8% faster). `clone` copies each one; see __init__ for their meaning.
    __slots__ = ("t", "chance", "_chance_shared", "log", "rec", "loud", "winner", "end_reason", "_legal", "turn",
                 "priority", "current_player", "dec", "stage", "stage_i", "deck", "hand", "disc", "ships", "events",
                 "at", "dmg", "planet", "ctrl", "bldg", "star", "black_hole", "removed", "ev_done", "sp_done",
                 "cannon_done", "flare", "swarm", "gaze", "played", "pick", "cpending", "cfx", "cpos", "cstage", "cf",
                 "point", "point_max", "cshots", "cfirst", "catt", "pd_amt", "swarm_i", "cwinner", "cprev", "pd_forced",
                 "_sup")

    def __init__(self, table: Table, chance: Chance):
        self.t = table
        self.chance = chance
        self._chance_shared = False
        self.log: list[str] = []
        self.rec = EventRecorder(self.log)
        # False once `mute()`d: the rules skip writing events and log lines (every call site asks first,
        # so not even the text is formatted). Simulations and agents' look-ahead copies need neither.
        self.loud = True
        self.winner: int | None = None
        self.end_reason = ""
        self._legal: tuple | None = None
        n = len(table.info)
        self.turn = 1
        self.priority = 0
        self.current_player = 0
        self.dec: str | None = None
        self.stage, self.stage_i = "setup", 0
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.disc: list[list[int]] = [[], []]
        self.ships: list[list[int]] = [[], []]
        self.events: list[list[int]] = [[], []]
        self.at = [-1] * n
        self.dmg = [0] * n
        self.planet = [-1] * POSITIONS
        self.ctrl = [-1] * POSITIONS
        self.bldg = [-1] * POSITIONS
        self.star = -1
        self.black_hole = False
        self.removed: list[int] = []
        self.ev_done, self.sp_done, self.cannon_done = [False, False], [False, False], [False, False]
        self.flare: list[int] = []
        self.swarm: list[tuple[int, int]] = []
        self.gaze: dict[int, int] = {}
        self.played: list[frozenset[str]] = [frozenset(), frozenset()]
        self.pick: Pick | None = None
        self.cpending: list[int] = []
        self.cfx: list[tuple] = []  # pre-combat effects still to resolve at this combat
        self.cpos, self.cstage = -1, "next"
        # The fleets in the combat at `cpos`, per seat, in play order (`fleet_at(p, cpos)`): made when
        # the combat opens, and kept as ships leave it (destroyed, withdrawn); none can join it.
        self.cf: list[list[int]] = [[], []]
        self.point, self.point_max = [-1, -1], [-1, -1]
        self.cshots = self.cfirst = self.catt = self.pd_amt = self.swarm_i = 0
        self.cwinner = self.cprev = self.pd_forced = -1
        self._sup: tuple = _NO_SUPPORT  # support per seat, worked out when first asked (see `support`)

    # ------------------------------------------------------------------ the contract
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
        from cardsmith.games.solar_empires.observation import Observation
        return Observation(self, seat)

    def cards_played(self, seat: int) -> frozenset[str]:
        return self.played[seat]

    # The kit's `WinnerState` methods, taken rather than inherited (see the class docstring).
    is_terminal = WinnerState.is_terminal
    outcome = WinnerState.outcome
    returns = WinnerState.returns

    def cards_dealt(self, seat: int) -> frozenset[str]:
        """The seat's solar bodies that chance placed in the system (its star, its planets): the
        balance report's natural experiment for cards the game deals rather than the player plays."""
        t = self.t
        placed = [i for i in (self.star, *self.planet) if i >= 0]
        return frozenset(t.info[i].id for i in placed if t.owner[i] == seat)

    def position(self) -> dict[str, Any]:
        from cardsmith.games.solar_empires.positions import to_position
        return to_position(self)

    def clone(self, keep_log: bool = True, keep_chance: bool = True) -> "SolarState":
        """An independent copy; the card table is shared (it never changes) and chance is forked
        when either copy next draws (`keep_chance=False`: the copy has no chance at all)."""
        s = SolarState.__new__(SolarState)
        # Written out rather than looped over names: greedy and search agents clone for every action
        # they weigh. Immutable values are shared; every list is copied (per seat where it is per seat).
        s.t, s.loud, s.winner, s.end_reason = self.t, self.loud, self.winner, self.end_reason
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

    # ------------------------------------------------------------------ chance and the log
    def d6(self, why: str) -> int:
        if self._chance_shared:
            self.chance = self.chance.fork()
            self._chance_shared = False
        return self.chance.roll(6, why)

    def pick_one(self, n: int, why: str) -> int:
        if self._chance_shared:
            self.chance = self.chance.fork()
            self._chance_shared = False
        return self.chance.randrange(n, why)

    def shuffle(self, items: list, why: str, stream: str = "public") -> None:
        if self._chance_shared:
            self.chance = self.chance.fork()
            self._chance_shared = False
        self.chance.shuffle(items, why, stream)

    def ask(self, decision: str, seat: int) -> bool:
        """Make `seat` take `decision` now; True (the rules stop there)."""
        self.dec = decision
        self.current_player = seat
        return True

    def name(self, inst: int) -> str:
        return self.t.info[inst].name

    # ------------------------------------------------------------------ reading the table
    def support(self, p: int) -> tuple[int, int, int]:
        """Support points: 1 each, plus controlled planets, their buildings and the star's bonus."""
        h = self._sup[p]
        if h is None:
            h = self.holding(p)
        return h[0], h[1], h[2]

    def holding(self, p: int) -> tuple[int, int, int, tuple[int, ...], Any]:
        """Seat p's support points (e, m, o), the positions of the planets it controls, and the cost
        of firing a Solaris Cannon built on one of them (None without one): worked out once until the
        table changes (construction lists its options after every card played)."""
        h = self._sup[p]
        if h is None:
            h = self._holding(p)
            self._sup = (h, self._sup[1]) if p == 0 else (self._sup[0], h)
        return h

    def table_changed(self, seat: int = -1) -> None:
        """Control, a planet, a building or the star changed: support is worked out again (only
        `seat`'s when the change was to a planet it controls and touches no one else's)."""
        if seat < 0:
            self._sup = _NO_SUPPORT
        else:
            self._sup = (None, self._sup[1]) if seat == 0 else (self._sup[0], None)

    def _holding(self, p: int) -> tuple[int, int, int, tuple[int, ...], Any]:
        info = self.t.info
        ctrl, planet, bldg = self.ctrl, self.planet, self.bldg
        mine = tuple([pos for pos in range(POSITIONS) if ctrl[pos] == p and planet[pos] >= 0])
        e = m = o = 1
        cannon = None
        for pos in mine:
            pe, pm, po = info[planet[pos]].plus
            e += pe
            m += pm
            o += po
            b = bldg[pos]
            if b >= 0:
                ci = info[b]
                pe, pm, po = ci.plus
                e += pe
                m += pm
                o += po
                if cannon is None and "planet_cannon" in ci.fx:
                    cannon = ci.cost
        star = self.star
        if star >= 0 and not self.black_hole and info[star].star_pos in mine:
            r, a = info[star].star_res, info[star].star_amt
            if r == 0:
                e += a
            elif r == 1:
                m += a
            elif r == 2:
                o += a
        return (e, m, o, mine, cannon)

    def fleet_at(self, p: int, pos: int) -> list[int]:
        at = self.at
        return [i for i in self.ships[p] if at[i] == pos]

    def event_fx(self, p: int, handler: str) -> list:
        """The parameters of each of seat p's regular events in play with this handler."""
        events = self.events[p]
        if not events:  # (most turns: asked at every combat and turn step)
            return []
        info = self.t.info
        return [info[i].fx[handler] for i in events if handler in info[i].fx]

    def planets(self) -> list[int]:
        return [i for i in range(POSITIONS) if self.planet[i] >= 0]

    def shield(self, inst: int) -> int:
        s = self.t.info[inst].shield
        return max(s, self.gaze.get(inst, 0))

    def dedup(self, insts: list[int], key_extra: Any = None) -> list[int]:
        """One instance per distinguishable copy (same card, same damage, same `key_extra`, a small
        int or bool from -1 to 14). The key is one int: design (bits 32 up), damage (from 0 to the
        armour, bits 4-31), extra (bits 0-3)."""
        seen = set()
        out = []
        design, dmg = self.t.design, self.dmg
        if key_extra is None:
            for i in insts:
                k = design[i] | dmg[i] << 4
                if k not in seen:
                    seen.add(k)
                    out.append(i)
            return out
        for i in insts:
            k = design[i] | dmg[i] << 4 | (key_extra(i) + 1)
            if k not in seen:
                seen.add(k)
                out.append(i)
        return out

    # ------------------------------------------------------------------ zone moves
    def destroy_ship(self, inst: int) -> None:
        p = self.t.owner[inst]
        if self.cpos >= 0 and self.at[inst] == self.cpos:
            self.cf[p].remove(inst)
        self.ships[p].remove(inst)
        self.disc[p].append(inst)
        self.at[inst] = -1
        self.dmg[inst] = 0
        self.gaze.pop(inst, None)
        if self.loud:
            self.rec("destroyed", f"  {self.name(inst)} (P{p}) is destroyed", card=self.t.info[inst].id, seat=p)

    def hurt(self, inst: int, amount: int) -> bool:
        """Put up to `amount` damage on a ship (never above its armour); True if destroyed."""
        arm = self.t.info[inst].armour
        d = self.dmg[inst] + amount
        if d >= arm:
            self.dmg[inst] = arm
            self.destroy_ship(inst)
            return True
        self.dmg[inst] = d
        return False

    def into_play(self, p: int, inst: int, zone: list[int]) -> None:
        zone.remove(inst)
        self.ships[p].append(inst)
        self.at[inst] = -1
        self.dmg[inst] = 0
        self.mark_played(p, inst)

    def mark_played(self, p: int, inst: int) -> None:
        cid = self.t.info[inst].id
        if cid not in self.played[p]:
            self.played[p] = self.played[p] | {cid}

    def destroy_building(self, pos: int) -> None:
        b = self.bldg[pos]
        if b >= 0:
            self.disc[self.t.owner[b]].append(b)
            self.bldg[pos] = -1
            self.table_changed(self.ctrl[pos])
            if self.loud:
                self.rec("destroyed", f"  {self.name(b)} on position {pos + 1} is destroyed", card=self.t.info[b].id)

    def destroy_planet(self, pos: int) -> None:
        self.destroy_building(pos)
        if self.loud:
            self.rec("planet destroyed", f"  {self.name(self.planet[pos])} (position {pos + 1}) is destroyed", position=pos + 1)
        self.removed.append(self.planet[pos])
        self.planet[pos] = -1
        self.ctrl[pos] = -1
        self._sup = _NO_SUPPORT
        for p in SEATS:
            for i in self.ships[p]:
                if self.at[i] == pos:
                    self.at[i] = -1
        if pos in self.cpending:
            self.cpending.remove(pos)
        if not self.planets():
            counts = [len(self.ships[0]), len(self.ships[1])]
            w = None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
            self.end(w, "black hole" if self.black_hole else "no planets",
                     f"the last planet is gone; ships in play {counts[0]} to {counts[1]}")

    def draw(self, p: int, n: int = 1) -> None:
        d = self.deck[p]
        h = self.hand[p]
        for _ in range(n):
            if not d:
                return
            h.append(d.pop())

    def end(self, winner: int | None, reason: str, why: str) -> None:
        if self.end_reason:
            return
        self.winner = winner
        self.end_reason = reason
        self.dec = None
        if self.loud:
            self.rec("game over", f"Game over: {'draw' if winner is None else f'player {winner} wins'} ({reason}: {why})",
                     winner=winner, reason=reason)

    def check_end(self) -> bool:
        """Victory checks at phase boundaries: conquest, then exhaustion."""
        if self.end_reason:
            return True
        # Conquest: one seat controls every planet still there. A destroyed planet's controller is
        # -1, so counting each seat's entries in `ctrl` counts the live planets it holds.
        ctrl = self.ctrl
        live = POSITIONS - self.planet.count(-1)
        if live:
            for p in SEATS:
                if ctrl.count(p) == live:
                    self.end(p, "conquest", f"player {p} controls every remaining planet")
                    return True
        deck, hand, ships = self.deck, self.hand, self.ships
        out0 = not deck[0] and not hand[0] and not ships[0]
        out1 = not deck[1] and not hand[1] and not ships[1]
        if out0 or out1:
            w = None if out0 and out1 else (1 if out0 else 0)
            self.end(w, "exhaustion", "no fleet deck, hand or ships in play left")
            return True
        return False


# The rules proper live in `flow` (the turn), `combat` and `resolve` (card effects); they import
# this module for its types only, so importing them here, last, makes no cycle. In the compiled
# build they `cimport` SolarState, which imports this module first: so this module imports none of
# them before the class exists, and the package imports it before them (see __init__.py).
from cardsmith.games.solar_empires.flow import _HANDLE, compute_legal, settle  # noqa: E402
