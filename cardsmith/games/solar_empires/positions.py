"""Solar Empires positions: a whole game as readable data (cards by id, stages and decisions by name).

A ship is written where it is (`ships: [{card, at, damage}]` under its seat); the combat refers to
a ship as [seat, "ships" or "discard", index in that list]. Reading a position, a seat's `fleet:` (its deck list)
and `solar_bodies:` may be left out: they are then the cards the position places. A position with
no `decision:` runs on to the next decision when it is read, so a test can write "the combat phase
starts with these ships deployed" and let the rules take over.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

from cardsmith.engine.contract import Chance, PositionError
from cardsmith.engine.kit import parse_position, position_header
from cardsmith.engine.kit.shape import check_position, first_moves, guarded
import cardsmith.games.solar_empires.position_schema as position_schema
from cardsmith.games.solar_empires.cards import CLASS_NAMES, NAME, POSITIONS, SEATS, CardInfo, Table, build_table
from cardsmith.games.solar_empires.flow import compute_legal, settle
from cardsmith.games.solar_empires.position_schema import check_fit
from cardsmith.games.solar_empires.board import Pick

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.board import Board

S = TypeVar("S", bound="Board")


def to_position(s: "Board") -> dict[str, Any]:
    t = s.t
    ids = t.ids
    info = t.info

    def ship_ref(inst: int) -> list | None:
        """[seat, "ships" or "discard", index]: a ship in play, or one destroyed in this combat."""
        if inst < 0:
            return None
        o = t.owner[inst]
        for zone, pile in (("ships", s.ships[o]), ("discard", s.disc[o])):
            if inst in pile:
                return [o, zone, pile.index(inst)]
        return None

    data = position_header(NAME, 2)
    data.update({
        "turn": s.turn, "priority": s.priority, "stage": s.stage, "stage_step": s.stage_i,
        "decision": None if s.dec is None else {"kind": s.dec, "seat": s.current_player},
        "result": {"winner": s.winner, "reason": s.end_reason} if s.end_reason else None,
        "star": info[s.star].id if s.star >= 0 else None, "black_hole": s.black_hole,
        "planets": [None if s.planet[i] < 0 else {
            "card": info[s.planet[i]].id, "controller": None if s.ctrl[i] < 0 else s.ctrl[i],
            "building": None if s.bldg[i] < 0 else {"card": info[s.bldg[i]].id, "owner": t.owner[s.bldg[i]]}}
            for i in range(POSITIONS)],
        "removed": ids(s.removed), "flare": [x + 1 for x in s.flare],
        "swarm": [{"position": x + 1, "bonus": n} for x, n in s.swarm],
        "players": [{
            "fleet": ids(t.fleet[p]), "solar_bodies": ids(t.solar[p]),
            "hand": ids(s.hand[p]), "deck": ids(s.deck[p][::-1]), "discard": ids(s.disc[p]), "events": ids(s.events[p]),
            "ships": [{"card": info[i].id, "at": None if s.at[i] < 0 else s.at[i] + 1, "damage": s.dmg[i],
                       **({"shield": s.gaze[i]} if i in s.gaze else {})} for i in s.ships[p]],
            "played": sorted(s.played[p]), "event_played": s.ev_done[p], "spell_played": s.sp_done[p],
            "cannon_fired": s.cannon_done[p]} for p in SEATS],
        "pick": None if s.pick is None else {**s.pick.to_data(lambda c: [ship_ref(i) for i in c])},
        "combat": None if s.stage != "combat" else {
            "pending": [x + 1 for x in s.cpending], "position": None if s.cpos < 0 else s.cpos + 1, "step": s.cstage,
            "effects": [{"seat": q, "amount": n, "target": tg, "source": src, "engaged": e} for q, n, tg, src, e in s.cfx],
            "point": [ship_ref(i) for i in s.point],
            "new_point_max": [None if c < 0 else CLASS_NAMES[c] for c in s.point_max],
            "shots": s.cshots, "first": s.cfirst, "attacker": s.catt, "damage_left": s.pd_amt,
            "forced": ship_ref(s.pd_forced), "winner": None if s.cwinner < 0 else s.cwinner,
            "previous_controller": None if s.cprev < 0 else s.cprev, "swarm_step": s.swarm_i},
        "instances": _instances(s),
    })
    return data


def _instances(s: "Board") -> dict[str, list[int]]:
    """Card instance numbers in the order `from_position` reads the cards (per seat: its buildings in
    planet order, hand, deck top first, discard, events, ships; solar: star, planets, removed), so a
    position read back names every card as the game did and recorded actions replay on it."""
    t = s.t
    out: dict[str, list[int]] = {}
    for p in SEATS:
        order = [b for b in s.bldg if b >= 0 and t.owner[b] == p]
        order += s.hand[p] + s.deck[p][::-1] + s.disc[p] + s.events[p] + s.ships[p]
        out[str(p)] = order
    out["solar"] = ([s.star] if s.star >= 0 else []) + [x for x in s.planet if x >= 0] + s.removed
    return out


class _Reader:
    """Reads a position into a fresh state, handing out card instances as the zones name them."""

    def __init__(self, infos: Mapping[str, CardInfo], data: Mapping[str, Any], turn_cap: int):
        self.data = data
        self.players = players = data["players"]
        fleets = [p.get("fleet") or self._fleet_of(q, p) for q, p in enumerate(players)]
        solars = [p.get("solar_bodies") for p in players]
        if solars[0] is None and solars[1] is None:
            planets = [pl["card"] for pl in data.get("planets") or [] if pl]
            solars = [planets + ([data["star"]] if data.get("star") else []) + list(data.get("removed") or []), []]
        self.table = build_table(infos, fleets, [x or [] for x in solars], turn_cap,
                                 [f"players[{p}].fleet" for p in SEATS], position=True)
        self.free = {p: list(self.table.fleet[p]) for p in SEATS}
        self.free_solar = list(self.table.solar[0] + self.table.solar[1])
        given = data.get("instances")
        self.given = {k: list(v) for k, v in given.items()} if isinstance(given, dict) else None
        self.used: set[int] = set()

    def _given(self, key: str, cid: str, where: str) -> int | None:
        """The instance the position's `instances:` names for the next card of `key`, checked."""
        if self.given is None:
            return None
        queue = self.given.get(key)
        if not queue:
            raise PositionError(f"{where}: `instances.{key}` lists fewer cards than the position places (a "
                                f"position edited by hand may leave `instances:` out)")
        inst = int(queue.pop(0))
        info = self.table.info
        if not 0 <= inst < len(info) or info[inst].id != cid or inst in self.used:
            raise PositionError(f"{where}: `instances.{key}` names instance {inst}, which is not a free '{cid}' (the "
                                f"cards no longer match `instances:`; a position edited by hand may leave it out)")
        self.used.add(inst)
        return inst

    def _fleet_of(self, seat: int, p: Mapping[str, Any]) -> list[str]:
        cards = list(p.get("hand") or []) + list(p.get("deck") or []) + list(p.get("discard") or [])
        cards += list(p.get("events") or []) + [x["card"] for x in p.get("ships") or []]
        cards += [pl["building"]["card"] for pl in self.data.get("planets") or []
                  if pl and pl.get("building") and pl["building"].get("owner", 0) == seat]
        return cards

    def take(self, seat: int, cid: str, where: str) -> int:
        inst = self._given(str(seat), cid, where)
        if inst is not None:
            if self.table.owner[inst] != seat:
                raise PositionError(f"{where}: instance {inst} belongs to seat {self.table.owner[inst]}")
            return inst
        pool = self.free[seat]
        for k, i in enumerate(pool):
            if self.table.info[i].id == cid:
                return pool.pop(k)
        raise PositionError(f"{where}: seat {seat}'s fleet holds no (further) copy of '{cid}'")

    def take_solar(self, cid: str, where: str) -> int:
        inst = self._given("solar", cid, where)
        if inst is not None:
            return inst
        for k, i in enumerate(self.free_solar):
            if self.table.info[i].id == cid:
                return self.free_solar.pop(k)
        raise PositionError(f"{where}: the solar bodies decks hold no (further) '{cid}'")

    def zone(self, seat: int, key: str) -> list[int]:
        return [self.take(seat, c, f"players[{seat}].{key}") for c in self.players[seat].get(key) or []]


