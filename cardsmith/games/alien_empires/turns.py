"""Setup and the first three phases of a turn: Fate, Genesis, Migration; turn order and Time Control.

The Conflict phase is in conflict.py. Every choice is a decision on the state's stack (see the
module docstring of state.py); docs/rules/alien-empires.md gives the readings these steps follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import cardsmith.games.alien_empires.powers as P
from cardsmith.games.alien_empires.manoeuvres import counts as _counts, moved, toll_blocked
from cardsmith.games.alien_empires.state import STEPS

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.state import AlienState

Entry = dict[str, Any]


def lbl(st: "AlienState", h: int) -> str:
    return st.map.labels[h]


def hx(st: "AlienState", label: str) -> int:
    return st.map.index(label)


# ---- setup -----------------------------------------------------------------------------------
def roll_order(st: "AlienState") -> list[int]:
    """"All players roll 1D10. Reroll ties.": the highest roll first; tied players roll again among
    themselves until their order is settled."""
    return _rank(st, list(range(st.seats)))


def _rank(st: "AlienState", group: list[int]) -> list[int]:
    # (a module function, not a closure over `st` that calls itself: that is a reference cycle,
    # which kept every finished game's state alive until the garbage collector came by)
    if len(group) == 1:
        return group
    rolls = {s: st.chance.roll(10, f"setup roll P{s}") for s in group}
    st.rec("roll", "setup rolls: " + ", ".join(f"P{s} {r}" for s, r in rolls.items()), rolls=dict(rolls))
    out: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        out += _rank(st, [s for s in group if rolls[s] == value])
    return out


def begin_setup(st: "AlienState") -> None:
    """Worlds at random, the d10 order, then (in that order) homeworlds, deals, Racial Destinies and
    discards; play then goes in the reverse order."""
    hexes = list(range(len(st.map)))
    st.chance.shuffle(hexes, "world placement", "public")
    worlds = list(st.settings.world_ids)
    st.worlds = {h: w for h, w in zip(hexes, worlds)}
    st.rec("worlds", "worlds placed: " + ", ".join(f"{w} {lbl(st, h)}" for h, w in sorted(st.worlds.items())))
    setup = roll_order(st)
    st.order = list(reversed(setup))
    st.rec("order", "setup order " + ", ".join(f"P{s}" for s in setup) + "; turn order " + ", ".join(f"P{s}" for s in st.order))
    st.push("@first_turn")
    for s in reversed(setup):
        st.push("@hand_limit", s)
    for s in reversed(setup):
        st.push("@destiny", s)
    st.push("@deal")
    for s in reversed(setup):
        st.push("homeworld", s)


def _homeworld_legal(st: "AlienState", e: Entry) -> tuple:
    return tuple(("homeworld", lbl(st, h)) for h in sorted(st.worlds) if not any(st.tokens[h]))


@STEPS.decision("homeworld", _homeworld_legal)
def _homeworld(st: "AlienState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    h = hx(st, action[1])
    st.add_tokens(h, e["seat"], st.settings.markers)
    st.rec("homeworld", f"P{e['seat']} takes {st.worlds[h]} ({action[1]}) as homeworld with {st.settings.markers} markers",
           seat=e["seat"], hex=action[1])


@STEPS.auto("@deal")
def _deal(st: "AlienState", e: Entry) -> None:
    for s in range(st.seats):
        st.draw(s, st.settings.hand, "starting hand")


def conflicts_with(st: "AlienState", card: str, chosen: list[str]) -> bool:
    return any((card, c) in st.settings.conflicting or (c, card) in st.settings.conflicting for c in chosen)


def _destiny_legal(st: "AlienState", e: Entry) -> tuple:
    chosen = st.destiny[e["seat"]]
    hand = st.hands[e["seat"]]
    return tuple(("destiny", c) for c in sorted(set(hand)) if st.table.kind(c) == "race"
                 and c not in chosen and not conflicts_with(st, c, chosen))


@STEPS.decision("destiny", _destiny_legal)
def _destiny(st: "AlienState", e: Entry, action: tuple) -> None:
    """Play one Race card face up into the Racial Destiny."""
    st.stack.pop()
    seat, card = e["seat"], action[1]
    st.hands[seat].remove(card)
    st.destiny[seat].append(card)
    st.destiny_changed()
    st.rec("destiny", f"P{seat} plays {st.table[card].name} into its Racial Destiny", seat=seat, card=card)
    st.push("@destiny", seat)


@STEPS.auto("@destiny")
def _fill_destiny(st: "AlienState", e: Entry) -> None:
    """With fewer than 3 Race cards played and none left to play, draw until one comes (Race cards
    that conflict with those already played are discarded as they come); then play one."""
    seat = e["seat"]
    if len(st.destiny[seat]) >= st.settings.destiny:
        return
    while not _destiny_legal(st, {"seat": seat}):
        if not st.deck:  # no reshuffle here: a discarded conflicting card would come straight back
            return
        got = st.draw(seat, 1, "Racial Destiny")
        card = got[0]
        if st.table.kind(card) == "race" and conflicts_with(st, card, st.destiny[seat]):
            st.discard_card(seat, card)
            st.rec("discard", f"P{seat} discards {st.table[card].name}: it conflicts with its Racial Destiny", seat=seat)
    st.push("destiny", seat)


@STEPS.auto("@hand_limit")
def _hand_limit(st: "AlienState", e: Entry) -> None:
    seat = e["seat"]
    if seat == -1:
        seat = st.seat
    excess = len(st.hands[seat]) - P.hand_limit(st, seat)
    if excess > 0:
        st.push("discard", seat, count=excess, why="hand limit")


def _discard_legal(st: "AlienState", e: Entry) -> tuple:
    memo = st.discard_memo
    if memo is not None and memo[0] is e and memo[1]:
        return memo[2]  # worked out by the discard just made (`_discard`)
    acts = _DISCARDS.get(st.static)
    if acts is None:  # ("discard", card) for every card of the game: made once, not at every discard
        acts = _DISCARDS[st.static] = {c: ("discard", c) for c in st.table.cards}
    legal = tuple(map(acts.__getitem__, sorted(set(st.hands[e["seat"]]))))
    st.discard_memo = (e, False, legal)
    return legal


_DISCARDS: dict[int, dict[str, tuple[str, str]]] = {}


@STEPS.decision("discard", _discard_legal)
def _discard(st: "AlienState", e: Entry, action: tuple) -> None:
    seat, card = e["seat"], action[1]
    st.discard_card(seat, card)
    if st.loud:
        st.rec("discard", f"P{seat} discards {st.table[card].name} ({e.get('why', '')})", seat=seat, card=card)
    e["count"] -= 1
    if e["count"] <= 0 or not st.hands[seat]:
        st.stack.pop()
        st.discard_memo = None
        return
    # The next choice of this discard is the list just made, less the card when its last copy
    # went (a hand-limit discard of five cards lists once instead of five times).
    memo = st.discard_memo
    if memo is None or memo[0] is not e or memo[1]:
        st.discard_memo = None
        return
    legal = memo[2]
    if card not in st.hands[seat]:
        i = legal.index(action)
        legal = legal[:i] + legal[i + 1:]
    st.discard_memo = (e, True, legal)


@STEPS.auto("@first_turn")
def _first_turn(st: "AlienState", e: Entry) -> None:
    st.active = 0
    start_round(st)


# ---- turns -----------------------------------------------------------------------------------
@STEPS.on_empty
def next_turn(st: "AlienState") -> None:
    """The next player still in the game; a new round when the order wraps."""
    n = len(st.order)
    for step in range(1, n + 1):
        j = (st.active + step) % n
        if st.order[j] not in st.out:
            wrapped = j <= st.active
            st.active = j
            break
    st.turn += 1
    if wrapped:
        st.round += 1
        start_round(st)
    else:
        start_turn(st)


def start_round(st: "AlienState") -> None:
    """"At the beginning of the round you may change the turn order" (Time Control)."""
    st.turnstate = {"resurrected": []}
    out = st.out
    holders = [s for s in range(st.seats) if s not in out and P.has(st, s, "time_control")]
    st.push("@start_turn")
    for s in reversed(holders):
        st.push("time_control", s)


def _time_control_legal(st: "AlienState", e: Entry) -> tuple:
    return tuple(("first", s) for s in st.order if s not in st.out)


@STEPS.decision("time_control", _time_control_legal)
def _time_control(st: "AlienState", e: Entry, action: tuple) -> None:
    """The chosen player starts the round; the others follow in the same cyclic order."""
    st.stack.pop()
    i = st.order.index(action[1])
    st.order = st.order[i:] + st.order[:i]
    st.active = 0
    st.rec("time_control", f"P{e['seat']} (Time Control): P{action[1]} starts the round", seat=e["seat"], first=action[1])


@STEPS.auto("@start_turn")
def _start(st: "AlienState", e: Entry) -> None:
    start_turn(st)


def start_turn(st: "AlienState") -> None:
    if st.turn > st.settings.turn_cap:
        st.cap()
        return
    seat = st.seat
    keep = st.turnstate.get("resurrected", [])
    st.turnstate = {"moved": {}, "attacks": 0, "fought": [], "range_bonus": 0, "drawn": False, "used": [],
                    "resurrected": keep}
    if st.loud:
        st.rec("turn", f"-- turn {st.turn} (round {st.round}): P{seat} --", seat=seat, turn=st.turn)
    # (`push` eight times, as one list: every turn of every game)
    st.stack += [{"kind": "@end_turn"}, {"kind": "@strategy", "seat": seat}, {"kind": "attack", "seat": seat},
                 {"kind": "migrate", "seat": seat}, {"kind": "genesis", "seat": seat}, {"kind": "@genesis", "seat": seat},
                 {"kind": "@hand_limit", "seat": seat}, {"kind": "fate", "seat": seat}]


@STEPS.auto("@end_turn")
def _end_turn(st: "AlienState", e: Entry) -> None:
    st.check_end()


# ---- Fate ------------------------------------------------------------------------------------
def _fate_legal(st: "AlienState", e: Entry) -> tuple:
    seat, ts = e["seat"], st.turnstate
    plain = _ONLY_DONE if ts["drawn"] else _DONE_OR_DRAW
    events, does = st.table.events["fate"], P.handlers(st, seat)
    if events.isdisjoint(st.hands[seat]) and _FATE_POWERS.isdisjoint(does):
        return plain  # (most Fate phases: no Fate Event in hand and no Fate power)
    out: list[tuple] = list(plain)
    held = events.intersection(st.hands[seat])
    if held:
        table = st.table.cards
        for c in sorted(held):
            if table[c].does[0] == "add_tokens":
                out += [("play", c, lbl(st, h)) for h in st.colonised(seat)]
            else:
                out.append(("play", c))
    if _FATE_POWERS.isdisjoint(does):
        return tuple(out)
    hand = sorted(set(st.hands[seat]))
    if P.has(st, seat, "resurrection") and seat not in ts["resurrected"] and st.discard and st.total(seat) > 1:
        out.append(("resurrect",))
    others = [s for s in st.alive() if s != seat]
    if P.has(st, seat, "trader") and "trader" not in ts["used"]:
        out += [("trade", c, s) for c in hand for s in others if st.hands[s]]
    if P.has(st, seat, "foundation"):
        out += [("give", c, s) for c in hand for s in others]
    return tuple(out)


_FATE_POWERS = frozenset({"resurrection", "trader", "foundation"})  # the powers `_fate_legal` offers
_ONLY_DONE, _DONE_OR_DRAW = (("done",),), (("done",), ("draw",))


@STEPS.decision("fate", _fate_legal)
def _fate(st: "AlienState", e: Entry, action: tuple) -> None:
    seat, ts, what = e["seat"], st.turnstate, action[0]
    if what == "done":
        st.stack.pop()
    elif what == "draw":
        ts["drawn"] = True
        st.draw(seat, st.settings.fate_draw + P.amount(st, seat, "fate_draw"), "Fate")
        if P.has(st, seat, "psychic"):
            ts["psychic"] = max([7] + [int(x.get("amount", 7)) for x in P.effects(st, seat, "psychic")])
            st.rec("psychic", f"P{seat} (Psychic) looks at the top {ts['psychic']} cards of the deck", seat=seat)
    elif what == "play":
        play_event(st, seat, action[1], action[2:])
    elif what == "resurrect":
        sacrifice(st, seat, "Resurrection")
        ts["resurrected"].append(seat)
        card = st.discard.pop()
        st.hands[seat].append(card)
        st.rec("resurrect", f"P{seat} (Resurrection) takes {st.table[card].name} from the discard pile", seat=seat, card=card)
    elif what == "trade":
        ts["used"].append("trader")
        other = action[2]
        taken = st.random_card(other, "Trader")
        st.hands[seat].remove(action[1])
        st.hands[other].append(action[1])
        if taken is not None:
            st.hands[other].remove(taken)
            st.hands[seat].append(taken)
        st.rec("trade", f"P{seat} (Trader) switches a card with P{other}", seat=seat, other=other)
    elif what == "give":
        st.hands[seat].remove(action[1])
        st.hands[action[2]].append(action[1])
        if st.loud:
            st.rec("give", f"P{seat} (Foundation) gives P{action[2]} a card", seat=seat, other=action[2])


def sacrifice(st: "AlienState", seat: int, why: str) -> None:
    """"Sacrifice = Discard token": one token from the seat's largest stack not in a conflict (the
    largest stack of all when every one is in it)."""
    busy = set()
    if st.conflict is not None:
        busy = {hx(st, k) for k, n in st.conflict["commit"][seat].items() if n}
    stacks = sorted(st.stacks(seat), key=lambda h: (h in busy, -st.tokens[h][seat], h))
    if stacks:
        h = stacks[0]
        st.kill(h, seat, 1, f"sacrificed for {why}")
        if h in busy:
            c = st.conflict
            assert c is not None
            c["commit"][seat][lbl(st, h)] = min(c["commit"][seat][lbl(st, h)], st.tokens[h][seat])


def play_event(st: "AlienState", seat: int, card: str, args: tuple) -> None:
    """An Event of the Fate or Migration phase (conflict Events are in conflict.py)."""
    info = st.table[card]
    st.discard_card(seat, card)
    st.played[seat].append(card)
    eff = info.effects[0]
    do, n = eff["do"], int(eff.get("amount", 0) or 0)
    if st.loud:
        st.rec("event", f"P{seat} plays {info.name}", seat=seat, card=card)
    if do == "draw":
        st.draw(seat, n, info.name)
    elif do == "add_tokens":
        st.add_tokens(hx(st, args[0]), seat, n)
    elif do == "move_range":
        st.turnstate["range_bonus"] = st.turnstate.get("range_bonus", 0) + n
    elif do == "warp":
        src, dst = hx(st, args[0]), hx(st, args[1])
        moving = st.tokens[src][seat]
        st.move_tokens(seat, src, dst, moving)
        moved = st.turnstate["moved"]
        moved[args[1]] = moved.get(args[1], 0) + moving
        moved.pop(args[0], None)


# ---- Genesis ---------------------------------------------------------------------------------
@STEPS.auto("@genesis")
def _genesis(st: "AlienState", e: Entry) -> None:
    """Each world the active player has colonised gains 1 token (Hive Society: 2), unless an
    opponent with Contraceptives has tokens on it."""
    seat = e["seat"]
    per = max([1] + [int(x.get("amount", 1)) for x in P.effects(st, seat, "genesis")]) if P.has(st, seat, "genesis") else 1
    rows = st.tokens
    # (`colonised`, unsorted: the order of growth matters only to the log line)
    grown = st.held[seat].intersection(st.worlds)
    if P.anyone(st, "contraceptives"):
        out = st.out
        blockers = [s for s in range(st.seats) if s != seat and s not in out and "contraceptives" in P.handlers(st, s)]
        if blockers:
            grown = {h for h in grown if not any(rows[h][b] for b in blockers)}
    for h in grown:
        rows[h][seat] += per  # (`add_tokens`: the seat holds the world already)
    if grown and st.loud:
        names = [st.map.labels[h] for h in sorted(grown)]
        st.rec("genesis", f"P{seat}'s colonies grow: {', '.join(names)} (+{per} each)", seat=seat, hexes=names, each=per)


def _breed_legal(st: "AlienState", e: Entry) -> tuple:
    seat = e["seat"]
    if not P.has(st, seat, "breeder") or "breeder" in st.turnstate["used"] or not st.hands[seat]:
        return (("done",),)
    worlds = st.colonised(seat)
    return (("done",),) + tuple(("breed", c, lbl(st, h)) for c in sorted(set(st.hands[seat])) for h in worlds)


@STEPS.decision("genesis", _breed_legal)
def _breed(st: "AlienState", e: Entry, action: tuple) -> None:
    """Breeder, once a turn in the Genesis phase: discard a card to add 2 tokens on a colonised world."""
    st.stack.pop()
    if action[0] == "breed":
        seat = e["seat"]
        st.turnstate["used"].append("breeder")
        st.discard_card(seat, action[1])
        n = max(int(x.get("amount", 2)) for x in P.effects(st, seat, "breeder"))
        st.add_tokens(hx(st, action[2]), seat, n)
        st.rec("breed", f"P{seat} (Breeder) discards a card: +{n} tokens at {action[2]}", seat=seat, hex=action[2])


# ---- Migration -------------------------------------------------------------------------------
def movable(st: "AlienState", seat: int, h: int) -> int:
    """Tokens of `seat` on hex `h` that have not moved this turn (none on a world an opponent with
    Toll Keeper shares)."""
    n = st.tokens[h][seat] - st.turnstate["moved"].get(st.map.labels[h], 0)
    if n <= 0:
        return 0
    return 0 if h in st.worlds and toll_blocked(st, seat, h) else n


def _migrate_legal(st: "AlienState", e: Entry) -> tuple:
    """`done`, a stack to move tokens from (`move_to` then says where and how many), a power's
    move or a Migration Event. Two steps rather than one list of every (stack, space, count): a
    look-ahead agent weighs a few stacks, then a few dozen moves, instead of hundreds."""
    seat = e["seat"]
    memo = st.free_memo
    if memo is not None and memo.entry is e and memo.ready:  # brought up to date by the move just made
        memo.ready = False
    else:
        memo = st.free_memo = FreeMemo(e, free_stacks(st, seat), st.table.events["migration"].intersection(st.hands[seat]),
                                       not _MOVE_POWERS.isdisjoint(st.does[seat]))
    out = memo.out
    if out is None:
        base = memo.base
        if base is None:  # `done`, then a choice of each free stack
            actions = _LABELLED.get((st.static, "stack")) or _labelled(st, "stack")
            base = memo.base = (_DONE, *map(actions.__getitem__, memo.free))
        powers = memo.powers
        if powers is None:
            powers = memo.powers = tuple(_power_moves(st, seat))
        out = memo.out = base + powers if powers else base
    held = memo.events
    if held:
        free = memo.free
        table = st.table.cards
        rows = st.tokens
        plays: list[tuple] = []
        for c in sorted(held):
            if table[c].does[0] == "warp":
                for h in free:
                    if movable(st, seat, h) == rows[h][seat]:
                        plays += _warps(st, c, h)
            else:
                plays.append(("play", c))
        out += tuple(plays)
    return out


_DONE = ("done",)
# (game key, what) -> (what, label) for every hex by index: the same actions every turn of every game.
_LABELLED: dict[tuple[int, str], tuple[tuple[str, str], ...]] = {}


def _labelled(st: "AlienState", what: str) -> tuple[tuple[str, str], ...]:
    got = _LABELLED.get((st.static, what))
    if got is None:
        got = _LABELLED[(st.static, what)] = tuple((what, lab) for lab in st.map.labels)
    return got


# (game key, hex, seat) -> Repulsion's moves of that seat's token from the hex to each neighbour.
_REPULSE: dict[tuple[int, int, int], tuple] = {}


def _repulses(st: "AlienState", h: int, s: int) -> tuple:
    got = _REPULSE.get((st.static, h, s))
    if got is None:
        labels = st.map.labels
        got = _REPULSE[(st.static, h, s)] = tuple(("repulse", labels[h], s, labels[d]) for d in st.map.adjacent[h])
    return got


# (game key, card, hex) -> a Warp Gate's plays from that hex to every other: the same lists each turn.
_WARPS: dict[tuple[int, str, int], tuple] = {}


def _warps(st: "AlienState", card: str, h: int) -> tuple:
    key = (st.static, card, h)
    got = _WARPS.get(key)
    if got is None:
        labels = st.map.labels
        got = _WARPS[key] = tuple(("play", card, labels[h], labels[d]) for d in range(len(labels)) if d != h)
    return got


# Race powers that add moves to the Migration phase (`_power_moves`).
_MOVE_POWERS = frozenset({"assassination", "projection", "repulsion", "deporter", "propagandist", "worldships"})


def free_stacks(st: "AlienState", seat: int) -> list[int]:
    """The hexes (in order) where `seat` has tokens free to move (`movable` for every hex at once)."""
    rows = st.tokens
    mine: Iterable[int] = sorted(st.held[seat])
    moved = st.turnstate["moved"]
    if moved:
        # A stack is spent when every token on it moved there this turn: only the hexes `moved`
        # names can be (a few), so look those up rather than every stack of the seat.
        at = st.map.at
        spent = [at[lab] for lab, k in moved.items() if rows[at[lab]][seat] <= k]
        if spent:
            mine = [h for h in mine if h not in spent]
    tolls = toll_keepers(st, seat)
    if tolls:
        worlds = st.worlds
        return [h for h in mine if not (h in worlds and any(rows[h][s] for s in tolls))]
    return list(mine)


def toll_keepers(st: "AlienState", seat: int) -> list[int]:
    """The opponents of `seat` with Toll Keeper (in Migration, outside any conflict: `does` is `P.handlers`)."""
    out, does = st.out, st.does
    return [s for s in range(st.seats) if s != seat and s not in out and "toll_keeper" in does[s]]


# (game key, hex, reach, free tokens) -> the moves of `_move_to_legal` without Gatherer, and the same
# as a dict (for `apply`'s test): the same few thousand lists come back every turn of every game. (A
# dict rather than a frozenset: the collector stops tracking a dict of plain tuples, where it would
# walk every frozenset kept here at each full collection.)
_MOVES: dict[tuple[int, int, int, int], tuple[tuple, dict]] = {}


def _move_to_legal(st: "AlienState", e: Entry) -> tuple:
    """Moves from the chosen stack: one, half or all of its free tokens to a space in range (with
    Gatherer, 3 more spaces to one world a turn)."""
    seat = e["seat"]
    does = st.does[seat]  # (`P.handlers`: Migration is outside any conflict, where no card is cancelled or borrowed)
    # The stack was just chosen in the Migration whose listing made or renewed `free_memo` (a clone
    # or a position starts without one): its range, worked out at the first move, holds for the phase.
    memo = st.free_memo
    reach = memo.reach if memo is not None else 0
    if not reach:
        if "move_range" in does or "move_times" in does:
            reach = P.move_range(st, seat, does)
        else:  # (`move_range` without the powers that change it)
            reach = max(1, st.settings.move + int(st.turnstate.get("range_bonus", 0)))
        if memo is not None:
            memo.reach = reach
    hmap = st.map
    src = e["src"]
    h = hmap.at[src]
    # (`movable`, with the label at hand)
    row = st.tokens[h]
    free = row[seat] - st.turnstate["moved"].get(src, 0)
    # (a Toll Keeper blocks only where another seat has tokens on the world)
    if free <= 0 or (h in st.worlds and sum(row) != row[seat] and toll_blocked(st, seat, h)):
        free = 0
    key = (st.static, h, reach, free)
    got = _MOVES.get(key)
    if got is None:
        if len(_MOVES) > 50_000:  # a bound on memory, far above what the bundled maps fill
            _MOVES.clear()
        labels, counts = hmap.labels, _counts(free)
        out = tuple(("move", src, labels[d], k) for d in hmap.within(h, reach) for k in counts)
        got = _MOVES[key] = (out, dict.fromkeys(out))
    out = got[0]
    gather = P.amount(st, seat, "gatherer") if "gatherer" in does else 0
    if not gather:
        st._lset = got  # (`apply` tests a move against the set while `out` is the kept list)
    else:
        labels, counts, worlds = hmap.labels, _counts(free), st.worlds
        target = st.turnstate.get("gatherer")
        out += tuple(("move", src, labels[d], k) for d in _ring(st, h, reach, gather)
                     if d in worlds and (target is None or target == labels[d]) for k in counts)
    return out


# (game key, hex, reach, more) -> the hexes beyond `reach` and within `reach + more` of the hex, in
# index order: Gatherer's extra spaces, the same every turn (only which of them are worlds varies).
_RINGS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _ring(st: "AlienState", h: int, reach: int, more: int) -> tuple[int, ...]:
    key = (st.static, h, reach, more)
    got = _RINGS.get(key)
    if got is None:
        hmap = st.map
        row = hmap.dist[h]
        got = _RINGS[key] = tuple(d for d in hmap.within(h, reach + more) if row[d] > reach)
    return got


def _enemies(st: "AlienState", seat: int) -> list[tuple[int, int]]:
    """(hex, seat) for every hex holding another player's tokens."""
    others = [s for s in st.alive() if s != seat]
    held = st.held
    out = [(h, s) for s in others for h in held[s]]
    out.sort()  # by hex, then seat: the order of a walk over the map
    return out


