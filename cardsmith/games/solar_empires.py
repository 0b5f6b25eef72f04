"""Solar Empires (Norgoth, 2009): the complete two-player rules as a `cardsmith.engine.core.Game`.

Every choice a player makes is an action (a plain tuple such as ``("play", "tcs-13-rapier")`` or
``("damage", 12, "drone")``, where an int is a card instance); the engine only resolves what the
rules leave to chance or to no one. A decision with a single legal option is taken automatically.
Interpretations of ambiguous sentences are documented in docs/rules/solar-empires.md.

Speed matters (random-agent simulations): cards are precomputed into `_Info` records, a game's
cards are numbered instances, and the state is flat lists of ints that `clone()` copies cheaply.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from cardsmith.engine.contract import IllegalAction
from cardsmith.errors import CardsmithError
from cardsmith.model import Card, CardSet, Deck
from cardsmith.model import slugify as slug

FIGHTER, CRUISER, BATTLESHIP = 0, 1, 2
CLASS_NAMES = ("fighter", "cruiser", "battleship")
SHIP, EVENT, BUILDING, STAR, BODY = range(5)
TYPE_CODES = {"ship": SHIP, "event": EVENT, "building": BUILDING, "star": STAR, "solar_body": BODY}
RESOURCES = ("energy", "minerals", "organics")
RESOURCE_ALIASES = {"energy": 0, "minerals": 1, "mineral": 1, "metal": 1, "organics": 2, "organic": 2}
DEFAULT_TURN_CAP = 40
HAND_SIZE = 6
POSITIONS = 6
BOMBER_BONUS = 2
# Invented: a combat in which neither side can hurt the other (a custom set with huge shields) would
# never end under agents that never withdraw; after this many shots both fleets break off.
SHOT_CAP = 100
ORDERINGS = ("shuffled", "curve", "listed")

# Card effects the rules implement, keyed by canonical card id (a card matches by id or by the slug
# of its name). Numbers come from the card's text where it states them; the source's values are the
# defaults when the text is reworded beyond recognition.
_N = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10}
EFFECT_PARAMS: dict[str, dict[str, tuple[str, int]]] = {
    "solar-flare": {"planets": (r"choose " + _N + r" planets?", 2)},
    "asteroid-swarm": {"planets": (r"choose " + _N + r" planets?", 2), "damage": (r"d6\s*\+\s*(\d+)", 3)},
    "spy-network": {},
    "battlefield-reclamation": {"draw": (r"draw " + _N + r" cards?", 1)},
    "sabotage": {"minus": (r"deduct " + _N, 1)},
    "precision-bombing": {},
    "flack-load": {"damage": (_N + r" damage", 4)},
    "order-101": {},
    "mass-conscription": {"count": (r"put " + _N + r" ship", 2)},
    "ion-storm": {"damage": (_N + r" damage", 3), "count": (r"up to " + _N, 3)},
    "fusion-burst": {},
    "shielding-gaze": {"shield": (r"shield " + _N, 3)},
    "teleport-jump": {},
    "hidden-infection": {"damage": (_N + r" damage", 6)},
    "pillars-of-flesh": {"damage": (_N + r" damage", 6)},
    "greater-rift": {},
    "blackest-night": {},
    "support-turrets": {"damage": (_N + r" damage", 4)},
    "missile-silos": {"damage": (_N + r" damage", 15)},
    "command-center": {"bonus": (r"\+\s*" + _N + r" bonus", 3)},
    "solaris-cannon": {},
    "world-eater": {"count": (r"place " + _N + r" ship", 3)},
}
# Spellings a set might use for the same card (the source itself wavers between them).
EFFECT_ALIASES = {"flak-load": "flack-load", "command-centre": "command-center"}
EVENT_EFFECTS = {k for k in EFFECT_PARAMS if k not in
                 ("support-turrets", "missile-silos", "command-center", "solaris-cannon", "world-eater")}

# Decisions (what the current player is choosing).
D_ORDER, D_PRIORITY, D_CONSTRUCT, D_PICK, D_DEPLOY, D_SPY, D_COMBAT, D_MISSILE, D_SWARM, D_POINT, \
    D_FIRE, D_INTERCEPT, D_DAMAGE, D_WORLD_EATER, D_ORDER101, D_NONE = range(16)
DECISION_NAMES = ("order deck", "priority", "construct", "choose targets", "deploy", "spy network",
                  "combat order", "missile silos", "asteroid damage", "point ship", "fire or withdraw",
                  "interceptor", "place damage", "world eater", "order 101", "none")




def _num(text: str, pattern: str, default: int) -> int:
    m = re.search(pattern, text or "", re.I)
    if not m:
        return default
    v = m.group(1).lower()
    return int(v) if v.isdigit() else _WORDS.get(v, default)


@dataclass(frozen=True, slots=True)
class _Info:
    """One card design, precomputed for the rules (shared by every copy and every game; immutable)."""

    id: str
    name: str
    type: int
    cls: int
    attack: int
    armour: int
    cost: tuple[int, int, int]
    shield: int
    accurate: bool
    bomber: bool
    interceptor: bool
    spell: bool
    legendary: bool
    save: int
    plus: tuple[int, int, int]
    race: str | None
    effect: str
    p: Mapping[str, int]  # the effect's numbers, read from the card text
    star_pos: int
    star_res: int
    star_amt: int
    value: int  # material worth of a ship for the heuristic

    @classmethod
    def of(cls, card: Card) -> "_Info":
        f = card.fields
        key = EFFECT_ALIASES.get(card.id, card.id)
        if key not in EFFECT_PARAMS:
            key = EFFECT_ALIASES.get(slug(card.name), slug(card.name))
        effect = key if key in EFFECT_PARAMS else ""
        attack = int(f.get("attack") or 0)
        armour = int(f.get("armour") or 1)
        return cls(
            id=card.id, name=card.name, type=TYPE_CODES.get(card.type, -1),
            cls=CLASS_NAMES.index(f["class"]) if f.get("class") in CLASS_NAMES else FIGHTER,
            attack=attack, armour=armour,
            cost=tuple(int(f.get(r) or 0) for r in RESOURCES),
            shield=int(card.keyword_value("shield") or 0) if card.has_keyword("shield") else 0,
            accurate=card.has_keyword("accurate"), bomber=card.has_keyword("bomber"),
            interceptor=card.has_keyword("interceptor"), spell=card.has_keyword("spell"),
            legendary=card.has_keyword("legendary"), save=int(f.get("save") or 1),
            plus=tuple(int(f.get("plus_" + r) or 0) for r in RESOURCES), race=card.race, effect=effect,
            p=MappingProxyType({name: _num(card.text, pat, dflt)
                                for name, (pat, dflt) in EFFECT_PARAMS.get(effect, {}).items()}),
            star_pos=int(f.get("position") or 0) - 1,
            star_res=RESOURCE_ALIASES.get(str(f.get("resource", "")).lower(), -1),
            star_amt=int(f.get("amount") or 0), value=attack + armour)


@dataclass(frozen=True, slots=True)
class _Static:
    """A game's fixed facts, shared by its states and their clones: which card each instance is
    (`info`), who owns it, each player's fleet in deck-file order and solar bodies deck."""

    info: tuple[_Info, ...]
    owner: tuple[int, ...]
    fleet: tuple[tuple[int, ...], tuple[int, ...]]
    solar: tuple[tuple[int, ...], tuple[int, ...]]
    chain: tuple[bool, bool]
    turn_cap: int


