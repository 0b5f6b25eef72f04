"""The Solar Empires table: what a game holds (zones, planets, the combat under way) and the moves
between zones that the rules (`flow`, `combat`, `resolve`) make. `state.SolarState` adds the game
contract on top; the rules modules need only this, so none of them imports the state.

Cards are instance numbers (`t.info[i]` is the card, `t.owner[i]` its owner; `t` is the game's
`Table`). Per seat: `deck` (top card last), `hand`, `disc` (discard pile), `ships` (in play: in
reinforcements or deployed), `events` (regular events on the table this turn). Per instance: `at`
(position a ship is deployed to, -1 in reinforcements) and `dmg`. Per position 0-5: `planet`,
`ctrl` (controller or -1) and `bldg` (-1 for none); a destroyed planet is -1. `dec` names the
pending decision and `current_player` who takes it; `stage` and `cstage` name where the turn and
the current combat stand (see `flow` and `combat`). Positions (`position()`) write all of it as
readable data.

Speed matters (simulations, search agents): the board is slots holding flat lists that
`SolarState.clone()` copies; the card table is shared; chance is forked only when a clone first rolls.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardsmith.engine.contract import Chance
from cardsmith.engine.kit import EventRecorder
from cardsmith.games.solar_empires.cards import BATTLESHIP, CLASS_NAMES, POSITIONS, SEATS, Table

_NO_SUPPORT: tuple = (None, None)


class Pick(NamedTuple):
    """An effect's pending choices: `kind` "fighters" (damage up to `left` different fighters),
    "discard" (put ships from the discard pile into play) or "deck" (search the fleet deck for ships).
    `limit` is the largest class allowed; `may_stop` lets the seat stop early; `then` is where play
    returns ("construct" or "combat")."""

    kind: str
    seat: int
    left: int
    limit: int = BATTLESHIP
    may_stop: bool = False
    chosen: tuple[int, ...] = ()
    then: str = "construct"
    amount: int = 0

    def to_data(self, ids: Any) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "left": self.left, "max_class": CLASS_NAMES[self.limit],
                "may_stop": self.may_stop, "chosen": ids(self.chosen), "then": self.then, "amount": self.amount}


class Board:
    """The table of one Solar Empires game, without the contract (see `state.SolarState`)."""

    seats = 2
    # Slots, not a __dict__: attribute access is a good share of the rules' work, and slots make it
    # cheaper (random games 6-8% faster). `clone` copies each one; see __init__ for their meaning.
    __slots__ = ("t", "chance", "_chance_shared", "log", "rec", "loud", "winner", "end_reason", "_legal", "turn",
                 "priority", "current_player", "dec", "stage", "stage_i", "deck", "hand", "disc", "ships", "events",
                 "at", "dmg", "planet", "ctrl", "bldg", "star", "black_hole", "removed", "ev_done", "sp_done",
                 "cannon_done", "flare", "swarm", "gaze", "played", "pick", "cpending", "cfx", "cpos", "cstage", "cf",
                 "point", "point_max", "cshots", "cfirst", "catt", "pd_amt", "swarm_i", "cwinner", "cprev", "pd_forced",
                 "_sup", "keep_forced")

    def __init__(self, table: Table, chance: Chance):
        self.t = table
        self.chance = chance
        self._chance_shared = False
        self.log: list[str] = []
        self.rec = EventRecorder(self.log)
        # False once `mute()`d: the rules skip writing events and log lines (every call site asks first,
        # so not even the text is formatted). Simulations and agents' look-ahead copies need neither.
        self.loud = True
        # True: a decision with one legal action waits for it like any other (`new_game(keep_forced=True)`).
        self.keep_forced = False
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

