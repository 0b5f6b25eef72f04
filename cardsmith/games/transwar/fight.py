"""The attack sequence: allies on both sides, the defender's readiness (flight fuel, Roar, Skunk
Spray, Hide), the attack mode, the cards of each side, the totals and what the winners get.

`st.attack` holds the attack as plain data while it runs; `totals(st)` gives both sides' totals
at any moment (agents and tests use it). Readings of the text: docs/rules/transwar.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.games.transwar.cards import BREATH
from cardsmith.games.transwar.flow import hurt, pay
from cardsmith.engine.kit.steps import Entry
from cardsmith.games.transwar.state import STEPS
from cardsmith.games.transwar.steps import closes, distinct

if TYPE_CHECKING:
    from cardsmith.games.transwar.state import TransWarState

SIDES = ("att", "def")
TAKE = 2       # "take up to two cards from the attacker's hand"
PER_CARD = 2   # allies "draw as many as two cards ... for each card they played"
# Specials that set a flag on the attack: effect name -> flag.
FLAGS = {"leap": "leap", "blind": "blind", "ignore_base_defense": "perfect", "halve_damage": "feign",
         "broken_limb": "broken"}


@STEPS.auto("@attack")
def _attack(st: "TransWarState", e: Entry) -> None:
    begin_attack(st, e["seat"], e["target"])


def begin_attack(st: "TransWarState", att: int, dfn: int) -> None:
    dform = st.form_of(dfn)
    st.attack = {
        "attacker": att, "defender": dfn, "asked": {"att": [], "def": []}, "allies": {"att": [], "def": []},
        "modes": [], "played": {}, "mult": {}, "air_att": bool(st.prep.get("air")),
        "air_def": bool(dform and dform.fly == 0), "leap": False, "roar": None, "blind": False,
        "perfect": False, "feign": False, "broken": False, "bleeding": 0, "def_bonus": 0,
        "coordinate": {"att": 0, "def": 0}, "luck": {"att": 0, "def": 0},
    }
    st.rec("attack", f"{st.name(att)} attacks {st.name(dfn)}", seat=att, target=dfn)
    if st.prep.get("spray"):
        spray(st, att, dfn, st.prep["spray"])
    if st.prep.get("roar"):
        roar(st, att)
    for kind, seat, side in reversed((
            ("ask", att, "att"), ("@answers", None, "att"), ("ready", dfn, None), ("ask", dfn, "def"),
            ("@answers", None, "def"), ("@choose_mode", None, None), ("cards", att, "att"), ("cards", dfn, "def"),
            ("@ally_cards", None, "att"), ("@ally_cards", None, "def"), ("@resolve", None, None),
            ("@attack_end", None, None))):
        if side is None:
            st.push(kind, seat)
        else:
            st.push(kind, seat, side=side)


def spray(st: "TransWarState", skunk: int, victim: int, n: int) -> None:
    """Skunk Spray: the victim loses its next n turns and plays no Attack or Defense cards until then."""
    status = st.status[victim]
    status["lost"] += n
    status["sprayed"] = True
    st.rec("spray", f"{st.name(skunk)} sprays P{victim}: {n} turn(s) lost", seat=skunk, victim=victim, turns=n)


def roar(st: "TransWarState", lion: int) -> None:
    st.attack["roar"] = lion  # type: ignore[index]
    st.rec("roar", f"{st.name(lion)} roars: nobody else plays Attack or Defense cards this attack", seat=lion)


def side_of(a: dict[str, Any], seat: int) -> str | None:
    if seat == a["attacker"] or seat in a["allies"]["att"]:
        return "att"
    if seat == a["defender"] or seat in a["allies"]["def"]:
        return "def"
    return None


# ---- allies -----------------------------------------------------------------------------------
def _ask_legal(st: "TransWarState", e: Entry) -> tuple:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    side = e["side"]
    busy = {a["attacker"], a["defender"], *a["asked"][side], *(a["allies"]["att"] if side == "def" else ())}
    return tuple(("ask", s) for s in st.alive() if s not in busy) + (("ask_done",),)


@STEPS.decision("ask", _ask_legal)
def _ask(st: "TransWarState", e: Entry, action: tuple) -> None:
    if closes(st, action, "ask_done"):
        return
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    side = e["side"]
    a["asked"][side] = a["asked"][side] + [action[1]]
    st.tally["asks"][e["seat"]] += 1
    st.tally["asked"][action[1]] += 1
    role = "attacker" if side == "att" else "defender"
    st.rec("ally_asked", f"P{e['seat']} (the {role}) asks P{action[1]} for help", seat=e["seat"], asked=action[1],
           side=side)


@STEPS.auto("@answers")
def _answers(st: "TransWarState", entry: Entry) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    for s in reversed(a["asked"][entry["side"]]):
        st.push("answer", s, side=entry["side"])


def _answer_legal(st: "TransWarState", e: Entry) -> tuple:
    return (("join",), ("decline",))


@STEPS.decision("answer", _answer_legal)
def _answer(st: "TransWarState", e: Entry, action: tuple) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    st.stack.pop()
    side, seat = e["side"], e["seat"]
    joined = action[0] == "join"
    if joined:
        a["allies"][side] = a["allies"][side] + [seat]
        st.tally["joined"][seat] += 1
    whom = a["attacker"] if side == "att" else a["defender"]
    st.rec("ally_answer", f"P{seat} {'joins' if joined else 'declines to help'} P{whom}", seat=seat, side=side,
           joined=joined)


# ---- the defender gets ready ------------------------------------------------------------------
def _hides(st: "TransWarState", seat: int) -> list[str]:
    return [c for c in distinct(st.hands[seat])
            if st.table[c].kind == "special" and st.table[c].timing == "attacked"
            and st.table[c].discard <= len(st.hands[seat]) - 1]


def _ready_legal(st: "TransWarState", e: Entry) -> tuple:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    seat, form, hand = e["seat"], st.form_of(e["seat"]), st.hands[e["seat"]]
    out: list[tuple] = []
    if form is not None:
        if form.fly and not a["air_def"] and len(hand) >= form.fly:
            out.append(("fly",))
        if form.roar and a["roar"] is None and len(hand) >= 2:
            out.append(("roar",))
        if form.spray and not e.get("sprayed"):
            out.extend(("spray", n) for n in range(1, len(hand) + 1))
    out.extend(("special", c) for c in _hides(st, seat))
    return tuple(out) + (("ready",),)


@STEPS.decision("ready", _ready_legal)
def _ready(st: "TransWarState", e: Entry, action: tuple) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    seat, form, what = e["seat"], st.form_of(e["seat"]), action[0]
    if what == "ready":
        st.stack.pop()
    elif what == "fly":
        a["air_def"] = True
        st.rec("fly", f"{st.name(seat)} fuels its flight: airborne for this attack", seat=seat)
        pay(st, seat, (form.fly or 0) if form else 0, "Fly fuel")
    elif what == "roar":
        roar(st, seat)
        pay(st, seat, 2, "Roar")
    elif what == "spray":
        st.stack[-1] = dict(e, sprayed=True)
        spray(st, seat, a["attacker"], action[1])
        pay(st, seat, action[1], "Skunk Spray")
    else:
        info = st.table[action[1]]
        st.discard_from_hand(seat, info.id)
        st.played[seat].add(info.id)
        st.rec("special", f"P{seat} plays {info.name}: the attack is called off", seat=seat, card=info.id)
        while st.stack and st.stack[-1]["kind"] != "@attack_end":
            st.stack.pop()
        pay(st, seat, info.discard, info.name)


# ---- the attack mode --------------------------------------------------------------------------
@STEPS.auto("@choose_mode")
def _choose_mode(st: "TransWarState", entry: Entry) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    breath = st.prep.get("breath")
    if breath:
        a["modes"] = [BREATH, breath]
        st.rec("mode", f"{st.name(a['attacker'])} attacks with Breath Weapon and {breath}", modes=a["modes"])
    else:
        st.push("mode", a["attacker"])


def _mode_legal(st: "TransWarState", e: Entry) -> tuple:
    form = st.form_of(e["seat"])
    return tuple(("mode", m) for m in form.attack_options()) if form else ()


@STEPS.decision("mode", _mode_legal)
def _mode(st: "TransWarState", e: Entry, action: tuple) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    st.stack.pop()
    a["modes"] = action[1].split("+")
    st.rec("mode", f"{st.name(e['seat'])} attacks with {action[1]}", seat=e["seat"], modes=a["modes"])


# ---- cards ------------------------------------------------------------------------------------
def blocked(st: "TransWarState", seat: int) -> bool:
    """Sprayed, or under another player's Roar: no Attack or Defense cards."""
    a = st.attack or {}
    return st.status[seat]["sprayed"] or (a.get("roar") is not None and a["roar"] != seat)


