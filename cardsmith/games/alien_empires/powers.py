"""Race powers: which a seat has now, their numbers, and which the rules play.

A seat's powers are the effects of the Race cards of its Racial Destiny, less those cancelled in
the current conflict (Neutralize, Null Field) and plus those it borrowed there (Emulate, Copycat).
`IMPLEMENTED` names the handlers the rules play; a Race card with any other handler is left out of
the common deck when a game starts (and `RULES.validate` warns about it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping, Protocol

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.cards import CardTable

# Handlers the rules play, by the phase where they act (docs/rules/alien-empires.md has each reading).
IMPLEMENTED = frozenset({
    # numbers
    "token_force", "pair_force", "move_range", "move_times", "genesis", "hand_size", "fate_draw", "unlimited_attacks",
    "conflict_draw", "force_card_limit", "jinx", "win_tokens", "win_draw", "double_force_card", "ally_range",
    # rules
    "discard_for_force", "conflict_discard", "neutralize", "sacrifice_discard", "spies", "sacrifice_draw", "emulate",
    "copycat", "booby_trap", "resurrection", "rearguard", "mind_control", "opportunists", "reinforcement", "escape",
    "gatherer", "breeder", "projection", "martyr", "precognition", "repulsion", "anarchy", "minimalist", "pacifist",
    "second_chance", "clean_slate", "lose_steal", "diplomat", "deporter", "trader", "inconspicuous", "foundation",
    "distress_call", "toll_keeper", "contraceptives", "plea_maker", "propagandist", "time_control", "assassination",
    "worldships", "psychic", "feedback", "strategy", "contagion", "teaser",
})
# Why a handler is not played (none now: all 65 Race powers are); validate quotes it for a set's own handlers.
NOT_IMPLEMENTED_WHY: dict[str, str] = {}


class _Numbers(Protocol):
    hand: int
    move: int


class Powered(Protocol):
    """What the powers read of a game (`state.AlienState`): a protocol, not the state class, since the
    state asks this module (`sees_hand`) and data flows one way, from the rules to the state."""

    static: int
    destiny: list[list[str]]
    does: list[frozenset[str]]
    conflict: dict[str, Any] | None
    turnstate: dict[str, Any]

    @property
    def table(self) -> CardTable: ...

    @property
    def settings(self) -> _Numbers: ...

    def alive(self) -> list[int]: ...


def playable(effects: tuple[Mapping[str, Any], ...]) -> bool:
    """True when the rules play every effect of a Race card."""
    return all(str(e.get("do", "")) in IMPLEMENTED for e in effects)


def active_cards(st: Powered, seat: int) -> list[str]:
    """The Race cards whose powers `seat` may use now."""
    c = st.conflict
    if c is None or not (c["cancelled"][seat] or c["borrowed"][seat]):
        return st.destiny[seat]  # (most conflicts cancel and borrow nothing: no copy to make)
    cards = list(st.destiny[seat])
    cancelled = c["cancelled"][seat]
    if "*" in cancelled:
        cards = []
    else:
        cards = [x for x in cards if x not in cancelled]
    cards += [x for x in c["borrowed"][seat] if x not in cards]
    return cards


# (game key, active cards...) -> every handler they name: the rules ask "does this seat have X?"
# tens of thousands of times a second in a search, almost always about the same three cards.
_DOES: dict[tuple, frozenset[str]] = {}


def handlers(st: Powered, seat: int) -> frozenset[str]:
    """Every handler of the Race cards `seat` may use now."""
    c = st.conflict
    if c is None or not (c["cancelled"][seat] or c["borrowed"][seat]):
        return st.does[seat]  # (the Racial Destiny's, kept by the state: asked a few thousand times a game)
    return cards_handlers(st, active_cards(st, seat))


def cards_handlers(st: Powered, cards: list[str]) -> frozenset[str]:
    """Every handler the Race cards `cards` name."""
    key = (st.static, *cards)
    got = _DOES.get(key)
    if got is None:
        table = st.table.cards
        got = _DOES[key] = frozenset(d for cid in cards for d in table[cid].does)
    return got


def effects(st: Powered, seat: int, do: str) -> Iterator[Mapping[str, Any]]:
    """Every active effect of `seat` with handler `do`."""
    if do not in handlers(st, seat):
        return iter(())
    return _effects(st, seat, do)


def _effects(st: Powered, seat: int, do: str) -> Iterator[Mapping[str, Any]]:
    """`effects` once `do` is known to be among the seat's handlers."""
    table = st.table.cards
    for cid in active_cards(st, seat):
        info = table[cid]
        if do in info.does:
            for e in info.effects:
                if e.get("do") == do:
                    yield e