def _power_moves(st: "AlienState", seat: int) -> list[tuple]:
    used = st.turnstate["used"]
    out: list[tuple] = []
    does = st.does[seat]  # (`P.handlers` outside a conflict)
    labels, adjacent, worlds = st.map.labels, st.map.adjacent, st.worlds
    enemies: list[tuple[int, int]] | None = None  # `_enemies`, worked out once when a power asks
    if "assassination" in does and "assassination" not in used:
        enemies = _enemies(st, seat)
        out += [("assassinate", labels[h], s) for h, s in enemies]
    if "projection" in does and "projection" not in used and st.total(seat) >= 2:
        projects = _labelled(st, "project")
        out += [projects[h] for h in sorted(worlds)]
    if "repulsion" in does and used.count("repulsion") < P.amount(st, seat, "repulsion"):
        enemies = _enemies(st, seat) if enemies is None else enemies
        for h, s in enemies:
            out += _repulses(st, h, s)
    if "deporter" in does and "deporter" not in used:
        enemies = _enemies(st, seat) if enemies is None else enemies
        rows = st.tokens
        out += [("deport", labels[h], s, labels[d]) for h, s in enemies
                if h in worlds and rows[h][seat] for d in adjacent[h]]
    if "propagandist" in does and "propagandist" not in used:
        enemies = _enemies(st, seat) if enemies is None else enemies
        rows = st.tokens
        out += [("convert", labels[h], s) for h, s in enemies if h in worlds and rows[h][seat]]
    if "worldships" in does and seat not in st.turnstate.get("worldship", []):
        # (`controller(h) == seat` for each world: among the seat's worlds, those where every
        # other seat has no token)
        rows, others = st.tokens, st.seats - 1
        out += [("worldship", labels[h], labels[d]) for h in st.colonised(seat) if rows[h].count(0) == others
                for d in adjacent[h] if d not in worlds]
    return out


