"""The turn: preparation, Connect, Main (Syncing), Challenge, Victory and Draw phases, and the checks
for the end of the game. `legal` lists what the seat to act may do now; `handle` does it; `settle`
runs what follows without a choice. Readings of the text: docs/rules/rm2k-anime.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.engine.chance import seat_stream
from cardsmith.games.rm2k_anime.board import Slot
from cardsmith.games.rm2k_anime.cards import ATTACH, USER, VICTORY
from cardsmith.games.rm2k_anime.challenge import challenge_legal, handle_challenge, start_challenge
from cardsmith.games.rm2k_anime.events import event_actions, handle_event_play, react_legal, handle_react

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.board import Board

HAND_SIZE = 5
MAX_TURN_START_LOOPS = 1


# ------------------------------------------------------------------ preparation
def _pool(s: "Board", seat: int) -> list[str]:
    """The Users a seat may still choose from (in its deck, not chosen, not set aside), one per id."""
    seen: list[str] = []
    for c in s.p[seat].deck:
        if s.info(c).type == USER and c not in seen:
            seen.append(c)
    return sorted(seen)


def _setup_legal(s: "Board") -> tuple:
    me = s.p[s.actor]
    if s.dec == "main_user":
        pool = _pool(s, s.actor)
        fit = [c for c in pool if s.info(c).cost <= s.budget]
        if not fit and pool:  # invented: no User fits the budget, so the cheapest may be chosen
            low = min(s.info(c).cost for c in pool)
            fit = [c for c in pool if s.info(c).cost == low]
        return tuple(("main", c) for c in fit)
    if s.dec == "starting":
        left = s.budget - sum(s.info(c).cost for c in me.picks)
        return tuple(("start", c) for c in _pool(s, s.actor) if s.info(c).cost <= left) + (("ready",),)
    return tuple(("lag", i) for i in range(len(me.users)))  # distribute_lag


def _setup_handle(s: "Board", a: tuple) -> None:
    seat, me = s.actor, s.p[s.actor]
    if a[0] in ("main", "start"):
        me.deck.remove(a[1])
        me.picks.append(a[1])
        s.rec("pick", f"P{seat} chooses {'a Main User' if a[0] == 'main' else 'a starting User'} face down",
              seat=seat)
        s.rec("pick card", "", seen_by=(seat,), card=a[1])
        if a[0] == "main":
            _main_chosen(s, seat)
    elif a[0] == "ready":
        if seat == 0:
            s.ask("starting", 1)
        else:
            _reveal(s)
    else:  # ("lag", i)
        me.users[a[1]].lag += 1
        s.lag_left -= 1
        s.rec("lag", f"  P{seat} puts 1 Lag on {s.info(me.users[a[1]].card).name}", seat=seat)
        if s.lag_left <= 0:
            start_turn(s, s.first_player or 0)


def _main_chosen(s: "Board", seat: int) -> None:
    """After a Main User is chosen: seat 1 chooses next; once both have, a clash (the same card) sets
    both aside and both choose again, unless that would leave a player no User to choose (invented:
    mirror decks could clash until no User is left), when both keep it."""
    if seat == 0:
        s.ask("main_user", 1)
        return
    cid = s.p[0].picks[0]
    if cid != s.p[1].picks[0]:
        s.ask("starting", 0)
    elif all(_pool(s, p) for p in (0, 1)):  # the picks are out of the decks: these are the other Users
        for p in s.p:
            p.aside.append(p.picks.pop())
        s.rec("same main", f"Both chose {s.info(cid).name} as Main User: both are set aside; choose again", card=cid)
        s.ask("main_user", 0)
    else:
        s.rec("same main", f"Both chose {s.info(cid).name} as Main User: a player has no other User, so both keep it",
              card=cid)
        s.ask("starting", 0)


def _reveal(s: "Board") -> None:
    costs = []
    for seat, me in enumerate(s.p):
        me.users = [Slot(c, main=(i == 0)) for i, c in enumerate(me.picks)]
        for c in me.picks:
            s.mark_played(seat, c)
        s.rec("reveal", f"P{seat} starts with " + ", ".join(s.info(c).name for c in me.picks)
              + f" (Main User {s.info(me.picks[0]).name})", seat=seat, users=list(me.picks))
        costs.append(sum(s.info(c).cost for c in me.picks))
        me.picks = []
        s.chance.shuffle(me.deck, f"deck {seat}", seat_stream(seat))
        s.draw(seat, HAND_SIZE)
    if costs[0] != costs[1]:
        first = 0 if costs[0] < costs[1] else 1
    else:
        first = s.chance.randrange(2, "first player")
    s.first_player = first
    s.rec("first", f"P{first} goes first (total Cost {costs[first]} to {costs[1 - first]})", seat=first)
    s.lag_left = abs(costs[0] - costs[1])
    if s.lag_left:
        s.stage = "lag"
        s.ask("distribute_lag", 1 - first)
    else:
        start_turn(s, first)


# ------------------------------------------------------------------ the turn
def start_turn(s: "Board", seat: int) -> None:
    """Connect Phase: "At the beginning of your turn" effects, then each User clears Lag equal to its
    Bandwidth; skipped on a player's first turn. Then the Main Phase."""
    s.active = seat
    me = s.p[seat]
    s.rec("turn", f"--- Turn {s.turn}: player {seat} ---", seat=seat, turn=s.turn)
    if me.had_turn:
        for u in [u for u in me.users if not u.limbo]:
            for name, p in s.info(u.card).timed("turn_start"):
                _ability(s, seat, u, name, p)
        for u in me.users:
            if not u.limbo and u.lag:
                cleared = min(u.lag, s.bandwidth(u))
                u.lag -= cleared
                if cleared:
                    s.rec("connect", f"  {s.info(u.card).name} clears {cleared} Lag", seat=seat)
    for u in me.users:
        u.attacked = False
    s.stage = "main"
    s.ask("main", seat)


