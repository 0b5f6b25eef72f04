"""Solar Empires test situations written as positions, played through the public game API only.

`table(...)` writes a position (the YAML a designer would write, as a dict); `start(pos, rolls=...)`
reads it with scripted dice; `act(s, verb, card)` takes the legal action of that verb naming that
card; `view(s)` is the state's position (what the tests assert on).
"""

from __future__ import annotations

from typing import Any, Iterable

from cardsmith import ScriptedChance
from cardsmith.games import solar_empires as se
from cardsmith.sets.model import Card, KeywordUse, frozen_map

from solar_fixture import solar_set

# Two cards only tests use: a world rich enough to pay for any card (so a test about an effect is not
# about its cost) and a ship no attack can hurt (for the shot cap).
EDEN = Card(id="test-eden", name="Test Eden", type="solar_body",
            fields=frozen_map({"plus_energy": 4, "plus_minerals": 4, "plus_organics": 4}))
BULWARK = Card(id="test-bulwark", name="Test Bulwark", type="ship", race="terracorp",
               fields=frozen_map({"class": "battleship", "attack": 0, "armour": 10, "energy": 1, "minerals": 1,
                                  "organics": 1}), keywords=(KeywordUse("shield", 9),))
CS = solar_set(turn_cap=40, extra=[EDEN, BULWARK])
GAME = se.make_game(CS)
ARMOUR = {c.id: int(c.fields.get("armour") or 0) for c in CS.cards}

PLANETS = ["terra-like-world", "gas-giant", "asteroid-belt", "volcanic-world", "starbase", "ringed-planet"]
DECK0 = ["tcs-13-rapier"] * 8
DECK1 = ["infected-rapier"] * 8


def table(*, priority: int = 0, stage: str = "construct1", step: int = 0, turn: int = 1,
          planets: list | None = None, star: str | None = "sol-like-star", control: dict | None = None,
          buildings: dict | None = None, hands: tuple = (["tcs-13-rapier"], ["infected-rapier"]),
          decks: tuple = (DECK0, DECK1), discards: tuple = ((), ()), events: tuple = ((), ()),
          ships: tuple = ((), ()), combat: Iterable[int] | None = None, black_hole: bool = False,
          **extra: Any) -> dict:
    """A position. `ships[p]` items: card id, or (card, at) or (card, at, damage); `control` maps a
    position (1-6) to a seat; `buildings` maps a position to (card, owner); `combat`: the planets
    where combats are pending (with `stage="combat"`)."""
    planets = list(PLANETS if planets is None else planets)
    control = control or {}
    buildings = buildings or {}
    pos: dict[str, Any] = {
        "game": "solar_empires", "format": 1, "seats": 2, "turn": turn, "priority": priority, "stage": stage,
        "stage_step": step, "decision": None, "star": star, "black_hole": black_hole,
        "planets": [None if c is None else {
            "card": c, "controller": control.get(k + 1),
            "building": None if k + 1 not in buildings else {"card": buildings[k + 1][0], "owner": buildings[k + 1][1]}}
            for k, c in enumerate(planets)],
        "players": [{"hand": list(hands[p]), "deck": list(decks[p]), "discard": list(discards[p]),
                     "events": list(events[p]), "ships": [_ship(x) for x in ships[p]]} for p in (0, 1)],
    }
    if combat is not None:
        pos["combat"] = {"pending": list(combat)}
    pos.update(extra)
    return pos


def _ship(x: Any) -> dict:
    if isinstance(x, str):
        return {"card": x, "at": None, "damage": 0}
    return {"card": x[0], "at": x[1], "damage": x[2] if len(x) > 2 else 0}


def start(pos: dict, rolls: Iterable[int] = (), picks: Iterable[int] = (), game: Any = None) -> Any:
    """The state the position describes, run on to its first decision; dice after `rolls` are seeded."""
    return (game or GAME).from_position(pos, chance=ScriptedChance(rolls=rolls, picks=picks, fallback=7))


def view(s: Any) -> dict:
    return s.position()


def act(s: Any, verb: str, *args: Any) -> tuple:
    """Apply the legal action of `verb` whose other parts include each of `args` (a card id, a
    position...); the first such action (copies alike are offered once)."""
    for a in s.legal_actions():
        if a[0] == verb and all(x in a[1:] for x in args):
            s.apply(a)
            return a
    raise AssertionError(f"no legal {verb} {args} in {s.legal_actions()}")


def lines(s: Any, text: str) -> list[str]:
    return [line for line in s.log if text in line]


def decision(s: Any) -> tuple[str | None, int | None]:
    d = view(s)["decision"]
    return (None, None) if d is None else (d["kind"], d["seat"])


def ship_cards(s: Any, p: int) -> list[str]:
    return [x["card"] for x in view(s)["players"][p]["ships"]]


def ship(s: Any, p: int, cid: str) -> dict:
    return next(x for x in view(s)["players"][p]["ships"] if x["card"] == cid)


def controller(s: Any, position: int) -> int | None:
    pl = view(s)["planets"][position - 1]
    return None if pl is None else pl["controller"]


def building(s: Any, position: int) -> str | None:
    pl = view(s)["planets"][position - 1]
    return None if pl is None or pl["building"] is None else pl["building"]["card"]


def point_card(s: Any, seat: int) -> str:
    v = view(s)
    seat_, zone, k = v["combat"]["point"][seat]
    return v["players"][seat_][zone][k]["card"] if zone == "ships" else v["players"][seat_][zone][k]


def rich(seat: int, position: int = 6) -> dict:
    """`control` and `planets` entries giving `seat` support to pay for any card (Test Eden)."""
    planets = list(PLANETS)
    planets[position - 1] = "test-eden"
    return {"planets": planets, "control": {position: seat}}
