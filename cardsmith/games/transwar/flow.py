"""Turns: the first turn's Transform, Bookkeeping, the four actions, paying discards, and Going Out.

The attack sequence itself is in fight.py. Every choice is a decision on the state's stack; see
docs/rules/transwar.md for the readings of the text these steps follow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.engine.kit.steps import Entry
from cardsmith.games.transwar.state import STEPS
from cardsmith.games.transwar.steps import closes, distinct

if TYPE_CHECKING:
    from cardsmith.games.transwar.state import TransWarState

HAND = 5  # "deals out five cards"; the Discard action refills to five


# ---- turn order -------------------------------------------------------------------------------
@STEPS.on_empty
def next_turn(st: "TransWarState") -> None:
    """Play passes clockwise (to the next seat number) to the next player still in the game."""
    for step in range(1, st.seats + 1):
        s = (st.active + step) % st.seats
        if s not in st.out:
            st.active = s
            break
    st.turn += 1
    start_turn(st)


def start_turn(st: "TransWarState") -> None:
    seat = st.active
    if st.turn > st.turn_cap:
        st.cap()
        return
    st.push("@end_turn")
    status = st.status[seat]
    if status["lost"] > 0:
        status["lost"] -= 1
        st.rec("skip", f"P{seat} loses this turn to Skunk Spray ({status['lost']} more to lose)", seat=seat)
        return
    status["sprayed"] = False  # "until he gets another turn"
    status["berserk"] = False
    form = st.form_of(seat)
    st.prep = {"seat": seat, "air": bool(form and form.fly == 0), "spray": 0, "breath": None, "roar": False,
               "base": 0}
    st.rec("turn", f"-- turn {st.turn}: P{seat} --", seat=seat, turn=st.turn)
    if not st.started[seat]:
        st.push("@first_turn", seat)
        return
    st.push("bookkeeping", seat)
    if status["bleeding"] and form is not None:
        hurt(st, seat, status["bleeding"], "Heavy Bleeding")


@STEPS.auto("@end_turn")
def _end_turn(st: "TransWarState", entry: Entry) -> None:
    st.prep = {}
    next_turn(st)


def hurt(st: "TransWarState", seat: int, amount: int, why: str) -> None:
    """Damage a Form; at zero or fewer hit points its player goes out unless it Transforms (Going Out)."""
    st.damage[seat] += amount
    st.rec("damage", f"{st.name(seat)} takes {amount} damage ({why}); {st.hp_left(seat)} HP left",
           seat=seat, amount=amount, why=why)
    if st.hp_left(seat) <= 0:
        st.push("going_out", seat)


# ---- the first turn ---------------------------------------------------------------------------
def valid_forms(st: "TransWarState", seat: int) -> list[str]:
    """Forms in hand whose cost the rest of the hand can pay."""
    hand = st.hands[seat]
    return [c for c in distinct(hand) if st.table.is_form(c) and st.table.form(c).cost <= len(hand) - 1]


@STEPS.auto("@first_turn")
def _first_turn(st: "TransWarState", entry: Entry) -> None:
    """"Get cards from the dealer, one card at a time, until your hand contains a valid Form."""
    seat = entry["seat"]
    while not valid_forms(st, seat):
        if not st.draw(seat, 1):
            st.eliminate(seat, "no valid Form and no card left to draw")
            return
    st.push("first_form", seat)


def _first_form_legal(st: "TransWarState", e: Entry) -> tuple:
    return tuple(("transform", f) for f in valid_forms(st, e["seat"]))