def has(st: Powered, seat: int, do: str) -> bool:
    """True when `seat` may use a power with handler `do` now."""
    if st.conflict is None:  # (`handlers` outside a conflict, without the call: asked ~500 times a game)
        return do in st.does[seat]
    return do in handlers(st, seat)


def anyone(st: Powered, do: str) -> bool:
    """False when surely no seat may use `do` now: outside a conflict, no Racial Destiny names it
    (a conflict may cancel or borrow powers: then True, and the caller asks each seat)."""
    if st.conflict is not None:
        return True
    for does in st.does:
        if do in does:
            return True
    return False


def amount(st: Powered, seat: int, do: str, key: str = "amount", **match: Any) -> int:
    """The sum of `key` over `seat`'s active `do` effects whose parameters match `match`."""
    # (the active cards found once, and `_effects`' walk inline, no generator: ~140 a game)
    cards = active_cards(st, seat)
    # (`active_cards` hands back the Racial Destiny itself when nothing is cancelled or borrowed)
    if do not in (st.does[seat] if cards is st.destiny[seat] else cards_handlers(st, cards)):
        return 0
    table = st.table.cards
    total = 0
    for cid in cards:
        info = table[cid]
        if do not in info.does:
            continue
        for e in info.effects:
            if e.get("do") != do:
                continue
            # (a plain loop, not `all` over a generator: Token Force asks with two matches in every
            # conflict it is in, and the generator cost more than the sum)
            for k, v in match.items():
                got = e.get(k, v)
                if got != v and got != "any":
                    break
            else:
                total += int(e.get(key, 0) or 0)
    return total


def hand_limit(st: Powered, seat: int) -> int:
    """The hand size: the setting, plus Memory, less every opponent's Scourge."""
    limit = st.settings.hand
    if not anyone(st, "hand_size"):  # (most games have no Memory or Scourge at all)
        return max(0, limit)
    if "hand_size" in handlers(st, seat):  # (asked only of seats with the power: the same sum)
        limit += amount(st, seat, "hand_size", who="self")
    for other in st.alive():
        if other != seat and "hand_size" in handlers(st, other):
            limit += amount(st, other, "hand_size", who="opponents")
    return max(0, limit)


def move_range(st: Powered, seat: int, does: frozenset[str] | None = None) -> int:
    """Spaces a token may move: the setting plus Traveler (+2), Mass (-1) and this turn's Hyperspace
    Lanes, times Tachyonic Travel's moves; at least 1. `does`: the seat's `handlers`, when known."""
    if does is None:
        does = handlers(st, seat)
    if "move_range" not in does and "move_times" not in does:
        return max(1, st.settings.move + int(st.turnstate.get("range_bonus", 0)))
    reach = st.settings.move + amount(st, seat, "move_range") + int(st.turnstate.get("range_bonus", 0))
    times = max([1] + [int(e.get("amount", 1)) for e in effects(st, seat, "move_times")])
    return max(1, reach) * times


def sees_hand(st: Powered, seat: int, other: int) -> bool:
    """Spies: in a conflict, a primary player with Spies sees the opposing primary's hand once the
    defender has drawn his card."""
    c = st.conflict
    if c is None or seat == other or not c.get("drawn"):
        return False
    primaries = (c["attacker"], c["defender"])
    return seat in primaries and other in primaries and has(st, seat, "spies")
