"""The turn: set-up, coin toss, draw, construction, deployment, Spy Network, combats, clean-up.

`settle(s)` runs the rules until a seat must decide (`s.dec`) or the game ends, taking at once any
decision with a single legal option. `compute_legal(s)` lists the options of the pending decision;
`handle(s, action)` carries one out.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable

from cardsmith.engine.chance import seat_stream
import cardsmith.games.solar_empires.combat as combat
import cardsmith.games.solar_empires.resolve as resolve
from cardsmith.games.solar_empires.cards import BUILDING, EVENT, HAND_SIZE, POSITIONS, SEATS, SHIP
from cardsmith.games.solar_empires.names import (COMBAT, CONSTRUCT, DEPLOY, ORDER, ORDERINGS, PICK, PRIORITY, SPY)

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.board import Board

_TARGETED = ("damage", "destroy_ship", "grant_shield")


# ---------------------------------------------------------------------- legal actions
def construct_actions(s: "Board", p: int, probe: bool = False) -> tuple:
    """The construction options of seat p, "done" last. `probe`: stop at the first option found,
    without "done" (enough for a look-ahead's `settle` to know the decision is a real one).

    Listed after nearly every action of a game, so written as one pass over the hand: a card is
    playable if its cost fits the support (one option per card design); a building on each planet
    the seat controls, an event or spell while none of its kind was played this turn."""
    info = s.t.info
    h = s._sup[p]  # (`holding`'s cache, read here without the call)
    e, m, o, mine, cannon = h if h is not None else s.holding(p)
    acts: list = []
    seen = set()
    for inst in s.hand[p]:
        ci = info[inst]
        c = ci.cost
        if c[0] > e or c[1] > m or c[2] > o:
            continue
        cid = ci.id
        if cid in seen:
            continue
        seen.add(cid)
        t = ci.type
        if t == SHIP:
            acts.append(ci.play)
        elif t == BUILDING:
            row = ci.play_at
            acts += [row[pos] for pos in mine]
        elif t == EVENT:
            if ci.spell:
                if s.sp_done[p] or s.t.chain[p]:
                    continue
            elif s.ev_done[p]:
                continue
            acts += event_plays(s, p, ci)
        if probe and acts:
            return tuple(acts)
    if cannon is not None and not s.cannon_done[p]:  # the Solaris Cannon fires at any planet, for its cost
        if cannon[0] <= e and cannon[1] <= m and cannon[2] <= o:
            acts += [("fire-cannon", x + 1) for x in s.planets()]
    if probe:
        return tuple(acts)
    acts.append(_DONE)
    return tuple(acts)


def event_plays(s: "Board", p: int, ci: Any) -> list:
    """The ways to play event `ci`: with the planets it chooses, or the ship it targets, or plainly."""
    fx = ci.fx
    for handler in ("block_deployment", "fleet_damage"):
        if handler in fx:
            planets = [x + 1 for x in s.planets()]
            k = min(fx[handler]["planets"], len(planets))
            if k == 0:
                return [ci.play]
            return [ci.play + c for c in combinations(planets, k)]
    info = s.t.info
    for handler in _TARGETED:
        params = fx.get(handler)
        if params is None or (handler == "damage" and params.get("target") != "ship"):
            continue
        pool = s.ships[p] if handler == "grant_shield" else s.ships[0] + s.ships[1]
        limit = resolve.max_class(params)
        pool = [i for i in pool if info[i].cls <= limit]
        owner = s.t.owner
        return [("play", ci.id, i, info[i].id) for i in s.dedup(pool, lambda i: owner[i])]
    return [ci.play]


def _deploy(s: "Board", p: int) -> tuple:
    """Each ship of seat p in reinforcements to each open planet (one ship per distinguishable copy,
    the first in play order, keyed as `SolarState.dedup` keys them), then "done".

    Listed after every deployment: one pass over the seat's ships, with the rows of options made
    once per instance (`Table.deploy`)."""
    at, dmg, design, table = s.at, s.dmg, s.t.design, s.t.deploy
    planet, flare = s.planet, s.flare
    acts: list[tuple] = []
    seen = set()
    if not flare and -1 not in planet:  # every position open: whole rows
        for i in s.ships[p]:
            if at[i] < 0:
                k = design[i] | dmg[i] << 4
                if k not in seen:
                    seen.add(k)
                    acts += table[i]
    else:
        targets = [pos for pos in range(POSITIONS) if planet[pos] >= 0 and pos not in flare]
        for i in s.ships[p]:
            if at[i] < 0:
                k = design[i] | dmg[i] << 4
                if k not in seen:
                    seen.add(k)
                    row = table[i]
                    acts += [row[pos] for pos in targets]
    if not acts:
        return _ONLY_DONE
    acts.append(_DONE)
    return tuple(acts)


_DONE = ("done",)
_ONLY_DONE = (_DONE,)
_COMBAT_AT = tuple(("combat", pos + 1) for pos in range(POSITIONS))  # the combat to resolve next, by position
_ORDER_OPTIONS = tuple(("order", o) for o in ORDERINGS)


def _deploy_open(s: "Board", p: int) -> bool:
    """Whether seat p has a deployment to choose (a ship in reinforcements and an open planet)."""
    at = s.at
    for i in s.ships[p]:
        if at[i] < 0:
            planet, flare = s.planet, s.flare
            return any(planet[pos] >= 0 and pos not in flare for pos in range(POSITIONS))
    return False


# Decisions whose options always end with "done": a look-ahead's `settle` only asks whether there is
# any other option; the legal set is listed if someone asks for it.
_HAS_CHOICE: dict[str | None, Callable[["Board", int], Any]] = {
    CONSTRUCT: lambda s, p: construct_actions(s, p, True),
    DEPLOY: _deploy_open,
}


def _spy(s: "Board", p: int) -> tuple:
    acts: list = [("spy-keep",)]
    targets = [pos for pos in s.planets() if pos not in s.flare]
    info = s.t.info
    for i in s.dedup(s.ships[p], lambda i: s.at[i]):
        cid = info[i].id
        if s.at[i] >= 0:
            acts.append(("spy", i, cid, "reserve"))
        for pos in targets:
            if pos != s.at[i]:
                acts.append(("spy", i, cid, pos + 1))
    return tuple(acts)


_LEGAL: dict[str | None, Callable[["Board", int], tuple]] = {
    CONSTRUCT: construct_actions,
    DEPLOY: _deploy,
    SPY: _spy,
    PICK: resolve.pick_actions,
    COMBAT: lambda s, p: tuple([_COMBAT_AT[pos] for pos in s.cpending]),
    ORDER: lambda s, p: _ORDER_OPTIONS,
    PRIORITY: lambda s, p: (("priority", "take"), ("priority", "give")),
    None: lambda s, p: (),
    **combat.LEGAL,
}


def compute_legal(s: "Board") -> tuple:
    return _LEGAL[s.dec](s, s.current_player)


# ---------------------------------------------------------------------- carrying out a choice
def _construct(s: "Board", p: int, a: tuple) -> None:
    verb = a[0]
    if verb == "done":
        if s.loud:
            s.rec("pass", f"P{p} ends construction", seat=p)
        s.stage_i += 1
    elif verb == "fire-cannon":
        pos = a[1] - 1
        s.cannon_done[p] = True
        if s.loud:
            s.rec("cannon", f"P{p} fires the Solaris Cannon at position {pos + 1}", seat=p, position=pos + 1)
        s.destroy_planet(pos)
        if not s.end_reason:
            s.check_end()
    else:
        resolve.play(s, p, a)
    if s.dec is None and verb != "done" and not s.end_reason:
        s.dec = CONSTRUCT  # the seat builds on until it passes (unless the card opened a choice)


def _deploy_handle(s: "Board", p: int, a: tuple) -> None:
    if a[0] == "done":
        s.stage_i += 1
    else:
        s.at[a[3]] = a[2] - 1
        if s.loud:
            s.rec("deploy", f"P{p} deploys {s.name(a[3])} to position {a[2]}", seat=p, card=a[1], position=a[2])
        s.dec = DEPLOY  # the seat deploys on until it passes


def _spy_handle(s: "Board", p: int, a: tuple) -> None:
    if a[0] == "spy":
        inst = a[1]
        s.at[inst] = -1 if a[3] == "reserve" else a[3] - 1
        if s.loud:
            s.rec("redeploy", f"P{p} (Spy Network) moves {s.name(inst)} to {a[3]}", seat=p, card=a[2], to=a[3])
    s.stage_i += 1


def _order_deck(s: "Board", p: int, a: tuple) -> None:
    how = a[1]
    # deck file order, top first; or cheapest first (ties in file order)
    cards = list(s.t.curve[p] if how == "curve" else s.t.fleet[p])
    if how == "shuffled":
        s.shuffle(cards, "fleet order", seat_stream(p))  # only the owner may know this order
    s.deck[p] = cards[::-1]  # top of the deck is the end of the list
    if s.loud:
        s.rec("order", f"P{p} places their fleet deck ({len(cards)} cards)", seat=p, how=how)
    s.stage_i += 1


def _priority(s: "Board", p: int, a: tuple) -> None:
    s.priority = p if a[1] == "take" else 1 - p
    if s.loud:
        s.rec("priority", f"P{p} gives priority to P{s.priority}" if a[1] == "give" else f"P{p} takes priority",
              seat=s.priority)
    s.stage = "draw"


_HANDLE: dict[str | None, Callable[["Board", int, tuple], None]] = {
    CONSTRUCT: _construct,
    DEPLOY: _deploy_handle,
    SPY: _spy_handle,
    PICK: resolve.pick_handle,
    COMBAT: lambda s, p, a: combat.start(s, a[1] - 1),
    ORDER: _order_deck,
    PRIORITY: _priority,
    **combat.HANDLE,
}


def handle(s: "Board", a: tuple) -> None:
    d = s.dec
    s.dec = None  # a handler that opens a new decision sets it again
    _HANDLE[d](s, s.current_player, a)


def settle(s: "Board", lazy: bool = False) -> None:
    """Run the rules to the next real decision: one with a single option is taken at once (unless
    `s.keep_forced`). The legal
    set of the decision it stops at is left in `s._legal` (apply checks the next action against it).
    `lazy` (a look-ahead, `SolarState.peek`): at construction and deployment only ask whether there
    is a choice, and leave the listing for whoever asks (a greedy agent's look-ahead never does).

    One loop for the turn's stages, the legal set and forced moves (the work of every action, so
    written without the layers `advance` and `handle` add)."""
    while True:
        while not s.end_reason and s.dec is None:
            if _STAGES[s.stage](s):
                break
        if s.end_reason:
            s._legal = None
            return
        d = s.dec
        if lazy and d in _HAS_CHOICE and not s.keep_forced:
            if _HAS_CHOICE[d](s, s.current_player):
                s._legal = None  # listed when asked for
                return
            s.dec = None
            _HANDLE[d](s, s.current_player, _DONE)
            continue
        legal = _LEGAL[d](s, s.current_player)
        if len(legal) != 1 or s.keep_forced:
            s._legal = legal
            return
        s.dec = None
        _HANDLE[d](s, s.current_player, legal[0])


# ---------------------------------------------------------------------- the stages of a turn
def _setup(s: "Board") -> bool:
    if s.stage_i < 2:
        return s.ask(ORDER, s.stage_i)
    for p in SEATS:
        s.draw(p, HAND_SIZE)
    s.stage = "coin"
    return False


def _coin(s: "Board") -> bool:
    w = s.pick_one(2, "coin toss")
    if s.loud:
        s.rec("coin", f"P{w} wins the coin toss", seat=w)
    return s.ask(PRIORITY, w)


def _draw(s: "Board") -> bool:
    pr = s.priority
    if s.loud:
        s.rec("turn", f"== Turn {s.turn}: P{pr} has priority ==", turn=s.turn, priority=pr)
    for p in (pr, 1 - pr):
        s.draw(p, HAND_SIZE - len(s.hand[p]))
    if s.check_end():
        return True
    s.stage, s.stage_i = "construct1", 0
    return False


def _construction(s: "Board") -> bool:
    if s.stage_i < 2:
        return s.ask(CONSTRUCT, s.priority if s.stage_i == 0 else 1 - s.priority)
    if s.check_end():
        return True
    if s.stage == "construct1":
        s.stage, s.stage_i = "deploy", 0
    else:
        s.stage = "cleanup"
    return False


def _deployment(s: "Board") -> bool:
    if s.stage_i < 2:
        return s.ask(DEPLOY, s.priority if s.stage_i == 0 else 1 - s.priority)
    s.stage, s.stage_i = "spy", 0
    return False


def _spy_stage(s: "Board") -> bool:
    while s.stage_i < 2:
        q = s.priority if s.stage_i == 0 else 1 - s.priority
        if s.event_fx(q, "redeploy") and s.ships[q]:
            return s.ask(SPY, q)
        s.stage_i += 1
    at, planet = s.at, s.planet
    occupied = {at[i] for i in s.ships[0]}  # a combat at each planet with a ship deployed to it
    occupied.update([at[i] for i in s.ships[1]])
    s.cpending = [pos for pos in range(POSITIONS) if planet[pos] >= 0 and pos in occupied]
    s.cpos = -1
    s.stage = "combat"
    return False


def _combat_stage(s: "Board") -> bool:
    if s.cpos >= 0:
        if not combat.step(s):
            return False
        if s.dec is not None or s.end_reason:
            return True
        s.cpos = -1  # the combat at cpos is over
        return False
    if s.cpending:
        return s.ask(COMBAT, s.priority)
    for p in SEATS:
        for i in s.ships[p]:
            s.at[i] = -1
    s.gaze = {}
    if s.check_end():
        return True
    s.stage, s.stage_i = "construct2", 0
    return False


_STAGES: dict[str, Callable[["Board"], bool]] = {
    "setup": _setup, "coin": _coin, "draw": _draw, "construct1": _construction, "deploy": _deployment,
    "spy": _spy_stage, "combat": _combat_stage, "construct2": _construction, "cleanup": lambda s: cleanup(s),
}


def advance(s: "Board") -> None:
    """Run the turn until a seat must decide (`s.dec` set) or the game ends."""
    while not s.end_reason and s.dec is None:
        if _STAGES[s.stage](s):
            return


def stalemate(s: "Board") -> bool:
    """True when the next turn would repeat this state forever: no ships, no draws (hands full or
    decks empty), no playable card, and no black hole eating planets."""
    if s.black_hole or s.ships[0] or s.ships[1]:
        return False
    for p in SEATS:
        if len(s.hand[p]) < HAND_SIZE and s.deck[p]:
            return False
    return all(len(construct_actions(s, p)) == 1 for p in SEATS)


def cleanup(s: "Board") -> bool:
    for p in SEATS:
        s.disc[p].extend(s.events[p])
        s.events[p] = []
        s.ev_done[p] = s.sp_done[p] = s.cannon_done[p] = False
        for i in s.ships[p]:
            s.dmg[i] = 0
    s.flare = []
    s.swarm = []
    if s.black_hole:
        left = s.planets()
        if left:
            if s.loud:
                s.rec("black hole", f"The black hole swallows {s.name(s.planet[left[0]])}", position=left[0] + 1)
            s.destroy_planet(left[0])
            if s.end_reason:
                return True
    if s.check_end():
        return True
    if stalemate(s):
        s.end(None, "stalemate", "no ships in play, no card either player can play, nothing left to "
                                 "draw: every turn from now on would be the same")
        return True
    if s.turn >= s.t.turn_cap:
        s.end(None, "turn cap", f"turn {s.turn} reached the cap of {s.t.turn_cap}")
        return True
    s.turn += 1
    s.priority = 1 - s.priority
    s.stage = "draw"
    return False