@STEPS.decision("migrate", _migrate_legal)
def _migrate(st: "AlienState", e: Entry, action: tuple) -> None:
    seat, what = e["seat"], action[0]
    if what == "done":
        st.stack.pop()
        return
    if what == "stack":
        st.stack.append({"kind": "move_to", "seat": seat, "src": action[1]})  # (`push`)
        return
    if what == "play":
        play_event(st, seat, action[1], action[2:])
    else:
        _power_move(st, seat, action)
    st.check_end()


@STEPS.decision("move_to", _move_to_legal)
def _move_to(st: "AlienState", e: Entry, action: tuple) -> None:
    stack = st.stack
    stack.pop()
    seat, ts = e["seat"], st.turnstate
    _, label, to, n = action
    at = st.map.at
    src, dst = at[label], at[to]
    # Only Gatherer lists moves beyond the seat's range (`_move_to_legal`).
    does = st.does[seat]  # (`P.handlers` outside a conflict)
    if "gatherer" in does and st.map.dist[src][dst] > P.move_range(st, seat, does):
        ts["gatherer"] = to
    rows = st.tokens
    row = rows[src]
    left = row[seat] = row[seat] - n  # (`move_tokens`, inline: n >= 1)
    rows[dst][seat] += n
    held = st.held[seat]
    held.add(dst)
    if not left:
        held.discard(src)
    moves = ts["moved"]
    moves[to] = moves.get(to, 0) + n
    if st.loud:
        st.rec("move", f"P{seat} moves {n} from {label} to {to}", seat=seat, src=label, dst=to, count=n)
    if sum(row) != left:  # (`moved`: only another seat's tokens there could follow)
        moved(st, seat, src, dst, n)
    st.check_end(seat)  # (the holder: its n >= 1 tokens are on dst)
    # The memo of the seat's last Migration listing, brought up to date when nothing but this move
    # came between (no Contagion step on the stack, no end), so the next listing need not work it
    # out again. Only `src` can change: the tokens reaching the destination count as moved there,
    # so its free tokens stay as they were, and no other seat's token moved, so no Toll Keeper's
    # block changed. The power moves read other seats' stacks, the seat's total, its tokens on
    # worlds and who controls each world: only a move from or to a world can change them (and a
    # seat without such powers has none, whatever moves). Anything else (a power, an Event, a
    # clone, a position) lists anew.
    memo = st.free_memo
    if memo is None or memo.ready or not stack or stack[-1] is not memo.entry or st.result is not None:
        st.free_memo = None
        return
    if left <= moves.get(label, 0):  # the stack is spent: list the choices anew
        free = memo.free = memo.free.copy()
        if src in free:
            free.remove(src)
        memo.base = memo.out = None
    if memo.powered and (src in st.worlds or dst in st.worlds):
        memo.powers = memo.out = None
    memo.ready = True


