"""Force totals: "population tokens in stack + force card value + other race & card effects"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import cardsmith.games.alien_empires.powers as P

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.state import AlienState


def other_side(side: str) -> str:
    return "D" if side == "A" else "A"


def role_of(side: str | None) -> str:
    return "attack" if side == "A" else "defend"


def primary(c: dict, side: str) -> int:
    return int(c["attacker"] if side == "A" else c["defender"])


# Each primary's handlers by side ("A", "D"): `handlers_by_side`.
BySide = dict[str, frozenset[str]]


def handlers_by_side(st: "AlienState") -> BySide:
    """Each primary's handlers (`P.handlers`) by side, "A" and "D": the outcome reads them about nine
    times a conflict and nothing in it cancels or borrows a power, so they are looked up once."""
    c = st.conflict
    assert c is not None
    return {"A": P.handlers(st, c["attacker"]), "D": P.handlers(st, c["defender"])}


def side_parts(st: "AlienState", side: str, does_of: BySide | None = None) -> tuple[dict[str, int], int | None]:
    """A side's force by its parts (the `result` event's `parts`; docs/rules/alien-empires.md), and
    the lowest Force card revealed or None. `does_of`: `handlers_by_side`, when known."""
    c, does, jinxed, (p, o, own, tokens, own_force) = _sided(st, side, does_of)
    jinx = _jinxed(st, o, own, tokens, own_force) if jinxed else 0
    parts = {"tokens": own_force(own), "allies' tokens": tokens - own,
             "jinx": -jinx, "card effects": c["bonus"][side]}
    values = _card_values(st, c, p)
    parts["force cards"] = sum(values)
    parts["doubled force cards"] = sum(values[:_doubles(st, c, side, p, does)]) if values else 0
    below = sum(parts.values())
    parts["no lower than 0"] = -below if below < 0 else 0
    return parts, (values[-1] if values else None)


def side_force(st: "AlienState", side: str, does_of: BySide | None = None) -> tuple[int, int | None]:
    """`side_parts`' total and lowest card, without naming the parts: a muted game's conflicts
    read only these two (27 a game, both sides)."""
    c, does, jinxed, (p, o, own, tokens, own_force) = _sided(st, side, does_of)
    total = own_force(own) + tokens - own + c["bonus"][side]
    if jinxed:
        total -= _jinxed(st, o, own, tokens, own_force)
    values = _card_values(st, c, p)
    if values:
        total += sum(values) + sum(values[:_doubles(st, c, side, p, does)])
    return (total if total > 0 else 0), (values[-1] if values else None)


def _sided(st: "AlienState", side: str, does_of: BySide | None) -> tuple[dict, frozenset[str], bool, tuple]:
    """What `side_parts` and `side_force` both start from: the conflict, the side's primary's
    handlers, whether the opponent has Jinx, and `_side`'s figures."""
    c = st.conflict
    assert c is not None
    if does_of is None:
        does_of = handlers_by_side(st)
    does = does_of[side]
    return c, does, "jinx" in does_of[other_side(side)], _side(st, c, side, does)


def _side(st: "AlienState", c: dict, side: str, does: frozenset[str]) -> tuple[int, int, int, int, Callable[[int], int]]:
    """A side's primary and its opponent, the primary's own tokens taking part and the side's (its
    allies' too) and what its own tokens are worth (`_own_force`; `does`: the primary's handlers)."""
    p, o = (c["attacker"], c["defender"]) if side == "A" else (c["defender"], c["attacker"])
    commit, sides = c["commit"], c["side"]
    own = tokens = sum(commit[p].values())
    if sides.count(side) > 1:  # (allies: never at 2 seats)
        for s, x in enumerate(sides):  # (the primary's own, plus its allies')
            if x == side and s != p:
                tokens += sum(commit[s].values())
    return p, o, own, tokens, _own_force(st, c, side, p, does)


def _jinxed(st: "AlienState", o: int, own: int, tokens: int, own_force: Callable[[int], int]) -> int:
    """The Force the opponent's Jinx takes off: "One of opponents tokens is Force = 0", so the
    jinxed token loses all it is worth (the jinxer picks the one worth most), not a single point.
    Asked only when the opponent `o` has Jinx."""
    jinx = min(tokens, P.amount(st, o, "jinx"))
    if not jinx:
        return 0
    return max(own_force(own) - own_force(own - k) + (jinx - k)
               for k in range(max(0, jinx - (tokens - own)), min(jinx, own) + 1))


def _card_values(st: "AlienState", c: dict, p: int) -> list[int]:
    """The values of the Force cards the primary revealed, highest first."""
    revealed = c["reveal"][p]
    if not revealed:
        return []
    cards = st.table.cards
    return sorted([cards[x].value for x in revealed], reverse=True)


def _doubles(st: "AlienState", c: dict, side: str, p: int, does: frozenset[str]) -> int:
    """How many of the side's Force cards count twice (Double Force Events and the race power)."""
    doubles = int(c["flags"][side].get("doubles", 0))
    if "double_force_card" in does:
        doubles += sum(1 for _ in P.effects(st, p, "double_force_card"))
    return doubles


def _plain(n: int) -> int:
    return n


def _own_force(st: "AlienState", c: dict, side: str, p: int, does: frozenset[str]) -> Callable[[int], int]:
    """What `n` of the primary's own tokens are worth: 1 each, plus Martyr's and Token Force's per
    token and Pair Force's per pair (most conflicts have none of them: then `n` itself)."""
    flags = c["flags"][side]
    if "martyr" not in flags and "token_force" not in does and "pair_force" not in does:
        return _plain
    per_token = int(flags.get("martyr", 0))
    if "token_force" in does:
        where = "world" if st.map.index(c["hex"]) in st.worlds else "space"
        per_token += P.amount(st, p, "token_force", side=role_of(side), where=where)
    pairs = [(max(1, int(x.get("per", 2))), int(x.get("amount", 1))) for x in P.effects(st, p, "pair_force")] \
        if "pair_force" in does else []
    if not per_token and not pairs:
        return _plain

    def own_force(n: int) -> int:
        return n * (1 + per_token) + sum(n // per * amount for per, amount in pairs)
    return own_force


def winner_side(totals: dict[str, tuple[int, int | None]], does_of: BySide) -> str:
    """The higher total wins; a tie goes to the defender. Minimalist (either primary's): the side
    with the lowest Force card wins (a side that revealed none cannot have the lowest)."""
    if "minimalist" in does_of["A"] or "minimalist" in does_of["D"]:
        la, ld = totals["A"][1], totals["D"][1]
        if la is not None or ld is not None:
            if ld is None:
                return "A"
            if la is None:
                return "D"
            return "A" if la < ld else "D"
    return "A" if totals["A"][0] > totals["D"][0] else "D"