def playable(st: "TransWarState", seat: int, side: str) -> list[str]:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    hand, out = st.hands[seat], []
    no_cards = blocked(st, seat)
    for c in distinct(hand):
        info = st.table[c]
        if info.kind == "attack":
            ok = side == "att" and not no_cards and (info.mode == "base" or info.mode in a["modes"])
        elif info.kind == "defense":
            ok = side == "def" and not no_cards and not (a["blind"] and seat == a["defender"])
        elif info.kind == "special":
            timing = info.timing
            ok = (timing == "either" or timing == ("assault" if side == "att" else "defend")) \
                and info.discard <= len(hand) - 1
        else:
            ok = False
        if ok:
            out.append(c)
    return out


def _cards_legal(st: "TransWarState", e: Entry) -> tuple:
    return tuple(("play", c) for c in playable(st, e["seat"], e["side"])) + (("done",),)


@STEPS.decision("cards", _cards_legal)
def _cards(st: "TransWarState", e: Entry, action: tuple) -> None:
    if closes(st, action, "done"):
        return
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    seat, side, info = e["seat"], e["side"], st.table[action[1]]
    st.hands[seat].remove(info.id)
    key = str(seat)
    a["played"][key] = a["played"].get(key, []) + [info.id]
    st.played[seat].add(info.id)
    whom = a["attacker"] if side == "att" else a["defender"]
    st.rec("play", f"P{seat} plays {info.name} on P{whom}", seat=seat, card=info.id, side=side)
    if info.kind == "attack":
        a["mult"][info.mode] = a["mult"].get(info.mode, 0) + info.multiple
    elif info.kind == "defense":
        a["def_bonus"] += info.bonus
    else:
        _special(st, a, info, side)
        pay(st, seat, info.discard, info.name)