def _ability(s: "Board", seat: int, u: Any, name: str, p: Any) -> None:
    if name == "draw":
        s.draw(seat, int(p["cards"]))
    elif name == "clear_lag":
        u.lag = max(0, u.lag - int(p["amount"]))
    elif name == "idle_vp" and u.lag == 0:
        s.p[seat].vp += int(p["amount"])
        s.rec("vp", f"  {s.info(u.card).name} has no Lag: P{seat} gains {p['amount']} VP", seat=seat)


def _end_turn(s: "Board") -> None:
    """Draw Phase: "At the end of your turn" effects, Users in Limbo come into play, draw a card."""
    seat = s.active
    me = s.p[seat]
    s.stage = "draw"
    for u in [u for u in me.users if not u.limbo]:
        for name, p in s.info(u.card).timed("turn_end"):
            _ability(s, seat, u, name, p)
    for u in me.users:
        if u.limbo:
            u.limbo = False
            s.rec("limbo", f"  {s.info(u.card).name} comes out of Limbo into play", seat=seat)
    s.draw(seat)
    me.had_turn = True
    if not s.p[0].deck and not s.p[1].deck:
        s.end_by_vp("decks empty", "both decks are empty")
        return
    if s.turn >= s.turn_cap:
        s.end(None, "turn cap", f"turn {s.turn} ended")
        return
    s.turn += 1
    start_turn(s, 1 - seat)


def _main_legal(s: "Board") -> list[tuple]:
    seat = s.actor
    me = s.p[seat]
    out: list[tuple] = []
    users = me.users
    hand = sorted(set(me.hand))
    for cid in hand:
        k = s.info(cid).skill
        out += [("sync", cid, i) for i, u in enumerate(users) if not u.limbo and u.sync is None and not s.immune(u, k)]
    payers = [i for i, u in enumerate(users) if s.free(u) > 0]
    for j, u in enumerate(users):
        if u.sync is None:
            continue
        ci = s.info(u.sync)
        if u.tokens < ci.cost:
            out += [("pay", i, j) for i in payers]
        elif ci.type in (USER, ATTACH):
            out.append(("activate", j))
    out += event_actions(s, seat, "main")
    out.append(("end",))
    return out


def _main_handle(s: "Board", a: tuple) -> None:
    seat = s.actor
    me = s.p[seat]
    kind = a[0]
    if kind == "sync":
        u = me.users[a[2]]
        me.hand.remove(a[1])
        u.sync, u.tokens = a[1], 0
        s.rec("sync", f"  P{seat} begins Syncing a card face down on {s.info(u.card).name}", seat=seat, user=a[2])
        s.rec("sync card", "", seen_by=(seat,), card=a[1])
    elif kind == "pay":
        payer, u = me.users[a[1]], me.users[a[2]]
        payer.lag += 1
        u.tokens += 1
        s.rec("pay", f"  {s.info(payer.card).name} takes 1 Lag: {u.tokens} Sync token(s) on {s.info(u.card).name}",
              seat=seat)
    elif kind == "activate" and s.info(me.users[a[1]].sync or "").type in (USER, ATTACH):
        _activate_permanent(s, seat, a[1])
    elif kind in ("activate", "instant"):
        handle_event_play(s, a, ("main", seat))
    elif kind == "end":
        s.stage = "challenge"
        s.ask("challenge", seat)


