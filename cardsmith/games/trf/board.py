"""The TRF table: plain data (what `position()` writes) and the helpers the phase, fight and effect
code share (pools, costs, who may attack or block). `state.TRFState` adds the game contract on top;
the rules modules need only this, so none of them imports the state.

The mutable part is one dict `d` of lists, dicts, ints and strings, so a clone is a deep copy and a
position is that dict under the contract's header. Characters in play are numbered (`uid`) because a
deck may hold several copies of one card; so are planets in play (the homeworld is one of them).
"""

from __future__ import annotations

import pickle
from typing import Any, Mapping, Protocol

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Chance
from cardsmith.engine.kit import EventRecorder
from cardsmith.games.trf.cards import Costs, Info

# Phases of a turn, in order. "block" is the defender's; every other phase is the active player's.
PHASES = ("draw", "planet", "buy", "roleplay", "declare", "block", "combat", "capture", "post")
TIMING = {"roleplay": "non-combat", "combat": "combat", "post": "post-combat"}


def plain_copy(data: Any) -> Any:
    """A deep copy of plain data (pickle round trip: several times faster than copy.deepcopy)."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


# How `copy_table` copies each entry of the table (anything else, or a new entry, goes through
# `plain_copy`): lists of scalars, lists of flat dicts, lists of lists of scalars.
_FLAT_LISTS = frozenset(("deck", "hand", "discard", "activated", "played", "list", "declared"))
_DICT_LISTS = frozenset(("planets", "persistent", "chars"))
_LIST_LISTS = frozenset(("blocks", "assign"))
_SCALARS = (int, str, bool, float, type(None))


def _copy_entries(data: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in data.items():
        if type(v) in _SCALARS:
            out[k] = v
        elif k in _FLAT_LISTS:
            out[k] = list(v)
        elif k in _DICT_LISTS:
            out[k] = [dict(x) for x in v]
        elif k in _LIST_LISTS:
            out[k] = [list(x) for x in v]
        elif k == "p":
            out[k] = [_copy_entries(x) for x in v]
        elif k == "fights":
            out[k] = [{**f, "seats": list(f["seats"]), "att": list(f["att"]), "def": list(f["def"]),
                       "bonus": list(f["bonus"])} for f in v]
        else:
            out[k] = plain_copy(v)
    return out


def copy_table(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a table's data (`d`, or an observation of it): `plain_copy` written out for
    its shape, about twice as fast; clones, observations and determinizations make one each."""
    return _copy_entries(data)


class Rules(Protocol):
    """What the table reads of its game (`game.TRFGame`; a protocol, as the game imports this module)."""

    infos: dict[str, Info]
    costs: Costs
    turn_cap: int
    unique_characters: frozenset[str]  # the ids of the Unique characters (the ones a buy may revive)
    fleet_capture: dict[str, int]  # each fleet's capture value (a dead position's quick test)
    catching_up: frozenset[str]  # non-OOC cards whose activated ability adds capture or revives
    ooc_capture_bonus: dict[str, int]  # each OOC card's `capture_bonus` amounts, summed
    ooc_revives: dict[str, int]  # each OOC card's `revive` effects, counted
    # Tables the legal-action listings read on every step (made once per game):
    planets: frozenset[str]  # the planet cards
    characters: frozenset[str]  # the character cards
    tagged: dict[str, frozenset[str]]  # the character cards of each tag (a discard_revive's choices)
    oocs_at: dict[str, frozenset[str]]  # the OOC cards of each timing
    acting_planets: frozenset[str]  # planets with an activated ability
    discounting: frozenset[str]  # planets that discount characters
    gives: dict[str, tuple[int, int]]  # (meters, words) a planet or an account's income adds to a pool