def from_position(infos: Mapping[str, CardInfo], data: Mapping[str, Any] | str, turn_cap: int,
                  chance: Chance, make: Callable[[Table, Chance], S]) -> S:
    """A state from position data (or its YAML/JSON text), run on to a decision: `make(table, chance)`
    gives the empty state (`SolarState`; passed in, as the state imports this module to write its
    positions). The data is checked against `position_schema` first, so a mistake is a PositionError
    naming the entry."""
    if isinstance(data, str):
        data = parse_position(data, NAME)
    elif data.get("game") != NAME:
        raise PositionError(f"the position is a {data.get('game')!r} game, not {NAME!r}")
    if data.get("seats", 2) != 2:
        raise PositionError(f"seats is {data.get('seats')!r}: Solar Empires is a game for 2 players")
    checked = _checked(infos, data)
    return guarded(lambda: _build(infos, checked, turn_cap, chance, make), _some_move)


def _some_move(s: "Board") -> None:
    """The probe under `guarded`: the seat to act has something it may do. `first_moves` asks the
    state's contract (`to_act`, `legal_actions`), which leaves the legal set in `s._legal`."""
    first_moves(s)
    if not s.end_reason and not s._legal:
        raise PositionError(f"decision {s.dec!r}: seat {s.current_player} has nothing it may do in this position "
                            "(compare it with one the game writes: --log-position)")