def _activate_permanent(s: "Board", seat: int, i: int) -> None:
    u = s.p[seat].users[i]
    cid = u.sync
    assert cid is not None
    u.sync, u.tokens = None, 0
    s.mark_played(seat, cid)
    if s.info(cid).type == USER:
        s.p[seat].users.append(Slot(cid, limbo=True))
        s.rec("activate", f"  P{seat} activates {s.info(cid).name}: it waits in Limbo", seat=seat, card=cid)
    else:
        u.attached.append(cid)
        s.rec("activate", f"  P{seat} attaches {s.info(cid).name} to {s.info(u.card).name}", seat=seat, card=cid)


def _victory_legal(s: "Board") -> list[tuple]:
    me = s.p[s.actor]
    out = []
    for i, u in enumerate(me.users):
        if u.sync is not None:
            ci = s.info(u.sync)
            if ci.type == VICTORY and u.tokens >= ci.cost and s.requirement(s.actor, ci.effect("score") or {}):
                out.append(("claim", i))
    return out + [("end",)]


def _victory_handle(s: "Board", a: tuple) -> None:
    seat = s.actor
    me = s.p[seat]
    if a[0] == "claim":
        u = me.users[a[1]]
        cid = u.sync
        assert cid is not None
        u.sync, u.tokens = None, 0
        me.scored.append(cid)
        me.vp += s.info(cid).vp
        s.mark_played(seat, cid)
        s.rec("claim", f"  P{seat} activates {s.info(cid).name}: +{s.info(cid).vp} VP ({me.vp})", seat=seat, card=cid)
        return
    if seat == s.active:
        s.ask("victory", 1 - seat)
        return
    # "At the end of this Phase, totals are checked": Accomplishment Victory
    ten = [p for p in (0, 1) if s.p[p].vp >= 10]
    if len(ten) == 1:
        s.end(ten[0], "accomplishment", f"{s.p[ten[0]].vp} Victory Points")
    elif ten:
        s.end_by_vp("simultaneous", "both players reached 10 Victory Points")
    else:
        _end_turn(s)


# ------------------------------------------------------------------ dispatch
def legal(s: "Board") -> tuple:
    d = s.dec
    if s.stage in ("setup", "lag"):
        return _setup_legal(s)
    if d == "main":
        return tuple(_main_legal(s))
    if d == "react":
        return react_legal(s)
    if d == "victory":
        return tuple(_victory_legal(s))
    return challenge_legal(s)


def handle(s: "Board", a: tuple) -> None:
    d = s.dec
    if s.stage in ("setup", "lag"):
        _setup_handle(s, a)
    elif d == "main":
        _main_handle(s, a)
    elif d == "react":
        handle_react(s, a)
    elif d == "victory":
        _victory_handle(s, a)
    elif d == "challenge" and a[0] == "end":
        s.stage = "victory"
        s.ask("victory", s.active)
    elif d == "challenge":
        start_challenge(s, a)
    else:
        handle_challenge(s, a)


def settle(s: "Board") -> None:
    """The checks after every action (2.3): Domination and Pingout (a player with no Users, or
    whose Users all have Bandwidth 0 for good, loses) and the Main User's Goal; both players at once
    make a draw game decided on Victory Points."""
    if s.end_reason or s.stage in ("setup", "lag"):
        return
    lost = []
    for p in (0, 1):
        users = s.p[p].users
        if not users:
            lost.append((p, "domination", "no Users left"))
        elif all(s.pinged_out(u) for u in users):
            lost.append((p, "pingout", "every User has 0 Bandwidth for good"))
    goals = []
    for p in (0, 1):
        for u in s.p[p].users:
            g = s.info(u.card).effect("goal")
            if u.main and not u.limbo and g is not None and s.requirement(p, g):
                goals.append(p)
    wins = {1 - p for p, _, _ in lost} | set(goals)
    if len(wins) == 2:
        s.end_by_vp("simultaneous", "both players won or lost at the same time")
    elif wins:
        w = wins.pop()
        if w in goals:
            s.end(w, "goal", "the Main User attained its Goal")
        else:
            _, reason, why = next(x for x in lost if x[0] == 1 - w)
            s.end(w, reason, f"player {1 - w}: {why}")