class Observation:
    """What one player may know: a copy of the state without the generator, the log, or the
    opponent's hand and deck (only their sizes). `hand` and `deck` (top first) are the player's own
    card ids; `public()` summarises the table for readable agents."""

    __slots__ = ("player", "turn", "current_player", "decision", "opp_hand", "opp_deck", "_masked")

    def __init__(self, state: "SolarState", player: int):
        o = 1 - player
        self.player = player
        self.turn = state.turn
        self.current_player = state.current_player
        self.decision = DECISION_NAMES[state.dec]
        self.opp_hand = len(state.hand[o])
        self.opp_deck = len(state.deck[o])
        m = state.clone(keep_log=False, keep_rng=False)
        m._legal = None
        m.hand[o] = []
        m.deck[o] = []
        self._masked = m

    @property
    def hand(self) -> tuple[str, ...]:
        info = self._masked.g.info
        return tuple(info[i].id for i in self._masked.hand[self.player])

    @property
    def deck(self) -> tuple[str, ...]:
        """The player's own fleet deck, top card first (they chose its order)."""
        info = self._masked.g.info
        return tuple(info[i].id for i in reversed(self._masked.deck[self.player]))

    def public(self) -> dict[str, Any]:
        """A readable summary of the table (planets, ships in play, discards, counts)."""
        s = self._masked
        info = s.g.info
        return {
            "turn": self.turn, "priority": s.priority, "decision": self.decision,
            "planets": [None if s.planet[i] < 0 else {
                "position": i + 1, "planet": info[s.planet[i]].id, "controller": s.ctrl[i],
                "building": info[s.bldg[i]].id if s.bldg[i] >= 0 else None} for i in range(POSITIONS)],
            "ships": [[(info[i].id, s.at[i] + 1 if s.at[i] >= 0 else None, s.dmg[i]) for i in s.ships[p]]
                      for p in (0, 1)],
            "discard": [[info[i].id for i in s.disc[p]] for p in (0, 1)],
            "hand": list(self.hand), "deck": list(self.deck),
            "hand_counts": [len(s.hand[p]) if p == self.player else self.opp_hand for p in (0, 1)],
            "deck_counts": [len(s.deck[p]) if p == self.player else self.opp_deck for p in (0, 1)],
        }