def _checked(infos: Mapping[str, CardInfo], data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` with its defaults filled in, checked against the schema and `check_fit`."""
    checked = check_position(data, _schema(), infos)  # the kit remembers positions that passed
    check_fit(infos, checked)
    return checked


@functools.cache
def _schema() -> dict[str, Any]:
    return position_schema.schema()


def _build(infos: Mapping[str, CardInfo], data: Mapping[str, Any], turn_cap: int, chance: Chance,
           make: Callable[[Table, Chance], S]) -> S:
    r = _Reader(infos, data, turn_cap)
    s = make(r.table, chance)
    _fill(s, r, data)
    if s.end_reason:
        return s
    if s.dec is None:
        settle(s)
    else:
        s._legal = compute_legal(s)
    s.rec.take()
    return s


def _fill(s: "Board", r: _Reader, data: Mapping[str, Any]) -> None:
    s.turn = int(data.get("turn", 1))
    s.priority = int(data.get("priority", 0))
    s.stage = data["stage"]
    s.stage_i = int(data.get("stage_step", 0))
    dec = data.get("decision")
    if dec:
        s.dec = dec["kind"]
        s.current_player = int(dec["seat"])
    result = data.get("result")
    if result:
        s.winner, s.end_reason = result.get("winner"), str(result["reason"])
    s.star = r.take_solar(data["star"], "star") if data.get("star") else -1
    s.black_hole = bool(data.get("black_hole", False))
    for i, pl in enumerate((data.get("planets") or [])[:POSITIONS]):
        if pl:
            s.planet[i] = r.take_solar(pl["card"], f"planets[{i}]")
            s.ctrl[i] = -1 if pl.get("controller") is None else int(pl["controller"])
            b = pl.get("building")
            if b:
                s.bldg[i] = r.take(int(b.get("owner", s.ctrl[i] if s.ctrl[i] >= 0 else 0)), b["card"], f"planets[{i}].building")
    s.removed = [r.take_solar(c, "removed") for c in data.get("removed") or []]
    s.flare = [int(x) - 1 for x in data.get("flare") or []]
    s.swarm = [(int(x["position"]) - 1, int(x["bonus"])) for x in data.get("swarm") or []]
    for p, pd in enumerate(r.players):
        s.hand[p] = r.zone(p, "hand")
        s.deck[p] = r.zone(p, "deck")[::-1]
        s.disc[p] = r.zone(p, "discard")
        s.events[p] = r.zone(p, "events")
        for k, sh in enumerate(pd.get("ships") or []):
            inst = r.take(p, sh["card"], f"players[{p}].ships[{k}]")
            s.ships[p].append(inst)
            s.at[inst] = -1 if sh.get("at") is None else int(sh["at"]) - 1
            s.dmg[inst] = dmg = int(sh.get("damage", 0))
            armour = s.t.info[inst].armour
            if not 0 <= dmg < armour:  # at its armour a ship is destroyed, not in play
                raise PositionError(f"players[{p}].ships[{k}].damage is {dmg}: a {sh['card']} in play has "
                                    f"0 to {armour - 1} damage")
            if sh.get("shield"):
                s.gaze[inst] = int(sh["shield"])
        s.played[p] = frozenset(pd.get("played") or ())
        s.ev_done[p] = bool(pd.get("event_played", False))
        s.sp_done[p] = bool(pd.get("spell_played", False))
        s.cannon_done[p] = bool(pd.get("cannon_fired", False))
    s.table_changed()
    if data.get("pick"):
        s.pick = _pick(s, data["pick"])
    if data.get("combat"):
        _combat(s, data["combat"])


def _ship(s: "Board", ref: Any) -> int:
    if ref is None:
        return -1
    seat, zone, k = ref
    return (s.ships if zone == "ships" else s.disc)[int(seat)][int(k)]


def _pick(s: "Board", d: Mapping[str, Any]) -> Pick:
    return Pick(str(d["kind"]), int(d["seat"]), int(d["left"]), CLASS_NAMES.index(d.get("max_class", "battleship")),
                bool(d.get("may_stop", False)), tuple(_ship(s, c) for c in d.get("chosen") or ()),
                str(d.get("then", "construct")), int(d.get("amount", 0)))


def _combat(s: "Board", c: Mapping[str, Any]) -> None:
    s.cpending = [int(x) - 1 for x in c.get("pending") or []]
    s.cpos = -1 if c.get("position") is None else int(c["position"]) - 1
    s.cstage = c.get("step", "effects" if s.cpos >= 0 else "next")
    s.cfx = [(int(e["seat"]), int(e["amount"]), str(e["target"]), str(e["source"]), bool(e["engaged"]))
             for e in c.get("effects") or []]
    s.point = [_ship(s, x) for x in c.get("point") or (None, None)]
    s.point_max = [-1 if x is None else CLASS_NAMES.index(x) for x in c.get("new_point_max") or (None, None)]
    s.cshots, s.cfirst, s.catt = int(c.get("shots", 0)), int(c.get("first", 0)), int(c.get("attacker", 0))
    s.pd_amt = int(c.get("damage_left", 0))
    s.pd_forced = _ship(s, c.get("forced"))
    s.cwinner = -1 if c.get("winner") is None else int(c["winner"])
    s.cprev = -1 if c.get("previous_controller") is None else int(c["previous_controller"])
    s.swarm_i = int(c.get("swarm_step", 0))
    if s.cpos >= 0:
        s.cf = [s.fleet_at(0, s.cpos), s.fleet_at(1, s.cpos)]