def _special(st: "TransWarState", a: dict[str, Any], info: Any, side: str) -> None:
    does = info.does
    if does == "evade":
        dform = st.form_of(a["defender"])
        a["def_bonus"] += info.amount * (2 if dform and dform.evade else 1)
    elif does in FLAGS:
        a[FLAGS[does]] = True
    elif does == "bleeding":
        a["bleeding"] = max(a["bleeding"], info.amount)
    elif does == "per_ally":
        a["coordinate"][side] += info.amount
    elif does == "luck":
        roll = st.chance.roll(6, "Stroke of Luck", "public")
        a["luck"][side] += info.amount * roll
        st.rec("roll", f"Stroke of Luck: rolled {roll}, +{info.amount * roll}", roll=roll, side=side)
    elif does == "base_multiple":
        a["mult"]["base"] = a["mult"].get("base", 0) + info.amount


@STEPS.auto("@ally_cards")
def _ally_cards(st: "TransWarState", entry: Entry) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    for s in reversed(a["allies"][entry["side"]]):
        st.push("cards", s, side=entry["side"])


# ---- the totals and the winner ----------------------------------------------------------------
def totals(st: "TransWarState") -> tuple[int, int]:
    """(attack total, defense total) of the attack in progress, by the text's Determine Victor."""
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    att, dfn = a["attacker"], a["defender"]
    aform, dform = st.form_of(att), st.form_of(dfn)
    mult = a["mult"]
    att_total = 0
    if aform is not None and a["modes"]:
        base = 0 if st.status[att]["broken"] else aform.attack
        extra = mult.get("base", 0) + (st.prep.get("base", 0) if st.prep.get("seat") == att else 0)
        base_eff = base * (1 + extra)
        ground = not a["air_def"] or a["air_att"] or a["leap"]
        reached = False
        for m in a["modes"]:
            if m == BREATH:
                att_total += base_eff + (aform.breath or 0)
                reached = True
            elif ground:
                att_total += base_eff + aform.modes.get(m, 0) * (1 + mult.get(m, 0))
                reached = True
        if reached:
            att_total += a["coordinate"]["att"] * len(a["allies"]["att"]) + a["luck"]["att"]
    base_def = 0 if dform is None or a["perfect"] or st.status[dfn]["berserk"] else dform.defense
    def_total = base_def + a["def_bonus"] + a["coordinate"]["def"] * len(a["allies"]["def"]) + a["luck"]["def"]
    return att_total, def_total