class SolarState:
    """A Solar Empires game in progress (made by `SolarEmpires.new_game`; see the engine contract).

    Cards are instance numbers (`g.info[i]` is the card, `g.owner[i]` its owner). Per player:
    `deck` (top card last), `hand`, `disc` (discard pile), `ships` (in play: in reinforcements or
    deployed), `events` (regular events on the table this turn). Per instance: `at` (position a ship
    is deployed to, -1 in reinforcements) and `dmg`. Per position 0-5: `planet`, `ctrl` (controller
    or -1), `bldg` (-1 for none); a destroyed planet is -1. `dec` is the pending decision, `stage`
    and `cstage` where the turn and the current combat stand. `legal_actions()` returns a cached
    list: do not change it.
    """

    def __init__(self, g: _Static):
        self.g = g
        self.log: list[str] = []
        self.winner: int | None = None
        self.end_reason = ""
        self._legal: list | None = None

    # ------------------------------------------------------------------ protocol
    def legal_actions(self) -> list:
        if self._legal is None:
            self._legal = [] if self.end_reason else self._compute_legal()
        return self._legal

    def apply(self, action) -> None:
        if self.end_reason:
            raise IllegalAction(f"the game is over ({self.end_reason}); no action is legal")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"{action!r} is not legal now ({DECISION_NAMES[self.dec]} for player "
                                f"{self.current_player}); legal: {legal[:8]}{' ...' if len(legal) > 8 else ''}")
        self._do(action)

    def is_terminal(self) -> bool:
        return bool(self.end_reason)

    def observation(self, player: int) -> Observation:
        return Observation(self, player)

    def cards_played(self, player: int) -> set[str]:
        return set(self.played[player])

    def clone(self, keep_log: bool = True, keep_rng: bool = True) -> "SolarState":
        """An independent copy (card tables are shared: they never change)."""
        s = SolarState.__new__(SolarState)
        d = self.__dict__.copy()
        s.__dict__ = d
        if not keep_rng:
            d["rng"] = None
        elif self.rng is not None:
            d["rng"] = r = random.Random()
            r.setstate(self.rng.getstate())
        d["log"] = self.log[:] if keep_log else []
        x = self.deck
        d["deck"] = [x[0][:], x[1][:]]
        x = self.hand
        d["hand"] = [x[0][:], x[1][:]]
        x = self.disc
        d["disc"] = [x[0][:], x[1][:]]
        x = self.ships
        d["ships"] = [x[0][:], x[1][:]]
        x = self.events
        d["events"] = [x[0][:], x[1][:]]
        d["at"] = self.at[:]
        d["dmg"] = self.dmg[:]
        d["planet"] = self.planet[:]
        d["ctrl"] = self.ctrl[:]
        d["bldg"] = self.bldg[:]
        d["removed"] = self.removed[:]
        d["flare"] = self.flare[:]
        d["swarm"] = self.swarm[:]
        d["cpending"] = self.cpending[:]
        d["ev_done"] = self.ev_done[:]
        d["sp_done"] = self.sp_done[:]
        d["cannon_done"] = self.cannon_done[:]
        d["point"] = self.point[:]
        d["point_max"] = self.point_max[:]
        d["played"] = [self.played[0].copy(), self.played[1].copy()]
        d["gaze"] = self.gaze.copy()
        if self.pick:
            d["pick"] = pk = self.pick[:]
            if isinstance(pk[3], list):
                pk[3] = pk[3][:]
        return s

    def __repr__(self) -> str:
        return (f"<SolarState turn {self.turn} {DECISION_NAMES[self.dec]} p{self.current_player}"
                f"{' over: ' + self.end_reason if self.end_reason else ''}>")

    # ------------------------------------------------------------------ helpers
    def _d6(self) -> int:
        return int(self.rng.random() * 6) + 1

    def _say(self, text: str) -> None:
        self.log.append(text)

    def _name(self, inst: int) -> str:
        return self.g.info[inst].name

    def support(self, p: int) -> tuple[int, int, int]:
        """Support points: 1 each, plus controlled planets, their buildings and the star's bonus."""
        info = self.g.info
        e = m = o = 1
        star = self.star
        sp = info[star].star_pos if star >= 0 and not self.black_hole else -9
        for pos in range(POSITIONS):
            if self.ctrl[pos] != p or self.planet[pos] < 0:
                continue
            pl = info[self.planet[pos]].plus
            e += pl[0]; m += pl[1]; o += pl[2]
            b = self.bldg[pos]
            if b >= 0:
                pl = info[b].plus
                e += pl[0]; m += pl[1]; o += pl[2]
            if pos == sp:
                r, a = info[star].star_res, info[star].star_amt
                if r == 0:
                    e += a
                elif r == 1:
                    m += a
                elif r == 2:
                    o += a
        return (e, m, o)

    def fleet_at(self, p: int, pos: int) -> list[int]:
        at = self.at
        return [i for i in self.ships[p] if at[i] == pos]

    def ev(self, p: int, key: str) -> bool:
        """Is one of player p's regular events with this effect in play this turn?"""
        info = self.g.info
        return any(info[i].effect == key for i in self.events[p])

    def _planets(self) -> list[int]:
        return [i for i in range(POSITIONS) if self.planet[i] >= 0]

    def _shield(self, inst: int) -> int:
        s = self.g.info[inst].shield
        return max(s, self.gaze.get(inst, 0))

    def _dedup(self, insts, key_extra=None) -> list[int]:
        seen = set()
        out = []
        info = self.g.info
        dmg = self.dmg
        for i in insts:
            k = (info[i].id, dmg[i], key_extra(i) if key_extra else 0)
            if k not in seen:
                seen.add(k)
                out.append(i)
        return out

    # ------------------------------------------------------------------ zone moves
    def _destroy_ship(self, inst: int) -> None:
        p = self.g.owner[inst]
        self.ships[p].remove(inst)
        self.disc[p].append(inst)
        self.at[inst] = -1
        self.dmg[inst] = 0
        self.gaze.pop(inst, None)
        self._say(f"  {self._name(inst)} (P{p}) is destroyed")

    def _hurt(self, inst: int, amount: int) -> bool:
        """Put up to `amount` damage on a ship (never above its armour); True if destroyed."""
        arm = self.g.info[inst].armour
        d = self.dmg[inst] + amount
        if d >= arm:
            self.dmg[inst] = arm
            self._destroy_ship(inst)
            return True
        self.dmg[inst] = d
        return False

    def _into_play(self, p: int, inst: int, zone: list[int]) -> None:
        zone.remove(inst)
        self.ships[p].append(inst)
        self.at[inst] = -1
        self.dmg[inst] = 0
        self.played[p].add(self.g.info[inst].id)

    def _destroy_building(self, pos: int) -> None:
        b = self.bldg[pos]
        if b >= 0:
            self.disc[self.g.owner[b]].append(b)
            self.bldg[pos] = -1
            self._say(f"  {self._name(b)} on position {pos + 1} is destroyed")

    def _destroy_planet(self, pos: int) -> None:
        self._destroy_building(pos)
        self._say(f"  {self._name(self.planet[pos])} (position {pos + 1}) is destroyed")
        self.removed.append(self.planet[pos])
        self.planet[pos] = -1
        self.ctrl[pos] = -1
        for p in (0, 1):
            for i in self.ships[p]:
                if self.at[i] == pos:
                    self.at[i] = -1
        if pos in self.cpending:
            self.cpending.remove(pos)
        if not self._planets():
            counts = [len(self.ships[0]), len(self.ships[1])]
            w = None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
            self._end(w, "black hole" if self.black_hole else "no planets",
                      f"the last planet is gone; ships in play {counts[0]} to {counts[1]}")

    def _draw(self, p: int, n: int = 1) -> None:
        d = self.deck[p]
        h = self.hand[p]
        for _ in range(n):
            if not d:
                return
            h.append(d.pop())

    def _end(self, winner: int | None, reason: str, why: str) -> None:
        if self.end_reason:
            return
        self.winner = winner
        self.end_reason = reason
        self.dec = D_NONE
        self._say(f"Game over: {'draw' if winner is None else f'player {winner} wins'} ({reason}: {why})")

    def _check_end(self) -> bool:
        """Victory checks at phase boundaries: conquest, then exhaustion."""
        if self.end_reason:
            return True
        live = [c for c, pl in zip(self.ctrl, self.planet) if pl >= 0]
        if live and live[0] >= 0 and all(c == live[0] for c in live):
            self._end(live[0], "conquest", f"player {live[0]} controls every remaining planet")
            return True
        out = [not self.deck[p] and not self.hand[p] and not self.ships[p] for p in (0, 1)]
        if out[0] or out[1]:
            w = None if out[0] and out[1] else (1 if out[0] else 0)
            self._end(w, "exhaustion", "no fleet deck, hand or ships in play left")
            return True
        return False

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> list:
        d = self.dec
        p = self.current_player
        info = self.g.info
        if d == D_CONSTRUCT:
            return self._construct_actions(p)
        if d == D_DEPLOY:
            acts = []
            targets = [pos for pos in self._planets() if pos not in self.flare]
            reserve = [i for i in self.ships[p] if self.at[i] < 0]
            for i in self._dedup(reserve):
                cid = info[i].id
                for pos in targets:
                    acts.append(("deploy", cid, pos + 1, i))
            acts.append(("done",))
            return acts
        if d == D_DAMAGE or d == D_SWARM:
            pt = self.point[p] if d == D_DAMAGE else -1
            return [("damage", i, info[i].id) for i in
                    self._dedup(self.fleet_at(p, self.cpos), lambda i: i == pt)]
        if d == D_POINT:
            cands = self.fleet_at(p, self.cpos)
            if self.point_max[p] >= 0:
                cands = [i for i in cands if info[i].cls <= self.point_max[p]]
            return [("point", i, info[i].id) for i in self._dedup(cands)]
        if d == D_FIRE:
            return [("fire",), ("withdraw",)]
        if d == D_INTERCEPT:
            pt = self.point[1 - p]
            fighters = [i for i in self.fleet_at(1 - p, self.cpos) if info[i].cls == FIGHTER]
            return [("no-intercept",)] + [("intercept", i, info[i].id)
                                          for i in self._dedup(fighters, lambda i: i == pt)]
        if d == D_COMBAT:
            return [("combat", pos + 1) for pos in self.cpending]
        if d == D_MISSILE:
            return [("missile", i, info[i].id) for i in self._dedup(self.fleet_at(1 - p, self.cpos))]
        if d == D_PICK:
            return self._pick_actions(p)
        if d == D_SPY:
            acts = [("spy-keep",)]
            targets = [pos for pos in self._planets() if pos not in self.flare]
            for i in self._dedup(self.ships[p], lambda i: self.at[i]):
                cid = info[i].id
                if self.at[i] >= 0:
                    acts.append(("spy", i, cid, "reserve"))
                for pos in targets:
                    if pos != self.at[i]:
                        acts.append(("spy", i, cid, pos + 1))
            return acts
        if d == D_WORLD_EATER:
            return [("world-eater", "destroy"), ("world-eater", "spare")]
        if d == D_ORDER101:
            return [("order-101", "self-destruct"), ("order-101", "roll")]
        if d == D_ORDER:
            return [("order", o) for o in ORDERINGS]
        if d == D_PRIORITY:
            return [("priority", "take"), ("priority", "give")]
        return []

    def _construct_actions(self, p: int) -> list:
        info = self.g.info
        sup = self.support(p)
        e, m, o = sup
        acts: list = []
        seen = set()
        mine = [pos for pos in range(POSITIONS) if self.ctrl[pos] == p and self.planet[pos] >= 0]
        for inst in self.hand[p]:
            ci = info[inst]
            if ci.id in seen:
                continue
            seen.add(ci.id)
            c = ci.cost
            if c[0] > e or c[1] > m or c[2] > o:
                continue
            t = ci.type
            if t == SHIP:
                acts.append(("play", ci.id))
            elif t == BUILDING:
                for pos in mine:
                    acts.append(("play", ci.id, pos + 1))
            elif t == EVENT:
                if ci.spell:
                    if self.sp_done[p] or self.g.chain[p]:
                        continue
                elif self.ev_done[p]:
                    continue
                acts.extend(self._event_plays(p, ci))
        if not self.cannon_done[p]:
            for pos in mine:
                b = self.bldg[pos]
                if b >= 0 and info[b].effect == "solaris-cannon":
                    c = info[b].cost
                    if c[0] <= e and c[1] <= m and c[2] <= o:
                        acts.extend(("fire-cannon", t + 1) for t in self._planets())
                    break
        acts.append(("done",))
        return acts

    def _event_plays(self, p: int, ci: _Info) -> list:
        key = ci.effect
        info = self.g.info
        if key in ("solar-flare", "asteroid-swarm"):
            planets = [x + 1 for x in self._planets()]
            k = min(ci.p["planets"], len(planets))
            if k == 0:
                return [("play", ci.id)]
            return [("play", ci.id) + c for c in combinations(planets, k)]
        if key in ("fusion-burst", "hidden-infection", "pillars-of-flesh", "shielding-gaze"):
            if key == "shielding-gaze":
                pool = self.ships[p]
            else:
                pool = self.ships[0] + self.ships[1]
            if key in ("fusion-burst", "pillars-of-flesh"):
                pool = [i for i in pool if info[i].cls <= CRUISER]
            owner = self.g.owner
            return [("play", ci.id, i, info[i].id) for i in self._dedup(pool, lambda i: owner[i])]
        return [("play", ci.id)]

    def _pick_actions(self, p: int) -> list:
        kind = self.pick[0]
        info = self.g.info
        if kind == "ion":
            chosen = self.pick[3]
            pool = [i for i in self.ships[0] + self.ships[1] if info[i].cls == FIGHTER and i not in chosen]
            owner = self.g.owner
            return [("stop",)] + [("target", i, info[i].id) for i in self._dedup(pool, lambda i: owner[i])]
        if kind == "teleport":
            zone = self.deck[p]
        else:
            zone = self.disc[p]
        seen = set()
        acts = [("stop",)] if kind == "revive" else []
        limit = self.pick[3] if kind == "pillars" else BATTLESHIP
        for i in zone:
            ci = info[i]
            if ci.type == SHIP and ci.cls <= limit and ci.id not in seen:
                seen.add(ci.id)
                acts.append(("take", ci.id))
        return acts

    # ------------------------------------------------------------------ applying
    def _do(self, action) -> None:
        self._legal = None
        self._handle(action)
        self._settle()

    def _settle(self) -> None:
        self._advance()
        # A decision with one option is no decision: take it at once.
        while not self.end_reason:
            legal = self.legal_actions()
            if len(legal) != 1:
                break
            self._legal = None
            self._handle(legal[0])
            self._advance()

    def _handle(self, a) -> None:
        d = self.dec
        p = self.current_player
        verb = a[0]
        info = self.g.info
        self.dec = D_NONE  # a handler that opens a new decision sets it again
        if d == D_CONSTRUCT:
            if verb == "done":
                self._say(f"P{p} ends construction")
                self.stage_i += 1
            elif verb == "fire-cannon":
                pos = a[1] - 1
                self.cannon_done[p] = True
                self._say(f"P{p} fires the Solaris Cannon at position {pos + 1}")
                self._destroy_planet(pos)
                if not self.end_reason:
                    self._check_end()
            else:
                self._play(p, a)
        elif d == D_DEPLOY:
            if verb == "done":
                self.stage_i += 1
            else:
                self.at[a[3]] = a[2] - 1
                self._say(f"P{p} deploys {info[a[3]].name} to position {a[2]}")
        elif d == D_DAMAGE or d == D_SWARM:
            inst = a[1]
            room = info[inst].armour - self.dmg[inst]
            put = min(room, self.pd_amt)
            self.pd_amt -= put
            self._say(f"  P{p} puts {put} damage on {info[inst].name}")
            self._hurt(inst, put)
        elif d == D_POINT:
            self.point[p] = a[1]
            self._say(f"  P{p} point ship: {info[a[1]].name}")
        elif d == D_FIRE:
            if verb == "withdraw":
                self._say(f"  P{p} withdraws")
                self._withdraw(p)
            else:
                self.cstage = _SHOOT
        elif d == D_INTERCEPT:
            self.pd_forced = a[1] if verb == "intercept" else -1
            self.cstage = _PLACE
        elif d == D_COMBAT:
            self._start_combat(a[1] - 1)
        elif d == D_MISSILE:
            b = self.bldg[self.cpos]
            self._say(f"  Missile Silos hit {info[a[1]].name} for {info[b].p['damage']}")
            self._hurt(a[1], info[b].p["damage"])
            self.cstage = _FLACK
        elif d == D_PICK:
            self._pick_handle(p, a)
        elif d == D_SPY:
            if verb == "spy":
                inst = a[1]
                self.at[inst] = -1 if a[3] == "reserve" else a[3] - 1
                self._say(f"P{p} (Spy Network) moves {info[inst].name} to {a[3]}")
            self.stage_i += 1
        elif d == D_WORLD_EATER:
            if a[1] == "destroy":
                self._say(f"  P{p}'s World Eater destroys the planet")
                self._destroy_planet(self.cpos)
                self.cstage = _NEXT
                if not self.end_reason:
                    self.pick = ["revive", p, self.we_count, None, "combat"]
                    self._open_pick()
            else:
                self.cstage = _BUILDING
        elif d == D_ORDER101:
            self.cstage = _NEXT
            if a[1] == "self-destruct":
                self._say(f"  P{p} triggers Order 101")
                self._destroy_building(self.cpos)
            else:
                self._building_roll()
        elif d == D_ORDER:
            self._order_deck(p, a[1])
        elif d == D_PRIORITY:
            self.priority = p if a[1] == "take" else 1 - p
            self._say(f"P{p} gives priority to P{self.priority}" if a[1] == "give" else f"P{p} takes priority")
            self.stage = _TURN

    def _order_deck(self, p: int, how: str) -> None:
        cards = list(self.g.fleet[p])  # deck file order, top first
        if how == "shuffled":
            self.rng.shuffle(cards)
        elif how == "curve":
            info = self.g.info
            cards.sort(key=lambda i: sum(info[i].cost))
        self.deck[p] = cards[::-1]  # top of the deck is the end of the list
        self._say(f"P{p} places their fleet deck ({len(cards)} cards)")
        self.stage_i += 1

    def _play(self, p: int, a) -> None:
        info = self.g.info
        cid = a[1]
        inst = next(i for i in self.hand[p] if info[i].id == cid)
        ci = info[inst]
        t = ci.type
        if t == SHIP:
            self._into_play(p, inst, self.hand[p])
            self._say(f"P{p} builds {ci.name}")
            return
        self.hand[p].remove(inst)
        self.played[p].add(cid)
        if t == BUILDING:
            pos = a[2] - 1
            if self.bldg[pos] >= 0:
                self._say(f"  the new building replaces {self._name(self.bldg[pos])}")
                self._destroy_building(pos)
            self.bldg[pos] = inst
            self._say(f"P{p} builds {ci.name} on position {pos + 1}")
            return
        # an event
        if ci.spell:
            self.sp_done[p] = True
            self.disc[p].append(inst)
            self._say(f"P{p} casts {ci.name}{self._targets_text(a)}")
        else:
            self.ev_done[p] = True
            self.events[p].append(inst)
            self._say(f"P{p} plays {ci.name}{self._targets_text(a)}")
        key = ci.effect
        if key == "solar-flare":
            self.flare.extend(x - 1 for x in a[2:])
        elif key == "asteroid-swarm":
            self.swarm.extend((x - 1, ci.p["damage"]) for x in a[2:])
        elif key == "mass-conscription":
            self.pick = ["conscript", p, ci.p["count"], None, "construct"]
            self._open_pick()
        elif key == "teleport-jump":
            self.pick = ["teleport", p, 1, None, "construct"]
            self._open_pick()
        elif key == "ion-storm":
            self.pick = ["ion", p, ci.p["count"], [], "construct", ci.p["damage"]]
            self._open_pick()
        elif key in ("hidden-infection", "fusion-burst", "pillars-of-flesh"):
            target = a[2]
            tcls = info[target].cls
            if key == "fusion-burst":
                self._destroy_ship(target)
            elif self._hurt(target, ci.p["damage"]) and key == "pillars-of-flesh":
                self.pick = ["pillars", p, 1, tcls, "construct"]
                self._open_pick()
        elif key == "shielding-gaze":
            self.gaze[a[2]] = max(self.gaze.get(a[2], 0), ci.p["shield"])
        elif key == "greater-rift":
            for pos in range(POSITIONS):
                b = self.bldg[pos]
                if b >= 0 and self.ctrl[pos] != p:
                    roll = self._d6() - self.events_minus(p)
                    ok = roll >= info[b].save
                    self._say(f"  save roll for {info[b].name}: {roll} vs {info[b].save}+ "
                              f"{'survives' if ok else 'fails'}")
                    if not ok:
                        self._destroy_building(pos)
        elif key == "blackest-night":
            if not self.black_hole:
                self.black_hole = True
                self._say("  the star becomes a black hole")

    def events_minus(self, saboteur: int) -> int:
        """What `saboteur`'s Sabotage deducts from the opponent's building saves this turn."""
        info = self.g.info
        return sum(info[i].p["minus"] for i in self.events[saboteur] if info[i].effect == "sabotage")

    def _targets_text(self, a) -> str:
        if len(a) <= 2:
            return ""
        if len(a) == 4 and isinstance(a[2], int) and isinstance(a[3], str):
            return f" on {self._name(a[2])} (P{self.g.owner[a[2]]})"
        return " on positions " + ", ".join(str(x) for x in a[2:])

    def _open_pick(self) -> None:
        p = self.pick[1]
        self.dec = D_PICK
        self.current_player = p
        if self.pick[2] <= 0 or (self.pick[0] != "ion" and len(self._pick_actions(p)) == 0):
            self._close_pick()

    def _close_pick(self) -> None:
        ret = self.pick[4]
        p = self.pick[1]
        self.pick = None
        if ret == "construct":
            self.dec = D_CONSTRUCT
            self.current_player = p
        else:
            self.dec = D_NONE

    def _pick_handle(self, p: int, a) -> None:
        kind = self.pick[0]
        info = self.g.info
        if a[0] == "stop":
            return self._close_pick()
        if kind == "ion":
            inst = a[1]
            self.pick[3].append(inst)
            self._say(f"  Ion Storm hits {info[inst].name} (P{self.g.owner[inst]})")
            self._hurt(inst, self.pick[5])
        else:
            zone = self.deck[p] if kind == "teleport" else self.disc[p]
            inst = next(i for i in reversed(zone) if info[i].id == a[1])
            self._into_play(p, inst, zone)
            self._say(f"  P{p} puts {info[inst].name} into play from the "
                      f"{'fleet deck' if kind == 'teleport' else 'discard pile'}")
        self.pick[2] -= 1
        if self.pick[2] <= 0 or (kind != "ion" and not self._pick_actions(p)):
            self._close_pick()
        else:
            self.dec = D_PICK

    # ------------------------------------------------------------------ combat
    def _start_combat(self, pos: int) -> None:
        self.cpending.remove(pos)
        self.cpos = pos
        self.point = [-1, -1]
        self.point_max = [-1, -1]
        self.cshots = 0
        self.cwinner = -1
        self.cstage = _TURRETS
        self._say(f"Combat at position {pos + 1} ({self._name(self.planet[pos])})")

    def _withdraw(self, p: int) -> None:
        for i in self.fleet_at(p, self.cpos):
            self.at[i] = -1
        self.cwinner = 1 - p
        self.cstage = _WON

    def _building_roll(self) -> None:
        pos = self.cpos
        b = self.bldg[pos]
        w = self.cwinner
        info = self.g.info
        minus = self.events_minus(1 - w)
        roll = self._d6() - minus
        ok = roll >= info[b].save
        if not ok and self.ev(w, "precision-bombing"):
            roll = self._d6() - minus
            ok = roll >= info[b].save
            self._say(f"  Precision Bombing re-roll: {roll}")
        self._say(f"  P{w} rolls {roll} to save {info[b].name} ({info[b].save}+): "
                  f"{'it survives' if ok else 'destroyed'}")
        if not ok:
            self._destroy_building(pos)

    def _combat_step(self) -> bool:
        """Advance the combat at self.cpos; True when a decision is pending or the combat is over."""
        info = self.g.info
        pos = self.cpos
        prio = self.priority
        while True:
            cs = self.cstage
            if cs == _TURRETS:
                b = self.bldg[pos]
                c = self.ctrl[pos]
                self.cstage = _SILOS
                if b >= 0 and c >= 0 and info[b].effect == "support-turrets":
                    n = info[b].p["damage"]
                    for i in self.fleet_at(1 - c, pos):
                        self._say(f"  Support Turrets hit {info[i].name} for {n}")
                        self._hurt(i, n)
            elif cs == _SILOS:
                b = self.bldg[pos]
                c = self.ctrl[pos]
                self.cstage = _FLACK
                if b >= 0 and c >= 0 and info[b].effect == "missile-silos" and self.fleet_at(1 - c, pos):
                    self.cstage = _SILOS_WAIT
                    self.dec = D_MISSILE
                    self.current_player = c
                    return True
            elif cs == _FLACK:
                self.cstage = _SWARM
                self.swarm_i = 0
                for q in (prio, 1 - prio):
                    if self.ev(q, "flack-load") and self.fleet_at(q, pos):
                        n = next(info[i].p["damage"] for i in self.events[q] if info[i].effect == "flack-load")
                        for i in self.fleet_at(1 - q, pos):
                            if info[i].cls == FIGHTER:
                                self._say(f"  Flack Load hits {info[i].name} for {n}")
                                self._hurt(i, n)
            elif cs == _SWARM:
                # each Asteroid Swarm on this planet hits each fleet there (priority's fleet first)
                hits = [(sp, n) for sp, n in self.swarm if sp == pos]
                k = self.swarm_i
                if k >= 2 * len(hits):
                    self.cstage = _START
                    continue
                self.swarm_i += 1
                q = prio if k % 2 == 0 else 1 - prio
                if self.fleet_at(q, pos):
                    amt = self._d6() + hits[k // 2][1]
                    self._say(f"  Asteroid Swarm deals {amt} damage to P{q}'s fleet")
                    self.pd_amt = amt
                    self.cstage = _SWARM_PLACE
                    self.dec = D_SWARM
                    self.current_player = q
                    return True
            elif cs == _SWARM_PLACE:
                q = self.current_player
                if self.pd_amt > 0 and self.fleet_at(q, pos):
                    self.dec = D_SWARM
                    return True
                self.cstage = _SWARM
            elif cs == _START:
                f0, f1 = self.fleet_at(0, pos), self.fleet_at(1, pos)
                if f0 and f1:
                    self.cstage = _POINT
                    continue
                if f0 or f1:
                    self.cwinner = 0 if f0 else 1
                    self._say(f"  P{self.cwinner} is unopposed")
                    self.cstage = _WON
                else:
                    self._say("  no ships remain; control is unchanged")
                    self.cstage = _NEXT
            elif cs == _POINT:
                for q in (prio, 1 - prio):
                    if self.point[q] < 0:
                        self.dec = D_POINT
                        self.current_player = q
                        return True
                c0, c1 = info[self.point[0]].cls, info[self.point[1]].cls
                self.cfirst = prio if c0 == c1 else (0 if c0 < c1 else 1)
                self._say(f"  P{self.cfirst} fires first")
                self.cstage = _CHOICE
            elif cs == _CHOICE:
                if self.cshots >= SHOT_CAP:
                    self._say(f"  {SHOT_CAP} shots without a result: both fleets break off; control is unchanged")
                    for q in (0, 1):
                        for i in self.fleet_at(q, pos):
                            self.at[i] = -1
                    self.cstage = _NEXT
                    continue
                a = self.cfirst if self.cshots % 2 == 0 else 1 - self.cfirst
                self.catt = a
                if self.cshots >= 2:
                    self.dec = D_FIRE
                    self.current_player = a
                    return True
                self.cstage = _SHOOT
            elif cs == _SHOOT:
                self._roll_attack()
                a = self.catt
                self.pd_forced = -1
                targets = self.fleet_at(1 - a, pos)
                # (with one enemy ship left, or no damage, where the damage goes is not a choice)
                if self.pd_amt > 0 and len(targets) > 1 and any(info[i].cls == FIGHTER for i in targets) \
                        and any(info[i].interceptor for i in self.fleet_at(a, pos)):
                    self.cstage = _INTERCEPT_WAIT
                    self.dec = D_INTERCEPT
                    self.current_player = a
                    return True
                self.cstage = _PLACE
            elif cs == _PLACE:
                d = 1 - self.catt
                f = self.pd_forced
                if f >= 0:
                    self.pd_forced = -1
                    room = info[f].armour - self.dmg[f]
                    put = min(room, self.pd_amt)
                    self.pd_amt -= put
                    self._say(f"  interceptors force {put} damage onto {info[f].name}")
                    self._hurt(f, put)
                if self.pd_amt > 0 and self.fleet_at(d, pos):
                    self.dec = D_DAMAGE
                    self.current_player = d
                    return True
                self.cstage = _AFTER
            elif cs == _AFTER:
                d = 1 - self.catt
                self.cshots += 1
                fleet = self.fleet_at(d, pos)
                if not fleet:
                    self.cwinner = self.catt
                    self.cstage = _WON
                    continue
                pt = self.point[d]
                if pt not in fleet:
                    old = info[pt].cls
                    if not any(info[i].cls <= old for i in fleet):
                        self._say(f"  P{d} has no ship to take the point and withdraws")
                        self._withdraw(d)
                        continue
                    self.point[d] = -1
                    self.point_max[d] = old
                    self.cstage = _NEWPOINT
                    self.dec = D_POINT
                    self.current_player = d
                    return True
                self.cstage = _CHOICE
            elif cs == _NEWPOINT:
                self.point_max = [-1, -1]
                self.cstage = _CHOICE
            elif cs == _WON:
                w = self.cwinner
                prev = self.cprev = self.ctrl[pos]
                self.ctrl[pos] = w
                self._say(f"  P{w} wins the combat and controls position {pos + 1}")
                if prev != w:
                    n = sum(info[i].p["draw"] for i in self.events[w] if info[i].effect == "battlefield-reclamation")
                    if n:
                        self._draw(w, n)
                        self._say(f"  P{w} draws {n} (Battlefield Reclamation)")
                eaters = [i for i in self.fleet_at(w, pos) if info[i].effect == "world-eater"]
                if eaters:
                    self.we_count = info[eaters[0]].p["count"]
                    self.cstage = _WE_WAIT
                    self.dec = D_WORLD_EATER
                    self.current_player = w
                    return True
                self.cstage = _BUILDING
            elif cs == _BUILDING:
                self.cstage = _NEXT
                w = self.cwinner
                prev_owner = 1 - w
                if self.bldg[pos] >= 0 and self.cprev == prev_owner:
                    if self.ev(prev_owner, "order-101"):
                        self.dec = D_ORDER101
                        self.current_player = prev_owner
                        self.cstage = _O101_WAIT
                        return True
                    self._building_roll()
            elif cs == _NEXT:
                return True
            else:
                raise AssertionError(f"combat stage {cs} has no pending decision")

    def _roll_attack(self) -> None:
        info = self.g.info
        a = self.catt
        d = 1 - a
        pa, pdd = self.point[a], self.point[d]
        ci = info[pa]
        bonus = ci.attack
        # A shielded point ship is supported only by smaller ships (larger ones add nothing).
        big_counted = self._shield(pa) > 0
        for i in self.fleet_at(a, self.cpos):
            if i == pa:
                continue
            if info[i].cls < ci.cls:
                bonus += 1
            elif not big_counted:
                big_counted = True  # one or more of equal or larger size: +1 once
                bonus += 1
        if ci.bomber and info[pdd].cls > ci.cls:
            bonus += BOMBER_BONUS
        b = self.bldg[self.cpos]
        if b >= 0 and self.ctrl[self.cpos] == a and info[b].effect == "command-center":
            bonus += info[b].p["bonus"]
        roll = self._d6()
        note = ""
        if roll == 1 and ci.accurate:
            roll = self._d6()
            note = " (accurate re-roll)"
        sh = self._shield(pdd)
        total = max(0, roll + bonus - sh)
        self.pd_amt = total
        self._say(f"  P{a} fires: d6 {roll}{note} + {bonus}" + (f" - shield {sh}" if sh else "") + f" = {total}")

    # ------------------------------------------------------------------ the turn
    def _advance(self) -> None:
        """Run the rules until a player must decide (self.dec set) or the game ends."""
        while not self.end_reason and self.dec == D_NONE:
            st = self.stage
            pr = self.priority
            if st == _SETUP:
                if self.stage_i < 2:
                    self.dec = D_ORDER
                    self.current_player = self.stage_i
                    return
                for p in (0, 1):
                    self._draw(p, HAND_SIZE)
                self.stage = _COIN
            elif st == _COIN:
                w = 0 if self.rng.random() < 0.5 else 1
                self._say(f"P{w} wins the coin toss")
                self.dec = D_PRIORITY
                self.current_player = w
                return
            elif st == _TURN:
                self._say(f"== Turn {self.turn}: P{pr} has priority ==")
                for p in (pr, 1 - pr):
                    self._draw(p, HAND_SIZE - len(self.hand[p]))
                if self._check_end():
                    return
                self.stage, self.stage_i = _CON1, 0
            elif st == _CON1 or st == _CON2:
                if self.stage_i < 2:
                    self.dec = D_CONSTRUCT
                    self.current_player = pr if self.stage_i == 0 else 1 - pr
                    return
                if self._check_end():
                    return
                if st == _CON1:
                    self.stage, self.stage_i = _DEPLOY, 0
                else:
                    self.stage = _CLEANUP
            elif st == _DEPLOY:
                if self.stage_i < 2:
                    self.dec = D_DEPLOY
                    self.current_player = pr if self.stage_i == 0 else 1 - pr
                    return
                self.stage, self.stage_i = _SPY, 0
            elif st == _SPY:
                if self.stage_i < 2:
                    q = pr if self.stage_i == 0 else 1 - pr
                    if self.ev(q, "spy-network") and self.ships[q]:
                        self.dec = D_SPY
                        self.current_player = q
                        return
                    self.stage_i += 1
                    continue
                self.cpending = [pos for pos in self._planets()
                                 if any(self.at[i] == pos for i in self.ships[0] + self.ships[1])]
                self.cpos = -1
                self.stage = _COMBAT
            elif st == _COMBAT:
                if self.cpos >= 0:
                    if not self._combat_step():
                        continue
                    if self.dec != D_NONE or self.end_reason:
                        return
                    # the combat at cpos is over
                    self.cpos = -1
                    continue
                if self.cpending:
                    self.dec = D_COMBAT
                    self.current_player = pr
                    return
                for p in (0, 1):
                    for i in self.ships[p]:
                        self.at[i] = -1
                self.gaze = {}
                if self._check_end():
                    return
                self.stage, self.stage_i = _CON2, 0
            elif st == _CLEANUP:
                self._cleanup()
            else:
                raise AssertionError(f"unknown stage {st}")

    def _stalemate(self) -> bool:
        """True when the next turn would repeat this state forever: no ships, no draws (hands full or
        decks empty), no playable card, and no black hole eating planets."""
        if self.black_hole or self.ships[0] or self.ships[1]:
            return False
        for p in (0, 1):
            if len(self.hand[p]) < HAND_SIZE and self.deck[p]:
                return False
        return all(len(self._construct_actions(p)) == 1 for p in (0, 1))

    def _cleanup(self) -> None:
        info = self.g.info
        for p in (0, 1):
            for i in self.events[p]:
                self.disc[p].append(i)
            self.events[p] = []
            self.ev_done[p] = self.sp_done[p] = self.cannon_done[p] = False
            for i in self.ships[p]:
                self.dmg[i] = 0
        self.flare = []
        self.swarm = []
        if self.black_hole:
            left = self._planets()
            if left:
                self._say(f"The black hole swallows {info[self.planet[left[0]]].name}")
                self._destroy_planet(left[0])
                if self.end_reason:
                    return
        if self._check_end():
            return
        if self._stalemate():
            self._end(None, "stalemate", "no ships in play, no card either player can play, nothing left to "
                                         "draw: every turn from now on would be the same")
            return
        if self.turn >= self.g.turn_cap:
            self._end(None, "turn cap", f"turn {self.turn} reached the cap of {self.g.turn_cap}")
            return
        self.turn += 1
        self.priority = 1 - self.priority
        self.stage = _TURN


# combat sub-stages
(_TURRETS, _SILOS, _SILOS_WAIT, _FLACK, _SWARM, _SWARM_PLACE, _START, _POINT, _CHOICE, _SHOOT,
 _INTERCEPT_WAIT, _PLACE, _AFTER, _NEWPOINT, _WON, _WE_WAIT, _BUILDING, _O101_WAIT, _NEXT) = range(19)
# turn stages
_SETUP, _COIN, _TURN, _CON1, _DEPLOY, _SPY, _COMBAT, _CON2, _CLEANUP = range(9)



class SolarEmpires:
    """The Solar Empires rules for one card set (`make_game(cardset)` builds it)."""

    name = "Solar Empires"

    def __init__(self, cardset: CardSet):
        self.cardset = cardset
        self.infos = {c.id: _Info.of(c) for c in cardset.cards}
        unknown = sorted(i.name for i in self.infos.values() if i.type == EVENT and not i.effect)
        if unknown:
            raise CardsmithError(
                f"set '{cardset.id}': the Solar Empires rules have no effect for event card(s) {', '.join(unknown)}",
                hint="the rules module implements the events of the source text (by card id or name); "
                     f"known events: {', '.join(sorted(EVENT_EFFECTS))}")
        play = cardset.meta.get("play") or {}
        cap = play.get("turn_cap", DEFAULT_TURN_CAP) if isinstance(play, dict) else DEFAULT_TURN_CAP
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
            raise CardsmithError(f"set '{cardset.id}': play.turn_cap must be a positive whole number, not {cap!r}",
                                 hint="write e.g. `play: {turn_cap: 40}` in set.yaml")
        self.turn_cap = cap

    def _instances(self, decks: Sequence[Deck]) -> _Static:
        if len(decks) != 2:
            raise CardsmithError(f"Solar Empires is played by two decks, not {len(decks)}")
        info: list[_Info] = []
        owner: list[int] = []
        fleet: list[list[int]] = [[], []]
        solar: list[list[int]] = [[], []]
        chain = [False, False]
        for p, deck in enumerate(decks):
            for zone, out in (("fleet", fleet[p]), ("solar_bodies", solar[p])):
                for cid in deck.cards(zone):
                    ci = self.infos.get(cid)
                    if ci is None:
                        raise CardsmithError(f"deck '{deck.name}' names card '{cid}', which set "
                                             f"'{self.cardset.id}' does not have",
                                             hint=f"check the {zone} zone of {deck.source or deck.name}")
                    out.append(len(info))
                    info.append(ci)
                    owner.append(p)
            chain[p] = any(info[i].race == "chain" for i in fleet[p])
        return _Static(tuple(info), tuple(owner), (tuple(fleet[0]), tuple(fleet[1])),
                       (tuple(solar[0]), tuple(solar[1])), (chain[0], chain[1]), self.turn_cap)

    def new_game(self, decks: Sequence[Deck], seed: int) -> SolarState:
        """Build the solar system and stop at the first decision (player 0 orders their fleet deck)."""
        g = self._instances(decks)
        n = len(g.info)
        s = SolarState(g)
        s.rng = random.Random(seed)
        s.turn = 1
        s.priority = 0
        s.current_player = 0
        s.dec = D_NONE
        s.stage, s.stage_i = _SETUP, 0
        s.deck, s.hand, s.disc, s.ships, s.events = ([[], []] for _ in range(5))
        s.at = [-1] * n
        s.dmg = [0] * n
        s.planet = [-1] * POSITIONS
        s.ctrl = [-1] * POSITIONS
        s.bldg = [-1] * POSITIONS
        s.star = -1
        s.black_hole = False
        s.removed = []
        s.ev_done, s.sp_done, s.cannon_done = [False, False], [False, False], [False, False]
        s.flare, s.swarm, s.gaze = [], [], {}
        s.played = [set(), set()]
        s.pick = None
        s.cpending, s.cpos, s.cstage = [], -1, _NEXT
        s.point, s.point_max = [-1, -1], [-1, -1]
        s.cshots = s.cfirst = s.catt = s.pd_amt = s.swarm_i = s.we_count = 0
        s.cwinner = s.cprev = s.pd_forced = -1
        # The solar system: both solar bodies decks shuffled together, turned over one by one.
        pile = list(g.solar[0] + g.solar[1])
        s.rng.shuffle(pile)
        placed = 0
        for inst in pile:
            ci = g.info[inst]
            if ci.type == STAR and s.star < 0:
                s.star = inst
            elif ci.type == BODY and placed < POSITIONS:
                s.planet[placed] = inst
                placed += 1
            else:
                s.removed.append(inst)  # drawn with no free space (or a second star): ignored
        if placed == 0:
            raise CardsmithError(
                f"decks '{decks[0].name}' and '{decks[1].name}' bring no solar body cards, so there is no solar system",
                hint="each deck needs a `solar_bodies:` zone (1 star and 7 solar bodies)")
        s._say("The solar system: " + ", ".join(f"{i + 1}. {g.info[x].name}" for i, x in enumerate(s.planet)
                                                 if x >= 0)
               + (f"; star: {g.info[s.star].name}" if s.star >= 0 else "; no star"))
        s._settle()
        return s

    def sample_state(self, observation: Observation, rng: random.Random) -> SolarState:
        """A full state consistent with `observation`: the opponent's unseen cards (their deck list
        minus every public card) dealt at random into their hand and deck; a fresh generator."""
        m = observation._masked
        s = m.clone(keep_log=False)
        s.rng = random.Random(rng.getrandbits(64))
        s._legal = None
        o = 1 - observation.player
        g = s.g
        public = set(s.disc[o]) | set(s.ships[o]) | set(s.events[o])
        public.update(b for b in s.bldg if b >= 0)
        pool = [i for i in g.fleet[o] if i not in public]
        rng.shuffle(pool)
        k = observation.opp_hand
        s.hand[o] = pool[:k]
        s.deck[o] = pool[k:]
        return s

    def heuristic(self, state: SolarState, player: int) -> float:
        """Material in play, planets held, support points and cards left, mine minus the opponent's."""
        if state.end_reason:
            return 0.0 if state.winner is None else (1000.0 if state.winner == player else -1000.0)
        info = state.g.info
        score = 0.0
        for p, sign in ((player, 1.0), (1 - player, -1.0)):
            material = sum(info[i].value - state.dmg[i] for i in state.ships[p])
            planets = sum(1 for c, pl in zip(state.ctrl, state.planet) if c == p and pl >= 0)
            sup = sum(state.support(p))
            cards = len(state.hand[p]) + 0.2 * len(state.deck[p])
            score += sign * (material + 8.0 * planets + 2.0 * sup + 1.0 * cards)
        return score


def make_game(cardset: CardSet) -> SolarEmpires:
    """The Solar Empires rules for `cardset` (called by cardsmith.engine.registry.load_game)."""
    return SolarEmpires(cardset)