class FreeMemo:
    """Migration's memo (`AlienState.free_memo`; not part of the position, and a clone starts
    without it): what the seat's last Migration listing worked out, brought up to date by the
    ordinary move that follows (`_move_to`) so the next listing need not work it out again.
    A part that a move may have changed is None (listed anew)."""

    __slots__ = ("entry", "ready", "free", "events", "powered", "reach", "base", "powers", "out")

    def __init__(self, entry: Entry, free: list[int], events: frozenset[str], powered: bool):
        self.entry = entry                 # the Migration stack entry
        self.ready = False                 # True: brought up to date by the move just made
        self.free = free                   # the free stacks
        self.events = events               # the Migration Events in the seat's hand (an ordinary move keeps the hand)
        self.reach = 0                     # the seat's move range, once `_move_to_legal` worked it out (0: not yet)
        self.base: tuple | None = None     # `done` and a choice of each free stack
        self.powered = powered             # the seat has a power that adds moves (no move changes that)
        self.powers: tuple | None = None if powered else ()  # the power moves (() for none)
        self.out: tuple | None = None      # base + powers


def _power_move(st: "AlienState", seat: int, action: tuple) -> None:
    what, ts = action[0], st.turnstate
    h = hx(st, action[1])
    if what == "assassinate":
        ts["used"].append("assassination")
        st.kill(h, action[2], P.amount(st, seat, "assassination") or 1, f"Assassination by P{seat}")
    elif what == "project":
        ts["used"].append("projection")
        cost = max(int(x.get("cost", 2)) for x in P.effects(st, seat, "projection"))
        for _ in range(cost):
            sacrifice(st, seat, "Projection")
        st.add_tokens(h, seat, 1)
        ts["moved"][action[1]] = ts["moved"].get(action[1], 0) + 1
        st.rec("project", f"P{seat} (Projection) places a token at {action[1]}", seat=seat, hex=action[1])
    elif what in ("repulse", "deport"):
        ts["used"].append("repulsion" if what == "repulse" else "deporter")
        n = 1 if what == "repulse" else min(st.tokens[h][action[2]], P.amount(st, seat, "deporter") or 2)
        st.move_tokens(action[2], h, hx(st, action[3]), n)
        st.rec(what, f"P{seat} moves {n} of P{action[2]}'s tokens from {action[1]} to {action[3]}", seat=seat)
    elif what == "convert":
        ts["used"].append("propagandist")
        st.add_tokens(h, action[2], -1)
        st.add_tokens(h, seat, 1)
        ts["moved"][action[1]] = ts["moved"].get(action[1], 0) + 1
        st.rec("convert", f"P{seat} (Propagandist) takes over one of P{action[2]}'s tokens at {action[1]}", seat=seat)
    elif what == "worldship":
        ts.setdefault("worldship", []).append(seat)
        d = hx(st, action[2])
        st.worlds[d] = st.worlds.pop(h)
        n = st.tokens[h][seat]
        st.move_tokens(seat, h, d, n)
        moved = ts["moved"]
        if action[1] in moved:
            moved[action[2]] = moved.pop(action[1])
        st.rec("worldship", f"P{seat} (Worldships) moves {st.worlds[d]} from {action[1]} to {action[2]}", seat=seat)