def parts(st: "TransWarState") -> tuple[dict[str, int], dict[str, int]]:
    """Both sides' totals by their parts (the `result` event's `parts`; docs/rules/transwar.md): what
    `totals` adds up, kept apart (`totals` stays the quick sum the heuristic asks for every look-ahead;
    tests/test_results.py holds the two to the same figures)."""
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    att, dfn = a["attacker"], a["defender"]
    aform, dform = st.form_of(att), st.form_of(dfn)
    mult = a["mult"]
    att_parts: dict[str, int] = {}
    if aform is not None and a["modes"]:
        base = 0 if st.status[att]["broken"] else aform.attack
        extra = mult.get("base", 0) + (st.prep.get("base", 0) if st.prep.get("seat") == att else 0)
        base_eff = base * (1 + extra)
        ground = not a["air_def"] or a["air_att"] or a["leap"]
        for m in a["modes"]:
            if m == BREATH:
                att_parts[f"base ({m})"], att_parts[m] = base_eff, aform.breath or 0
            elif ground:
                att_parts[f"base ({m})"], att_parts[m] = base_eff, aform.modes.get(m, 0) * (1 + mult.get(m, 0))
        if att_parts:  # a mode reached the defender
            att_parts["allies"] = a["coordinate"]["att"] * len(a["allies"]["att"])
            att_parts["luck"] = a["luck"]["att"]
    base_def = 0 if dform is None or a["perfect"] or st.status[dfn]["berserk"] else dform.defense
    def_parts = {"defense": base_def, "cards": a["def_bonus"],
                 "allies": a["coordinate"]["def"] * len(a["allies"]["def"]), "luck": a["luck"]["def"]}
    return att_parts, def_parts


@STEPS.auto("@resolve")
def _resolve(st: "TransWarState", entry: Entry) -> None:
    a: dict[str, Any] = st.attack  # type: ignore[assignment]
    att, dfn = a["attacker"], a["defender"]
    at, dt = totals(st)
    shares = parts(st)
    # "all cards played on the opponents are discarded"
    for cards in a["played"].values():
        st.discard.extend(cards)
    counts = {int(s): len(c) for s, c in a["played"].items()}
    a["played"] = {}
    won = at > dt
    st.rec("result", f"attack {at} against defense {dt}: the {'attacker' if won else 'defender'} wins",
           attacker=att, defender=dfn, attack=at, defense=dt, winner=att if won else dfn, allies=dict(a["allies"]),
           resolution="attack", sides=[{"seat": att, "role": "attack", "total": at, "parts": shares[0]},
                                       {"seat": dfn, "role": "defend", "total": dt, "parts": shares[1]}])
    side = "att" if won else "def"
    for s in a["allies"][side]:
        st.tally["ally_won"][s] += 1
    for s in a["allies"]["def" if won else "att"]:
        st.tally["ally_lost"][s] += 1
    for s in reversed(a["allies"][side]):
        n = counts.get(s, 0)
        if n:
            st.push("draw", s, max=PER_CARD * n)
    if won:
        dmg = at - dt
        if a["feign"]:
            dmg //= 2
        if dmg > 0:
            if a["broken"]:
                st.status[dfn]["broken"] = True
            if a["bleeding"]:
                st.status[dfn]["bleeding"] = max(st.status[dfn]["bleeding"], a["bleeding"])
            hurt(st, dfn, dmg, f"attack by P{att}")
    elif st.hands[att]:
        st.push("take", dfn, victim=att)


@STEPS.auto("@attack_end")
def _attack_end(st: "TransWarState", entry: Entry) -> None:
    st.attack = None


def _draw_legal(st: "TransWarState", e: Entry) -> tuple:
    most = min(e["max"], len(st.deck) + len(st.discard))
    return tuple(("draw", k) for k in range(most + 1))


@STEPS.decision("draw", _draw_legal)
def _draw(st: "TransWarState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    st.rec("ally_reward", f"P{e['seat']} draws {action[1]} of {e['max']} for helping", seat=e["seat"],
           drew=action[1], allowed=e["max"])
    st.tally["reward_cards"][e["seat"]] += len(st.draw(e["seat"], action[1]))


def _take_legal(st: "TransWarState", e: Entry) -> tuple:
    return tuple(("take", k) for k in range(min(TAKE, len(st.hands[e["victim"]])) + 1))


@STEPS.decision("take", _take_legal)
def _take(st: "TransWarState", e: Entry, action: tuple) -> None:
    st.stack.pop()
    seat, victim = e["seat"], e["victim"]
    taken = []
    for _ in range(action[1]):
        hand = st.hands[victim]
        card = hand.pop(st.chance.randrange(len(hand), "take a card", "public"))
        st.hands[seat].append(card)
        taken.append(card)
    st.rec("take", f"P{seat} takes {len(taken)} card(s) from P{victim}", seat=seat, victim=victim, count=len(taken))
    if taken:
        st.rec("taken", "", seen_by=(seat, victim), seat=seat, victim=victim, cards=taken)