@STEPS.decision("first_form", _first_form_legal)
def _first_form(st: "TransWarState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    st.started[e["seat"]] = True
    st.tally["first_form"][e["seat"]] = action[1]
    begin_transform(st, e["seat"], action[1])


def begin_transform(st: "TransWarState", seat: int, form: str) -> None:
    """Play `form` from hand and discard its cost (the Form waits in the @transform step)."""
    st.hands[seat].remove(form)
    st.played[seat].add(form)
    st.push("@transform", seat, form=form)
    pay(st, seat, st.table.form(form).cost, f"Transform into {st.table[form].name}")


@STEPS.auto("@transform")
def _transform(st: "TransWarState", entry: Entry) -> None:
    become(st, entry["seat"], entry["form"])


def become(st: "TransWarState", seat: int, form: str) -> None:
    """The new Form replaces the old: damage and every effect on the old Form are gone."""
    old = st.forms[seat]
    if old:
        st.discard.append(old)
    st.forms[seat] = form
    st.damage[seat] = 0
    status = st.status[seat]
    status.update(broken=False, bleeding=0, berserk=False)
    if st.prep.get("seat") == seat:
        fly = st.table.form(form).fly
        st.prep.update(air=fly == 0)
    st.rec("transform", f"P{seat} transforms into {st.table[form].name}", seat=seat, form=form)


# ---- paying discards --------------------------------------------------------------------------
def pay(st: "TransWarState", seat: int, n: int, why: str) -> None:
    """`seat` discards `n` cards of its choice (one decision per card)."""
    if n > 0:
        st.push("pay", seat, n=n, why=why)


def _pay_legal(st: "TransWarState", e: Entry) -> tuple:
    return tuple(("discard", c) for c in distinct(st.hands[e["seat"]]))


@STEPS.decision("pay", _pay_legal)
def _pay(st: "TransWarState", e: Entry, action: tuple) -> None:
    seat = e["seat"]
    st.discard_from_hand(seat, action[1])
    st.rec("discard", f"P{seat} discards {st.table[action[1]].name} ({e['why']})", seat=seat, card=action[1])
    if e["n"] <= 1 or not st.hands[seat]:
        st.stack.pop()
    else:
        st.stack[-1] = dict(e, n=e["n"] - 1)


# ---- bookkeeping ------------------------------------------------------------------------------
def _bookkeeping_legal(st: "TransWarState", e: Entry) -> tuple:
    seat, prep = e["seat"], st.prep
    form, hand = st.form_of(seat), st.hands[seat]
    out: list[tuple] = []
    if form is not None:
        if form.fly and not prep["air"] and len(hand) >= form.fly:
            out.append(("fly",))
        if form.spray and not prep["spray"]:
            out.extend(("spray", n) for n in range(1, len(hand) + 1))
        if form.breath and prep["breath"] is None and hand:
            out.extend(("breath", m) for m in sorted(form.modes))
        if form.roar and not prep["roar"] and len(hand) >= 2:
            out.append(("roar",))
    for c in distinct(hand):
        info = st.table[c]
        if info.kind == "special" and info.timing == "bookkeeping" and len(hand) - 1 >= info.discard:
            out.append(("special", c))
    out.append(("done",))
    return tuple(out)


@STEPS.decision("bookkeeping", _bookkeeping_legal)
def _bookkeeping(st: "TransWarState", e: Entry, action: tuple) -> None:
    seat, prep, form = e["seat"], st.prep, st.form_of(e["seat"])
    what = action[0]
    if what == "done":
        st.stack[-1] = {"kind": "action", "seat": seat}
        return
    if what == "fly":
        prep["air"] = True
        st.rec("fly", f"{st.name(seat)} fuels its flight: airborne this turn", seat=seat)
        pay(st, seat, (form.fly or 0) if form else 0, "Fly fuel")
    elif what == "spray":
        prep["spray"] = action[1]
        st.rec("ability", f"{st.name(seat)} readies Skunk Spray ({action[1]} cards)", seat=seat, ability="spray")
        pay(st, seat, action[1], "Skunk Spray")
    elif what == "breath":
        prep["breath"] = action[1]
        st.rec("ability", f"{st.name(seat)} readies its Breath Weapon with {action[1]}", seat=seat, ability="breath")
        pay(st, seat, 1, "Breath Weapon")
    elif what == "roar":
        prep["roar"] = True
        st.rec("ability", f"{st.name(seat)} readies a Roar", seat=seat, ability="roar")
        pay(st, seat, 2, "Roar")
    elif what == "special":
        info = st.table[action[1]]
        st.discard_from_hand(seat, info.id)
        st.played[seat].add(info.id)
        prep["base"] = prep.get("base", 0) + info.amount
        if info.does == "berserk":
            st.status[seat]["berserk"] = True
        st.rec("special", f"P{seat} plays {info.name}", seat=seat, card=info.id)
        pay(st, seat, info.discard, info.name)


# ---- the action -------------------------------------------------------------------------------
def _action_legal(st: "TransWarState", e: Entry) -> tuple:
    seat = e["seat"]
    out: list[tuple] = [("transform", f) for f in valid_forms(st, seat)]
    out.extend(("attack", t) for t in st.alive() if t != seat)
    if len(st.hands[seat]) >= 2:
        out.append(("discard",))
    out.append(("build",))
    return tuple(out)


@STEPS.decision("action", _action_legal)
def _action(st: "TransWarState", e: Entry, action: tuple) -> None:
    seat = e["seat"]
    st.stack.pop()
    what = action[0]
    if what == "transform":
        begin_transform(st, seat, action[1])
    elif what == "attack":
        st.push("@attack", seat, target=action[1])  # fight.py's step: the attack begins at once
    elif what == "discard":
        st.rec("action", f"P{seat} discards two and refills", seat=seat, action="discard")
        st.push("@refill", seat)
        pay(st, seat, 2, "Discard action")
    else:
        st.rec("action", f"P{seat} builds", seat=seat, action="build")
        st.draw(seat, 2)


@STEPS.auto("@refill")
def _refill(st: "TransWarState", entry: Entry) -> None:
    seat = entry["seat"]
    st.draw(seat, max(0, HAND - len(st.hands[seat])))


# ---- Going Out --------------------------------------------------------------------------------
def _going_out_legal(st: "TransWarState", e: Entry) -> tuple:
    hand = st.hands[e["seat"]]
    return tuple(("reform", c) for c in distinct(hand) if st.table.is_form(c)) + (("give_up",),)


@STEPS.decision("going_out", _going_out_legal)
def _going_out(st: "TransWarState", e: Entry, action: tuple) -> None:
    seat = e["seat"]
    st.stack.pop()
    if action[0] == "give_up":
        st.eliminate(seat, "its Form died")
        return
    form = action[1]
    need = st.table.form(form).cost + max(0, -st.hp_left(seat))
    st.hands[seat].remove(form)
    st.played[seat].add(form)
    own = len(st.hands[seat])
    st.rec("going_out", f"{st.name(seat)} is dying and plays {st.table[form].name}: {need} cards to discard",
           seat=seat, form=form, need=need)
    if own >= need:
        st.push("@transform", seat, form=form)
        pay(st, seat, need, "Going Out")
        return
    st.rescue = {"seat": seat, "form": form, "short": need - own, "asked": [], "pledges": {}}
    st.push("@rescue_settle", seat)
    st.push("@pledges", seat)
    st.push("rescue_ask", seat)


def _rescue_ask_legal(st: "TransWarState", e: Entry) -> tuple:
    r = st.rescue or {}
    asked = r.get("asked", [])
    out = [("ask", s) for s in st.alive() if s != e["seat"] and s not in asked and st.hands[s]]
    return tuple(out) + (("ask_done",),)


@STEPS.decision("rescue_ask", _rescue_ask_legal)
def _rescue_ask(st: "TransWarState", e: Entry, action: tuple) -> None:
    if closes(st, action, "ask_done"):
        return
    r: dict[str, Any] = st.rescue  # type: ignore[assignment]
    r["asked"] = r["asked"] + [action[1]]
    st.rec("rescue_asked", f"P{e['seat']} asks P{action[1]} to help it stay in", seat=e["seat"], asked=action[1])


@STEPS.auto("@pledges")
def _pledges(st: "TransWarState", entry: Entry) -> None:
    r: dict[str, Any] = st.rescue  # type: ignore[assignment]
    for s in reversed(r["asked"]):
        st.push("pledge", s, dying=r["seat"])


def _pledge_legal(st: "TransWarState", e: Entry) -> tuple:
    r: dict[str, Any] = st.rescue  # type: ignore[assignment]
    left = r["short"] - sum(r["pledges"].values())
    return tuple(("pledge", k) for k in range(0, min(len(st.hands[e["seat"]]), max(0, left)) + 1))


@STEPS.decision("pledge", _pledge_legal)
def _pledge(st: "TransWarState", e: Entry, action: tuple) -> None:
    r: dict[str, Any] = st.rescue  # type: ignore[assignment]
    st.stack.pop()
    if action[1]:
        r["pledges"] = dict(r["pledges"], **{str(e["seat"]): action[1]})
    st.rec("pledge", f"P{e['seat']} offers {action[1]} card(s) to P{r['seat']}", seat=e["seat"],
           dying=r["seat"], cards=action[1])


@STEPS.auto("@rescue_settle")
def _rescue_settle(st: "TransWarState", entry: Entry) -> None:
    """Enough cards offered: the dying player discards its hand and the helpers their offers."""
    r: dict[str, Any] = st.rescue  # type: ignore[assignment]
    st.rescue = None
    seat = r["seat"]
    if sum(r["pledges"].values()) < r["short"]:
        st.discard.append(r["form"])
        st.eliminate(seat, "its Form died and the cards to Transform were not found")
        return
    st.rec("rescued", f"P{seat} is helped to Transform by {', '.join('P' + s for s in r['pledges'])}",
           seat=seat, helpers=[int(s) for s in r["pledges"]])
    for card in list(st.hands[seat]):
        st.discard_from_hand(seat, card)
    st.push("@transform", seat, form=r["form"])
    for s, n in r["pledges"].items():
        pay(st, int(s), n, f"helping P{seat} stay in")
