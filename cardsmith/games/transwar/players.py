"""TransWar's own players: `brawler`, a rule-based player that fights for the game's victory (the
damage it can deal now, the Forms that keep it standing), and `scrapper`, the same with the turn's
action (transform, attack whom, build, discard) chosen at random.

Both read only their seat's observation and the legal actions: their own hand, every Form and its
damage (public), the cards on the table and how many cards each other hand holds. A decision is one
pass over a few numbers, so a game costs a few times a random game.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from cardsmith.games.transwar.cards import CardTable, FormStats
from cardsmith.games.transwar.fight import totals
from cardsmith.games.transwar.state import HIDDEN

Obs = Mapping[str, Any]
Action = tuple

# The mean Defense a hidden card adds when its holder defends (the standard deck: 115 points of
# Defense cards and 4 Evades of 5 among 98 cards, about one card in two not a Form or an Attack).
DEFENSE_PER_CARD = 1.4
ATTACK_PER_CARD = 1.5   # and the mean Attack a hidden card adds to an attack (a guess: mode and multiple vary)


class Brawler:
    """Attack the opponent it can hurt most when the attack should get through, with every Attack card
    of the chosen mode; defend only when the cards change the outcome; build the hand otherwise;
    Transform to a sturdier Form before the Form in play is nearly dead.

    `edge`: how much the expected attack must exceed the expected defense to attack (default 2);
    `pick`: False chooses the turn's action at random (the `scrapper` rung)."""

    name = "brawler"

    def __init__(self, game: Any, edge: int = 2, pick: bool = True):
        self.table: CardTable = game.table
        self.edge = edge
        self.pick = pick
        self._by_kind: dict[str, Callable[[Obs, tuple, int], Action | None]] = {
            "first_form": self._form_choice, "going_out": self._going_out, "pay": self._pay,
            "action": self._action, "mode": self._mode, "cards": self._cards, "take": lambda o, legal, s: legal[-1],
            "draw": lambda o, legal, s: legal[-1], "rescue_ask": lambda o, legal, s: legal[0],
            "pledge": lambda o, legal, s: legal[0], "ask": lambda o, legal, s: ("ask_done",),
            "answer": lambda o, legal, s: ("decline",), "ready": self._ready, "bookkeeping": self._bookkeeping,
        }

    def act(self, observation: Obs, legal_actions: tuple, rng: random.Random, seat: int) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        stack = observation["stack"]
        kind = stack[-1]["kind"] if stack else ""
        if kind == "action" and not self.pick:
            return legal_actions[rng.randrange(len(legal_actions))]
        rule = self._by_kind.get(kind)
        if rule is not None:
            choice = rule(observation, legal_actions, seat)
            if choice is not None and choice in legal_actions:
                return choice
        return legal_actions[-1] if kind in ("ready", "bookkeeping") else legal_actions[0]

    # ---- what the numbers say -------------------------------------------------------------------
    def _form(self, obs: Obs, seat: int) -> FormStats | None:
        fid = obs["forms"][seat]
        return self.table.form(fid) if fid else None

    def _hp(self, obs: Obs, seat: int) -> int:
        f = self._form(obs, seat)
        return f.hp - int(obs["damage"][seat]) if f else 0

    def _form_value(self, fid: str) -> float:
        f = self.table.form(fid)
        best = max(f.modes.values(), default=0)
        return f.hp + 2 * (f.attack + best) + f.defense + (6 if f.fly == 0 else 0) + (4 if f.breath else 0)

    def _attack_plan(self, obs: Obs, seat: int, target: int) -> tuple[float, str | None]:
        """(expected attack total less expected defense, the best mode) against `target`, counting the
        Attack cards in hand; a mode that cannot reach an airborne target counts nothing."""
        me, them = self._form(obs, seat), self._form(obs, target)
        if me is None or them is None:
            return -1e9, None
        hand = obs["hands"][seat]
        mult: dict[str, int] = {}
        leap = False
        hidden = 0
        for c in hand:
            if c == HIDDEN:  # another seat's card: counted at its mean worth below
                hidden += 1
                continue
            info = self.table[c]
            if info.kind == "attack":
                mult[info.mode] = mult.get(info.mode, 0) + info.multiple
            elif info.kind == "special" and info.does == "leap":
                leap = True
        prep = obs.get("prep") or {}
        extra = mult.get("base", 0) + (int(prep.get("base", 0)) if prep.get("seat") == seat else 0)
        base = me.attack * (1 + extra)
        airborne_me = me.fly == 0 or bool(prep.get("air")) and prep.get("seat") == seat
        reach = them.fly != 0 or airborne_me or leap
        best, best_mode = 0.0, None
        for option in me.attack_options():
            total = 0
            for m in option.split("+"):
                if reach:
                    total += base + me.modes.get(m, 0) * (1 + mult.get(m, 0))
            if total > best:
                best, best_mode = total, option
        if prep.get("breath") and prep.get("seat") == seat:
            best = max(best, base + (me.breath or 0) + (base + me.modes.get(prep["breath"], 0) if reach else 0))
        defense = them.defense + DEFENSE_PER_CARD * len(obs["hands"][target])
        return best + ATTACK_PER_CARD * hidden - defense, best_mode

    # ---- the turn -------------------------------------------------------------------------------
    def _action(self, obs: Obs, legal: tuple, seat: int) -> Action:
        hp = self._hp(obs, seat)
        forms = [a for a in legal if a[0] == "transform"]
        if forms:
            best = max(forms, key=lambda a: self._form_value(a[1]))
            new = self.table.form(best[1])
            # The worst attack an opponent may bring next turn, against this Form's defense.
            danger = max((self._attack_plan(obs, s, seat)[0] for s in range(int(obs["seats"]))
                          if s != seat and s not in obs["out"] and obs["forms"][s]), default=0.0)
            current = obs["forms"][seat]
            better = current is None or self._form_value(best[1]) > self._form_value(current) + 15
            if new.hp > hp + 4 and (danger >= hp - 2 or better):
                return best
        targets = []
        for a in legal:
            if a[0] == "attack":
                edge, _ = self._attack_plan(obs, seat, a[1])
                if edge > self.edge:
                    left = self._hp(obs, a[1])
                    # A kill first, then the most damage, then the weakest opponent.
                    targets.append(((edge >= left), edge, -left, a))
        if targets:
            return max(targets, key=lambda t: t[:3])[3]
        if len(obs["hands"][seat]) >= 7 and ("discard",) in legal:
            return ("discard",)
        return ("build",)

    def _bookkeeping(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """Fuel a flight to reach an airborne target, Roar (no Defense cards) or rage before an attack."""
        opponents = [s for s in range(int(obs["seats"])) if s != seat and s not in obs["out"] and obs["forms"][s]]
        if not opponents:
            return ("done",)
        edge = max(self._attack_plan(obs, seat, t)[0] for t in opponents)
        if ("fly",) in legal:
            flying = dict(obs, prep=dict(obs.get("prep") or {}, air=True, seat=seat))
            if max(self._attack_plan(flying, seat, t)[0] for t in opponents) > max(edge, self.edge) + 2:
                return ("fly",)
        if edge > self.edge - 6:  # an attack is near: make it count
            if ("roar",) in legal and len(obs["hands"][seat]) >= 4:
                return ("roar",)
            for a in legal:
                if a[0] == "special" and self.table[a[1]].does == "base_multiple":
                    return a
        return ("done",)

    def _mode(self, obs: Obs, legal: tuple, seat: int) -> Action:
        a = obs["attack"]
        _, mode = self._attack_plan(obs, seat, a["defender"])
        return ("mode", mode) if mode else legal[0]

    def _cards(self, obs: Obs, legal: tuple, seat: int) -> Action:
        a = obs["attack"]
        side = obs["stack"][-1]["side"]
        plays = [x for x in legal if x[0] == "play"]
        if side == "att":
            if seat != a["attacker"]:
                return ("done",)
            for x in plays:
                info = self.table[x[1]]
                if info.kind == "attack" or info.does in ("leap", "ignore_base_defense", "base_multiple", "bleeding"):
                    if info.does == "leap" and (a["air_att"] or not a["air_def"]):
                        continue
                    return x
            return ("done",)
        if seat != a["defender"]:
            return ("done",)
        at, dt = _totals(self.table, obs)
        if at <= dt:
            return ("done",)
        # Block with the smallest card that suffices, else the largest (less damage).
        worth = []
        for x in plays:
            info = self.table[x[1]]
            if info.kind == "defense":
                worth.append((info.bonus, x))
            elif info.does == "evade":
                form = self._form(obs, seat)
                worth.append((info.amount * (2 if form and form.evade else 1), x))
            elif info.does == "halve_damage":
                worth.append(((at - dt) // 2, x))
        if not worth:
            return ("done",)
        enough = [w for w in worth if dt + w[0] >= at]
        return min(enough)[1] if enough else max(worth)[1]

    def _ready(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """Hide from an attack that would take most of the Form's health."""
        a = obs["attack"]
        edge, _ = self._attack_plan(obs, a["attacker"], seat)
        hides = [x for x in legal if x[0] == "special"]
        if hides and edge + 6 >= self._hp(obs, seat):
            return hides[0]
        if ("fly",) in legal and not a["air_att"] and edge > -4:
            return ("fly",)  # out of reach of ground attacks (unless the attacker leaps)
        return ("ready",)

    # ---- cards ----------------------------------------------------------------------------------
    def _form_choice(self, obs: Obs, legal: tuple, seat: int) -> Action:
        return max(legal, key=lambda a: (self._form_value(a[1]), a[1]))

    def _going_out(self, obs: Obs, legal: tuple, seat: int) -> Action:
        hand = len(obs["hands"][seat])
        forms = [a for a in legal if a[0] == "reform"]
        if not forms:
            return ("give_up",)
        over = max(0, -self._hp(obs, seat))
        # A Form the hand can pay for (the rest of the hand), the sturdiest of them.
        payable = [a for a in forms if self.table.form(a[1]).cost + over <= hand - 1]
        return max(payable or forms, key=lambda a: (self._form_value(a[1]), a[1]))

    def _keep_value(self, obs: Obs, seat: int, card: str, me: FormStats | None) -> float:
        info = self.table[card]
        if info.kind == "attack":
            if me is None:
                return 2 * info.multiple
            if info.mode == "base":
                return 3 * info.multiple * me.attack / 2
            return info.multiple * me.modes.get(info.mode, 0)
        if info.kind == "defense":
            return info.bonus / 2
        if info.kind == "form":
            return 3 + info.form.hp / 5 if info.form else 3  # a spare Form: the way back from Going Out
        return 4 if info.does in ("evade", "cancel_attack", "leap", "ignore_base_defense") else 2

    def _pay(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """The card least useful to the Form the seat will have (one it is paying for, else its own)."""
        coming = [e["form"] for e in obs["stack"] if e["kind"] == "@transform" and e.get("seat") == seat]
        me = self.table.form(coming[-1]) if coming else self._form(obs, seat)
        return min(legal, key=lambda a: (self._keep_value(obs, seat, a[1], me), a[1]))


class _Seen:
    """The observation as `fight.totals` reads a state (the attack, statuses, the turn's preparations
    and each seat's Form): every one of them is public."""

    def __init__(self, table: CardTable, obs: Obs):
        self.table, self.forms = table, obs["forms"]
        self.attack, self.status, self.prep = obs["attack"], obs["status"], obs.get("prep") or {}

    def form_of(self, seat: int) -> FormStats | None:
        fid = self.forms[seat]
        return self.table.form(fid) if fid else None


def _totals(table: CardTable, obs: Obs) -> tuple[int, int]:
    """The attack's totals so far, as the rules count them."""
    view: Any = _Seen(table, obs)
    return totals(view)