class Board:
    """The table of one TRF game, without the contract (see `state.TRFState`)."""

    seats = 2
    # The game (card tables, costs, settings) is a class attribute of a subclass each TRFGame makes
    # (`TRFGame.state_class`): states share it without holding it, so what a state holds is only its
    # own plain data (cheap to copy and to search for observation leaks).
    g: Rules

    def __init__(self, data: dict[str, Any], chance: Chance, log: list[str] | None = None):
        self.d = data
        self.chance = chance
        self.log: list[str] = log if log is not None else []
        self._legal: tuple | None = None

    # --- reading the table ----------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.d["turn"]

    @property
    def active(self) -> int:
        return self.d["active"]

    def is_terminal(self) -> bool:
        return self.d["end"] is not None

    def info(self, cid: str) -> Info:
        return self.g.infos[cid]

    def account(self, seat: int) -> Info:
        return self.g.infos[self.d["p"][seat]["account"]]

    def char(self, uid: int) -> dict[str, Any]:
        for c in self.d["chars"]:
            if c["uid"] == uid:
                return c
        raise KeyError(uid)

    def chars_of(self, seat: int) -> list[dict[str, Any]]:
        return [c for c in self.d["chars"] if c["owner"] == seat]

    def new_uid(self) -> int:
        self.d["uid"] += 1
        return self.d["uid"]

    def in_fight(self, uid: int) -> int | None:
        """The index of the fight this character is committed to, or None."""
        for i, f in enumerate(self.d["fights"]):
            if uid in f["att"] or uid in f["def"]:
                return i
        return None

    def unit(self, uid: int) -> list[int]:
        """A character and the individual joined to it (a fleet); the individual alone otherwise."""
        return [uid] + [c["uid"] for c in self.d["chars"] if c["fleet"] == uid]

    def persistent(self, seat: int, do: str) -> list[Mapping[str, Any]]:
        """The effects named `do` of the Persistent cards `seat` has in play."""
        out: list[Mapping[str, Any]] = []
        infos = self.g.infos
        for p in self.d["p"][seat]["persistent"]:
            out += infos[p["card"]].effect(do)
        return out

    # The pools and costs below are asked for on every legal-action listing of a buy or roleplay
    # step: they read the card tables directly rather than through `info()` (same sums, same order).
    def income(self, seat: int, resource: str) -> int:
        """Meters or words this seat's planets give this turn (activated planets give nothing)."""
        p = self.d["p"][seat]
        infos, activated = self.g.infos, p["activated"]
        total = 0
        for pl in p["planets"]:
            if pl["uid"] not in activated:
                total += getattr(infos[pl["card"]], resource)
        for e in infos[p["account"]].effect("income"):
            if e.get("resource") == resource:
                total += e["amount"]
        if p["persistent"]:
            total += sum(e["amount"] for e in self.persistent(seat, "income") if e.get("resource") == resource)
        return max(0, total)

    def pools(self, seat: int) -> tuple[int, int]:
        """(meters, words) this seat has left this turn: `meters()` and `words()` in one pass."""
        p = self.d["p"][seat]
        g, activated = self.g, p["activated"]
        given = g.gives
        m, w = given[p["account"]]  # (the account's `income` effects, summed once per game)
        for pl in p["planets"]:
            if pl["uid"] not in activated:
                dm, dw = given[pl["card"]]
                m += dm
                w += dw
        if p["persistent"]:
            for e in self.persistent(seat, "income"):
                if e.get("resource") == "meters":
                    m += e["amount"]
                elif e.get("resource") == "words":
                    w += e["amount"]
        return max(0, m) + p["bonus_m"] - p["spent_m"], max(0, w) + p["bonus_w"] - p["spent_w"]

    def meters(self, seat: int) -> int:
        p = self.d["p"][seat]
        return self.income(seat, "meters") + p["bonus_m"] - p["spent_m"]

    def words(self, seat: int) -> int:
        p = self.d["p"][seat]
        return self.income(seat, "words") + p["bonus_w"] - p["spent_w"]

    def char_cost(self, seat: int, cid: str) -> int | None:
        """Meters this seat pays for the character: faction factor, then its planets' discounts."""
        infos = self.g.infos
        card = infos[cid]
        p = self.d["p"][seat]
        cost = self.g.costs(p["account"], cid)
        if cost is None:
            return None
        discounting = self.g.discounting
        for pl in p["planets"]:
            if pl["card"] not in discounting:
                continue
            for e in infos[pl["card"]].discounts:
                if e.get("faction") == card.faction or (e.get("tag") and e["tag"] in card.tags):
                    cost -= e["amount"]
        return max(0, cost)

    def ooc_cost(self, seat: int, cid: str) -> int | None:
        """Words this seat pays for the OOC card (doubled under an opposing Staff Ruling)."""
        cost = self.g.costs(self.d["p"][seat]["account"], cid)
        if cost is None:
            return None
        return cost * (2 if self.d["p"][1 - seat]["persistent"] and self.persistent(1 - seat, "ruling") else 1)

    def can_attack(self, c: dict[str, Any]) -> bool:
        # A fleet and its individual attack as one ("faces their combined strength"; Visionary "uses the
        # fleet's turn as well as his"): an individual bought this turn or resting holds its fleet back.
        # (Asked for every character on every roleplay and declare listing: one pass, no lists.)
        d = self.d
        t = d["turn"]
        if (c["owner"] != d["active"] or c["fleet"] is not None or t in (c["bought"], c["rest"], c["acted"], c["done"])
                or (d["fights"] and self.in_fight(c["uid"]) is not None)):
            return False
        uid = c["uid"]
        for x in d["chars"]:
            if x["fleet"] == uid and t in (x["bought"], x["rest"], x["acted"], x["done"]):
                return False
        return True

    def can_block(self, c: dict[str, Any]) -> bool:
        d = self.d
        t = d["turn"]
        if c["owner"] == d["active"] or c["fleet"] is not None or c["rest"] == t \
                or (d["fights"] and self.in_fight(c["uid"]) is not None):
            return False
        uid = c["uid"]
        for x in d["chars"]:
            if x["fleet"] == uid and x["rest"] == t:
                return False
        return True

    def discard_char(self, uid: int, rec: EventRecorder, why: str) -> None:
        """A character leaves play for its owner's discard pile (an individual joined to it stays)."""
        c = self.char(uid)
        self.d["chars"].remove(c)
        for other in self.d["chars"]:
            if other["fleet"] == uid:
                other["fleet"] = None
        self.d["p"][c["owner"]]["discard"].append(c["card"])
        if rec:
            rec("discarded", f"{self.info(c['card']).name} ({why}) goes to seat {c['owner']}'s discard pile",
                card=c["card"], seat=c["owner"], why=why)
        self.expire(c["owner"], "character_lost", rec)

    def expire(self, seat: int, until: str, rec: EventRecorder) -> None:
        """Persistent cards of `seat` whose condition `until` is now met go to its discard pile."""
        p = self.d["p"][seat]
        if not p["persistent"]:  # (mostly so: asked as every turn starts)
            return
        for item in [x for x in p["persistent"] if x["until"] == until]:
            p["persistent"].remove(item)
            p["discard"].append(item["card"])
            rec("expired", f"{self.info(item['card']).name} ends ({until.replace('_', ' ')})", card=item["card"], seat=seat)

    def draw(self, seat: int, n: int, rec: EventRecorder) -> None:
        p = self.d["p"][seat]
        for _ in range(n):
            if not p["deck"]:
                return
            card = p["deck"].pop()
            p["hand"].append(card)
            if rec:  # (a muted state's recorder is false: no event to build)
                rec("draw", "", seen_by=(seat,), seat=seat, card=card)
        if rec:
            rec("drew", f"seat {seat} draws {n}", seat=seat, n=n)

    def finish(self, winner: int | None, reason: str, rec: EventRecorder) -> None:
        self.d["winner"], self.d["end"] = winner, reason
        rec("end", f"game over: {reason}" + (f", seat {winner} wins" if winner is not None else ""),
            winner=winner, reason=reason)


def fresh_player(account: str, homeworld: str, deck: list[str]) -> dict[str, Any]:
    """A seat before the first draw: its homeworld in play (uid 0 or 1 is set by the caller)."""
    return {"account": account, "homeworld": homeworld, "deck": deck, "hand": [], "discard": [],
            "planets": [], "spent_m": 0, "spent_w": 0, "bonus_m": 0, "bonus_w": 0, "activated": [],
            "persistent": [], "account_used": False, "played": [], "list": sorted(deck)}


def new_data(players: list[dict[str, Any]]) -> dict[str, Any]:
    return {"turn": 1, "active": 0, "first": 0, "phase": "draw", "p": players, "chars": [], "fights": [],
            "declared": [], "blocks": [], "assign": [], "capture_bonus": 0, "uid": 0,
            "winner": None, "end": None}


def default_chance(seed: int, chance: Chance | None) -> Chance:
    return chance if chance is not None else SeededChance(seed)
