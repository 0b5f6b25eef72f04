"""How good a TRF position is for a seat: the game's heuristic (greedy look-ahead, search rollouts)
and the fight odds the players reason with. It counts progress towards TRF's own victory, not only
material: planets held and a homeworld left bare, an attack's unblocked fleets and the planets they
threaten, the expected outcome of the fights about to be rolled, the captures assigned.
"""

from __future__ import annotations

from typing import Any, Iterable

from cardsmith.games.trf.board import Board
from cardsmith.games.trf.fights import BICKER_MAX, capturable, planet_value, side_total


def _win_table() -> dict[int, float]:
    """P(attacker's d6 + diff beats defender's d6), ties rolled again, for each combat difference."""
    out = {}
    for diff in range(-7, 8):
        win = sum(1 for a in range(1, 7) for d in range(1, 7) if a + diff > d)
        lose = sum(1 for a in range(1, 7) for d in range(1, 7) if a + diff < d)
        out[diff] = win / (win + lose) if win + lose else 0.5
    return out


_WIN = _win_table()
DECISIVE = 1 - BICKER_MAX / 6  # the share of fights rolled that do not bicker


def win_chance(diff: int) -> float:
    """The chance that the side `diff` combat ahead wins a fight (when it is decided)."""
    return _WIN[max(-7, min(7, diff))]


ATTACK_PHASES = frozenset(("declare", "block", "combat", "capture"))


def heuristic(s: Board, seat: int) -> float:
    """Mine minus the opponent's (module docstring); a finished game is +-1000 or 0."""
    d = s.d
    if d["end"] is not None:
        w = d["winner"]
        return 0.0 if w is None else (1000.0 if w == seat else -1000.0)
    infos = s.g.infos
    value = [0.0, 0.0]
    for c in d["chars"]:
        value[c["owner"]] += worth(infos[c["card"]])
    for side in (0, 1):
        p = d["p"][side]
        value[side] += sum(planet_score(s, pl) for pl in p["planets"]) + 0.5 * len(p["hand"])
        if all(pl["home"] for pl in p["planets"]):
            value[side] -= 3.0  # nothing left to shield the homeworld
    if d["phase"] in ATTACK_PHASES:
        value[d["active"]] += attack_progress(s)
    return value[seat] - value[1 - seat]


CAPTURE_WEIGHT = 2.0  # fleets' capture is what wins and most of it cannot come back


def worth(info: Any) -> float:
    """A character in play: its combat and (weighted) its capture."""
    return info.combat + CAPTURE_WEIGHT * info.capture


def planet_score(s: Board, planet: dict[str, Any]) -> float:
    return 3.0 + s.g.infos[planet["card"]].meters / 100


def attack_progress(s: Board) -> float:
    """The active seat's attack before it is rolled, for the attacker: a small bonus for attacking,
    the expected material of the fights blocked, the planet its unblocked fleets threaten (the
    homeworld: the game), and the planets its assigned fleets take."""
    d, infos = s.d, s.g.infos
    att = d["active"]
    alive = {c["uid"]: c for c in d["chars"]}
    progress = 0.25
    if d["phase"] == "block":
        for leader in d["declared"]:
            blockers = [b for b, x in d["blocks"] if x == leader]
            if blockers and leader in alive:
                fight = {"seats": [att, 1 - att], "att": s.unit(leader), "def": [u for b in blockers for u in s.unit(b)],
                         "bonus": [0, 0]}
                progress += fight_value(s, fight, alive)
    elif d["phase"] == "combat":
        for fight in d["fights"]:
            sign = 1.0 if fight["seats"][0] == att else -1.0
            progress += sign * fight_value(s, fight, alive)
    if d["phase"] == "capture":
        progress += _assigned(s, alive)
    else:
        blocked = {x for _, x in d["blocks"]}
        fleets = [alive[u] for u in d["declared"] if u in alive and u not in blocked]
        total = sum(infos[c["card"]].capture + d["capture_bonus"] for c in fleets if infos[c["card"]].fleeter)
        progress += 0.1 * total + 0.8 * threatened(s, total)
    return progress


def fight_value(s: Board, fight: dict[str, Any], alive: dict[int, Any]) -> float:
    """The expected material the fight's first side gains (what it kills less what it loses)."""
    infos = s.g.infos
    p = win_chance(side_total(s, fight, 0) - side_total(s, fight, 1))

    def side(uids: Iterable[int]) -> float:
        return sum(worth(infos[alive[u]["card"]]) for u in uids if u in alive)
    return DECISIVE * (p * side(fight["def"]) - (1 - p) * side(fight["att"]))


def threatened(s: Board, total: int) -> float:
    """The best planet (by score; the homeworld: the game) a capture total could take now."""
    foe = 1 - s.d["active"]
    open_ = set(capturable(s))
    best = 0.0
    for pl in s.d["p"][foe]["planets"]:
        if pl["uid"] in open_ and total >= planet_value(s, foe, pl):
            best = max(best, 50.0 if pl["home"] else planet_score(s, pl))
    return best


def _assigned(s: Board, alive: dict[int, Any]) -> float:
    d, infos = s.d, s.g.infos
    sent: dict[int, int] = {}
    for u, pl in d["assign"]:
        if u in alive:
            sent[pl] = sent.get(pl, 0) + infos[alive[u]["card"]].capture + d["capture_bonus"]
    foe, out = 1 - d["active"], 0.0
    for pl in d["p"][foe]["planets"]:
        if pl["uid"] in sent and sent[pl["uid"]] >= planet_value(s, foe, pl):
            out += 50.0 if pl["home"] else 0.9 * planet_score(s, pl)
    return out
