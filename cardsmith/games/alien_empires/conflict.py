"""The Conflict phase: choosing conflicts (and Teaser's), taking part, allies, the defender's card,
and the primaries' Race powers and Event cards in turn (Feedback among them). The powers at the
start of a conflict are in conflict_start.py, the reveal and the outcome in resolve.py, force
totals in force.py.

`st.conflict` holds the conflict as plain data: `hex`, `attacker`, `defender`, per seat its `side`
("A", "D" or None) and `commit` (tokens taking part, by hex label), `bonus` per side, `flags` per
side, `cancelled` / `borrowed` Race cards per seat, `reveal` per seat, `used` powers, the conflict
`events` each primary played, and `only` (the one stack a seat fights with: Strategy, Teaser).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cardsmith.games.alien_empires.powers as P
from cardsmith.games.alien_empires.force import other_side, primary, role_of
from cardsmith.games.alien_empires.state import STEPS
from cardsmith.games.alien_empires.turns import hx, lbl, sacrifice

if TYPE_CHECKING:
    from cardsmith.games.alien_empires.state import AlienState

Entry = dict[str, Any]


# ---- choosing a conflict ---------------------------------------------------------------------
def protected(st: "AlienState", h: int, s: int) -> bool:
    """Inconspicuous: one token of the player alone in a space cannot be attacked."""
    return st.tokens[h][s] == 1 and sum(st.tokens[h]) == 1 and P.has(st, s, "inconspicuous")


def targets(st: "AlienState", seat: int, stack: str | None = None) -> tuple:
    """The Attack phase's choices of `seat`: ("done",), then the conflicts it may start now:
    ("attack", hex, defender) and, with Teaser, ("tease", world, opponent). In Strategy's second
    Attack phase (`stack`: the chosen stack's hex) only conflicts in or next to that hex, fought
    by its tokens."""
    ts = st.turnstate
    # The Attack phase runs between conflicts, where no power is cancelled or borrowed: each seat's
    # handlers are then its Racial Destiny's (`st.does`), read without a `P.handlers` call per seat.
    by_seat = st.does if st.conflict is None else [P.handlers(st, s) for s in range(st.seats)]
    does = by_seat[seat]
    if ts["attacks"] >= st.settings.attacks and "unlimited_attacks" not in does:
        return _DONE_ONLY
    near = None
    if stack is not None:
        s0 = hx(st, stack)
        if not st.tokens[s0][seat]:
            return _DONE_ONLY
        near = st.map.close[s0]
    teaser = "teaser" in does
    out: list[tuple] = [("done",)]
    others = st.alive()  # (a new list each call: the acting seat, alive, is taken out of it)
    others.remove(seat)
    # Each opponent's Inconspicuous and Diplomat (`protected`, and the cards Diplomat asks for), asked once.
    hidden = [False] * st.seats
    barred: tuple[int, ...] = ()  # (seldom any: no set made for it)
    cards = len(st.hands[seat])
    for s in others:
        does = by_seat[s]
        hidden[s] = "inconspicuous" in does
        if "diplomat" in does and cards < P.amount(st, s, "diplomat"):
            barred += (s,)
    labels, close = st.map.labels, st.map.close
    rows = st.tokens
    fought = ts["fought"]
    held = st.held
    mine = held[seat]
    # Only spaces holding an opponent's tokens can be fought over (by hex): look at those alone.
    contested = sorted(held[others[0]] if len(others) == 1 else set().union(*(held[s] for s in others)))
    for h in contested:
        # a conflict needs a token of the seat in the space or next to it (adjacency is mutual)
        if mine.isdisjoint(close[h]) or near is not None and h not in near:
            continue
        label = labels[h]
        if label in fought:
            continue
        row = rows[h]
        for s in others:
            if not row[s]:
                continue
            if teaser and row[seat] and h in st.worlds and (near is None or h == s0):
                out.append(("tease", label, s))
            if row[s] == 1 and hidden[s] and sum(row) == 1 or s in barred:  # (`protected`; Diplomat)
                continue
            out.append(("attack", label, s))
    return tuple(out)


_DONE_ONLY = (("done",),)


def _attack_legal(st: "AlienState", e: Entry) -> tuple:
    return targets(st, e["seat"], e.get("stack"))


@STEPS.decision("attack", _attack_legal)
def _attack(st: "AlienState", e: Entry, action: tuple) -> None:
    """Start a conflict. A tease (Teaser) makes the opponent's stack on the world attack the teaser
    at -2 Force: the opponent is the attacker with only that stack; it counts as the teaser's conflict."""
    if action[0] == "done":
        st.stack.pop()
        return
    seat, label, other = e["seat"], action[1], action[2]
    st.turnstate["attacks"] += 1
    st.turnstate["fought"].append(label)
    teased = action[0] == "tease"
    a, d = (other, seat) if teased else (seat, other)
    st.conflict = c = _new_conflict(label, a, d, st.seats, len(st.stack))
    if teased:
        c["only"][a] = label
        c["bonus"]["A"] -= P.amount(st, seat, "teaser")
        st.rec("tease", f"P{seat} (Teaser) forces P{a}'s stack at {label}{_where(st, label)} to attack it at "
               f"-{P.amount(st, seat, 'teaser')} Force", seat=seat, attacker=a, hex=label)
    else:
        if e.get("stack"):
            c["only"][a] = e["stack"]
        if st.loud:
            st.rec("attack", f"P{a} attacks P{d} at {label}{_where(st, label)}", seat=a, defender=d, hex=label)
    # (`push` ten times, as one list: every conflict of every game)
    st.stack += [{"kind": "@resolve"}, {"kind": "@reveal"}, {"kind": "cards", "seat": a}, {"kind": "@start_late"},
                 {"kind": "@start_autos"}, {"kind": "@start_early"}, {"kind": "@defender_draws"}, {"kind": "@allies"},
                 {"kind": "commit", "seat": d}, {"kind": "commit", "seat": a}]
    if teased:  # forced: neither Pacifist nor Diplomat lets the teaser refuse its own conflict
        return
    does = P.handlers(st, d)  # (asked once for both powers)
    if "pacifist" in does and pacify_cards(st, d):
        st.push("pacify", d)
    need = P.amount(st, d, "diplomat") if "diplomat" in does else 0
    if need:
        st.push("discard", a, count=need, why="Diplomat")


def _where(st: "AlienState", label: str) -> str:
    """" (the world's name)" for a world, else "": how the log names a contested space."""
    h = st.map.at[label]
    return f" ({st.worlds[h]})" if h in st.worlds else ""


def _new_conflict(label: str, a: int, d: int, n: int, base: int) -> Entry:
    """The record of a conflict over `label`, attacker `a`, defender `d`, among `n` seats, whose
    steps sit above `base` on the stack (the module docstring names its keys)."""
    # (each seat's own empty record, made in one loop rather than five comprehensions: every conflict)
    commit: list[dict] = []
    cancelled: list[list] = []
    borrowed: list[list] = []
    used: list[list] = []
    events: list[list] = []
    for _ in range(n):
        commit.append({})
        cancelled.append([])
        borrowed.append([])
        used.append([])
        events.append([])
    side: list[str | None] = [None] * n
    side[a], side[d] = "A", "D"
    return {"hex": label, "attacker": a, "defender": d, "side": side, "commit": commit,
            "bonus": {"A": 0, "D": 0}, "flags": {"A": {}, "D": {}}, "cancelled": cancelled,
            "borrowed": borrowed, "reveal": [None] * n, "used": used, "events": events, "only": [None] * n,
            "drawn": False, "shown": False, "second": False, "base": base}


def end_conflict(st: "AlienState") -> None:
    """Drop every pending step of the conflict and the conflict itself."""
    c = st.conflict
    assert c is not None
    del st.stack[c["base"]:]
    st.conflict = None
    st.check_end()


def pacify_cards(st: "AlienState", seat: int) -> list[str]:
    least = max(int(x.get("min", 8)) for x in P.effects(st, seat, "pacifist"))
    return sorted({c for c in st.hands[seat] if st.table.kind(c) == "force" and st.table.value(c) >= least})


def _pacify_legal(st: "AlienState", e: Entry) -> tuple:
    return (("fight",),) + tuple(("pacify", c) for c in pacify_cards(st, e["seat"]))


@STEPS.decision("pacify", _pacify_legal)
def _pacify(st: "AlienState", e: Entry, action: tuple) -> None:
    """Pacifist: discard a Force card of 8 or more and the conflict does not happen."""
    st.stack.pop()
    if action[0] == "pacify":
        st.discard_card(e["seat"], action[1])
        st.played[e["seat"]].append(action[1])
        st.rec("pacify", f"P{e['seat']} (Pacifist) discards {st.table[action[1]].name}: the conflict is prevented", seat=e["seat"])
        end_conflict(st)


# ---- taking part -----------------------------------------------------------------------------
def area(st: "AlienState", reach: int = 1) -> list[int]:
    c = st.conflict
    assert c is not None
    h = hx(st, c["hex"])
    return [h, *st.map.within(h, reach)]


def _committed(st: "AlienState", seat: int, which: str) -> dict[str, int]:
    """The tokens `seat` commits, by hex label: "all" (in the space and next to it: the space
    first, then by hex, as `area` lists them) or "here" (in the contested space alone)."""
    c = st.conflict
    assert c is not None
    only = _single_stack(c, seat)
    if only is not None:  # a Strategy stack or a teased stack fights alone
        n = st.tokens[hx(st, only)][seat] if hx(st, only) in area(st) else 0
        return {only: n} if n else {}
    rows, h = st.tokens, st.map.at[c["hex"]]
    if which == "here":
        return {c["hex"]: rows[h][seat]}
    # (the hexes the seat holds in or next to the space, met by one set operation)
    near = st.held[seat].intersection(st.map.close[h])
    every = {c["hex"]: rows[h][seat]} if h in near else {}
    near.discard(h)
    labels = st.map.labels
    for a in sorted(near):
        every[labels[a]] = rows[a][seat]
    return every


def _single_stack(c: Entry, seat: int) -> str | None:
    """The one stack (hex label) `seat` fights with: a Strategy stack or a teased stack; else None."""
    only = c.get("only")
    return only[seat] if only else None


def _commit_legal(st: "AlienState", e: Entry) -> tuple:
    """`_committed`'s choices: "here" too when the seat fights with no
    single stack and has tokens both in the space and next to it (two commits every conflict)."""
    c = st.conflict
    assert c is not None
    seat = e["seat"]
    if _single_stack(c, seat) is not None:
        return _COMMIT_ALL
    h = st.map.at[c["hex"]]
    # (tokens in the space and in a neighbour: the hexes the seat holds, met by one set operation)
    if st.tokens[h][seat] and not st.held[seat].isdisjoint(st.map.adjacent[h]):
        return _COMMIT_BOTH
    return _COMMIT_ALL


_COMMIT_ALL, _COMMIT_BOTH = (("commit", "all"),), (("commit", "all"), ("commit", "here"))  # (sorted)


@STEPS.decision("commit", _commit_legal)
def _commit(st: "AlienState", e: Entry, action: tuple) -> None:
    """"Tokens in the same space and adjacent spaces may participate": all of them, or only those
    in the contested space (the defender's tokens there always take part)."""
    st.stack.pop()
    c = st.conflict
    assert c is not None
    c["commit"][e["seat"]] = _committed(st, e["seat"], action[1])  # (built afresh: no copy needed)


@STEPS.auto("@allies")
def _allies(st: "AlienState", e: Entry) -> None:
    c = st.conflict
    assert c is not None
    if None not in c["side"]:
        return  # (every seat already takes a side: every 2-seat conflict)
    for s in reversed(st.alive()):
        if c["side"][s] is None and reach_tokens(st, s):
            st.push("ally", s)


def reach_tokens(st: "AlienState", seat: int) -> dict[str, int]:
    """A non-primary player's tokens that may ally: in the space and adjacent ones (Mercenary: up to 3 away)."""
    reach = max([1] + [int(x.get("amount", 1)) for x in P.effects(st, seat, "ally_range")])
    return {lbl(st, a): st.tokens[a][seat] for a in area(st, reach) if st.tokens[a][seat]}


def _ally_legal(st: "AlienState", e: Entry) -> tuple:
    return (("ally", "none"), ("ally", "A"), ("ally", "D"))


@STEPS.decision("ally", _ally_legal)
def _ally(st: "AlienState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    if action[1] != "none":
        c = st.conflict
        assert c is not None
        st.push("allow", primary(c, action[1]), ally=e["seat"], side=action[1])


def _allow_legal(st: "AlienState", e: Entry) -> tuple:
    return (("allow",), ("refuse",))


@STEPS.decision("allow", _allow_legal)
def _allow(st: "AlienState", e: Entry, action: tuple) -> None:
    """Allies join "if the primary player allows it", with every token they may bring."""
    st.stack.pop()
    c = st.conflict
    assert c is not None
    ally = e["ally"]
    if action[0] == "allow":
        c["side"][ally] = e["side"]
        c["commit"][ally] = reach_tokens(st, ally)
        st.rec("ally", f"P{ally} allies with P{e['seat']} ({sum(c['commit'][ally].values())} tokens)", seat=ally)
    else:
        st.rec("refuse", f"P{e['seat']} refuses P{ally}'s help", seat=e["seat"])


@STEPS.auto("@defender_draws")
def _defender_draws(st: "AlienState", e: Entry) -> None:
    c = st.conflict
    assert c is not None
    st.draw(c["defender"], 1, "defender")
    c["drawn"] = True


# ---- helpers -------------------------------------------------------------------------------
def primaries(c: dict) -> tuple[int, int]:
    return c["attacker"], c["defender"]


def opponent(c: dict, p: int) -> int:
    return c["defender"] if p == c["attacker"] else c["attacker"]


def steal(st: "AlienState", p: int, o: int, n: int, why: str) -> None:
    """`p` takes `n` cards from `o`'s hand at random (Opportunists, Repatriations)."""
    for _ in range(n):
        card = st.random_card(o, why)
        if card is None:
            return
        st.hands[o].remove(card)
        st.hands[p].append(card)
        st.rec("steal", f"P{p} ({why}) steals a card from P{o}", seat=p)


def convert(st: "AlienState", o: int, p: int, why: str) -> None:
    """One of `o`'s tokens taking part (the contested space's first) becomes `p`'s, taking part for p."""
    c = st.conflict
    assert c is not None
    for label in sorted(c["commit"][o], key=lambda k: k != c["hex"]):
        if c["commit"][o][label]:
            h = hx(st, label)
            c["commit"][o][label] -= 1
            st.add_tokens(h, o, -1)
            st.add_tokens(h, p, 1)
            c["commit"][p][label] = c["commit"][p].get(label, 0) + 1
            st.rec("convert", f"P{p} ({why}) takes control of one of P{o}'s tokens at {label}", seat=p)
            return



# ---- cards in turn ---------------------------------------------------------------------------
def _cards_legal(st: "AlienState", e: Entry) -> tuple:
    c = st.conflict
    assert c is not None
    p = e["seat"]
    held = st.table.events["conflict"].intersection(st.hands[p])
    does = P.handlers(st, p)
    if not held and _CARD_POWERS.isdisjoint(does):
        return _PASS_ONLY  # (most listings of a conflict: nothing to play but pass)
    out: list[tuple] = [("pass",)]
    if held:
        role = role_of(c["side"][p])
        where = "world" if st.map.at[c["hex"]] in st.worlds else "space"
        table = st.table.cards
        for x in sorted(held):
            eff = table[x].effects[0]
            if eff.get("side", "any") not in ("any", role) or eff.get("where", "any") not in ("any", where):
                continue
            out.append(("play", x))
    if _CARD_POWERS.isdisjoint(does):
        return tuple(out)
    used = c["used"][p]
    # (`does` for `P.has`: the same handlers, asked once; `st.total` too)
    if "discard_for_force" in does and "berserk" not in used:
        out += [("berserk", x) for x in sorted(set(st.hands[p]))]
    more = st.total(p) > 1
    for act, do in (("martyr", "martyr"), ("burnout", "sacrifice_draw"), ("eliminate", "sacrifice_discard")):
        if do in does and act not in used and more:
            out.append((act,))
    if "feedback" in does and more:
        done = {u.split(":", 1)[1] for u in used if u.startswith("feedback:")}
        out += [("feedback", x) for x in sorted(set((c.get("events") or [[]] * st.seats)[opponent(c, p)]))
                if x not in done and st.table[x].does[0] != "ceasefire"]
    return tuple(out)


_PASS_ONLY = (("pass",),)
# The Race powers `_cards_legal` offers (a primary with none of them has only its Events to play).
_CARD_POWERS = frozenset({"discard_for_force", "martyr", "sacrifice_draw", "sacrifice_discard", "feedback"})


@STEPS.decision("cards", _cards_legal)
def _cards(st: "AlienState", e: Entry, action: tuple) -> None:
    """The primaries take turns (the attacker first); two passes in a row end the card play."""
    c = st.conflict
    assert c is not None
    p = e["seat"]
    top = st.stack[-1]
    if action[0] == "pass":
        top["passes"] = top.get("passes", 0) + 1
        if top["passes"] >= 2:
            st.stack.pop()
            return
    else:
        top["passes"] = 0
        if not conflict_play(st, p, action):
            return
    top["seat"] = opponent(c, p)


def conflict_play(st: "AlienState", p: int, action: tuple) -> bool:
    """Play an Event or use a power; False when the conflict ended (Cease-fire)."""
    c = st.conflict
    assert c is not None
    side = c["side"][p]
    o = opponent(c, p)
    what = action[0]
    if what == "play":
        card = action[1]
        st.discard_card(p, card)
        st.played[p].append(card)
        if "events" in c:
            c["events"][p].append(card)
        if st.loud:
            st.rec("event", f"P{p} plays {st.table[card].name}", seat=p, card=card)
        return event_effect(st, p, card)
    c["used"][p].append(what if what != "feedback" else f"feedback:{action[1]}")
    if what == "berserk":
        st.discard_card(p, action[1])
        c["bonus"][side] += P.amount(st, p, "discard_for_force")
        st.rec("berserk", f"P{p} (Berserking) discards a card for +{P.amount(st, p, 'discard_for_force')} Force", seat=p)
        return True
    sacrifice(st, p, what.title())
    if what == "martyr":
        c["flags"][side]["martyr"] = P.amount(st, p, "martyr")
    elif what == "burnout":
        st.draw(p, P.amount(st, p, "sacrifice_draw") or 1, "Burnout")
    elif what == "eliminate":
        for _ in range(P.amount(st, p, "sacrifice_discard") or 1):
            card = st.random_card(o, "Eliminate")
            if card is not None:
                st.discard_card(o, card)
                st.rec("discard", f"P{o} discards a card at random (Eliminate)", seat=o)
    elif what == "feedback":
        st.rec("feedback", f"P{p} (Feedback) duplicates the effect of {st.table[action[1]].name} for itself", seat=p, card=action[1])
        return event_effect(st, p, action[1])
    return True


def event_effect(st: "AlienState", p: int, card: str) -> bool:
    """The effect of the conflict Event `card` for primary `p` (played, or duplicated by Feedback);
    False when the conflict ended (Cease-fire)."""
    c = st.conflict
    assert c is not None
    side = c["side"][p]
    o = opponent(c, p)
    info = st.table[card]
    eff = info.effects[0]
    do, n = eff["do"], int(eff.get("amount", 0) or 0)
    flags = c["flags"][side]
    if do == "force":
        c["bonus"][side] += n
    elif do == "enemy_force":
        c["bonus"][other_side(side)] -= n
    elif do == "kill_tokens":
        kill_taking_part(st, o, n, info.name)
    elif do == "convert_token":
        for _ in range(n):
            convert(st, o, p, info.name)
    elif do == "enemy_discard":
        for _ in range(n):
            x = st.random_card(o, info.name)
            if x is not None:
                st.discard_card(o, x)
    elif do == "double_force_card":
        flags["doubles"] = flags.get("doubles", 0) + 1
    elif do == "null_field":
        c["cancelled"][o].append("*")
    elif do == "evacuate":
        flags["evacuate"] = True
    elif do == "win_draw":
        flags["win_draw"] = flags.get("win_draw", 0) + n
    elif do == "draw":
        st.draw(p, n, info.name)
    elif do == "ceasefire":
        st.rec("ceasefire", "cease-fire: the conflict ends with no winner")
        end_conflict(st)
        return False
    return True


def kill_taking_part(st: "AlienState", s: int, n: int, why: str) -> None:
    """Destroy up to `n` of `s`'s tokens taking part, the contested space's first."""
    c = st.conflict
    assert c is not None
    for label in sorted(c["commit"][s], key=lambda k: k != c["hex"]):
        k = min(n, c["commit"][s][label])
        if k:
            st.kill(hx(st, label), s, k, why)
            c["commit"][s][label] -= k
            n -= k

