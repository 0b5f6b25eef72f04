"""What one seat may know, and determinization (a full state consistent with an observation).

Hidden: the opponent's hand, both decks' order, the face-down Syncing cards on the opponent's Users
(their tokens show), and the opponent's starting Users while they are still face down. Deck lists
are open (like registered tournament lists): the opponent's cards are known, not where they are.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.kit import HIDDEN, plain_copy
from cardsmith.games.rm2k_anime.cards import USER
from cardsmith.games.rm2k_anime.positions import S, build, to_position

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.board import Board


def deck_list(s: "Board", seat: int) -> list[str]:
    """Every card a seat brought, wherever it is now (sorted)."""
    out = s.p[seat].all_cards()
    if s.pending and s.pending["seat"] == seat:
        out.append(s.pending["card"])
    if s.ch and s.ch["seat"] == seat:
        out.append(s.ch["card"])
    return sorted(out)


class Observation:
    """`data`: the state's position with every card `seat` may not see replaced by "?";
    `deck_lists`: both seats' full card lists (open)."""

    __slots__ = ("seat", "data", "deck_lists", "budget", "turn_cap")

    def __init__(self, state: "Board", seat: int):
        self.seat = seat
        self.budget, self.turn_cap = state.budget, state.turn_cap
        self.deck_lists = [deck_list(state, 0), deck_list(state, 1)]
        data = to_position(state)
        for n, d in enumerate(data["seats"]):
            d["deck"] = [HIDDEN] * len(d["deck"])
            if n != seat:
                d["hand"] = [HIDDEN] * len(d["hand"])
                d["picks"] = [HIDDEN] * len(d["picks"])
                for u in d["users"]:
                    if u["syncing"] is not None:
                        u["syncing"] = HIDDEN
        data["played"] = [[], []] if state.stage == "setup" else data["played"]
        self.data = data

    @property
    def player(self) -> int:
        return self.seat


def sample_state(new: type[S], obs: Observation, rng: random.Random, infos: Any) -> S:
    """A full state (of class `new`, the game's state) consistent with `obs`: each seat's unseen cards (its list less what the observer
    sees) dealt at random into the hidden slots; hidden starting Users are Users the seat could have
    chosen (`_fix_picks`)."""
    data = plain_copy(obs.data)
    pools = [_unseen(data, obs, n) for n in (0, 1)]
    mine = data["seats"][obs.seat]["picks"]  # the observer's own picks and the Users it could still pick
    spare = [c for c in pools[obs.seat] + mine[1:] if infos[c].type == USER]
    for n, d in enumerate(data["seats"]):
        pool = pools[n]
        rng.shuffle(pool)
        users = [c for c in pool if infos[c].type == USER]
        picks = [users.pop() if users else pool[0] for _ in d["picks"] if _ == HIDDEN]
        for c in picks:
            pool.remove(c)
        d["picks"] = [c if c != HIDDEN else picks.pop() for c in d["picks"]]
        if HIDDEN in obs.data["seats"][n]["picks"]:
            _fix_picks(d, pool, mine[:1], bool(spare), rng, infos, obs.budget)
        for u in d["users"]:
            if u["syncing"] == HIDDEN:
                u["syncing"] = pool.pop()
        d["hand"] = [c if c != HIDDEN else pool.pop() for c in d["hand"]]
        d["deck"] = [c if c != HIDDEN else pool.pop() for c in d["deck"]]
    # built without the shape check: the data came from a valid state
    return build(new, infos, data, SeededChance(rng.getrandbits(64)), obs.budget, obs.turn_cap)


def _unseen(data: dict[str, Any], obs: Observation, n: int) -> list[str]:
    """Seat n's cards the observer does not see: its list less every card shown (one per copy)."""
    d = data["seats"][n]
    seen: Counter[str] = Counter(c for k in ("deck", "hand", "discard", "scored", "aside", "picks")
                                 for c in d[k] if c != HIDDEN)
    for u in d["users"]:
        seen.update([u["card"]] + u["attached"] + ([u["syncing"]] if u["syncing"] not in (None, HIDDEN) else []))
    for extra in (data.get("pending"), data.get("challenge")):
        if extra and extra["seat"] == n:
            seen[extra["card"]] += 1
    return list((Counter(obs.deck_lists[n]) - seen).elements())


def _fix_picks(d: dict[str, Any], pool: list[str], mine: list[str], spare: bool, rng: random.Random,
               infos: Any, budget: int) -> None:
    """Deal the opponent's face-down starting Users again (`d["picks"]`, the rest back into `pool`) if
    the real game could not have chosen them: a Main User the budget rules out (flow's `_setup_legal`),
    the observer's own Main User (`mine`) while a clash would have set both aside (the observer had
    another User: `spare`), or picks over the budget.
    A dealing that is fine is kept, so the usual dealing draws no more chance."""
    picks = d["picks"]
    cost = lambda c: infos[c].cost  # noqa: E731
    users = sorted(c for c in pool + picks if infos[c].type == USER)
    fit = [c for c in users if cost(c) <= budget] or [c for c in users if cost(c) == min(map(cost, users), default=0)]
    clash = mine[0] if mine else None
    if clash in users and len(users) > 1 and spare:
        fit = [c for c in fit if c != clash] or fit  # a clash would have set both aside
    others = len(picks) - 1

    def cheapest_rest(main: str) -> int:
        rest = list(users)
        rest.remove(main)
        return sum(sorted(map(cost, rest))[:others])

    if picks[0] in fit and (not others or sum(map(cost, picks)) <= budget):
        return
    mains = [c for c in dict.fromkeys(fit) if not others or cost(c) + cheapest_rest(c) <= budget] or fit
    main = rng.choice(mains)
    rest = list(users)
    rest.remove(main)
    chosen = next((t for t in (rng.sample(rest, others) for _ in range(20)) if cost(main) + sum(map(cost, t)) <= budget),
                  sorted(rest, key=cost)[:others])
    for c in picks:
        pool.append(c)
    for c in [main] + chosen:
        pool.remove(c)
    d["picks"] = [main] + list(chosen)
