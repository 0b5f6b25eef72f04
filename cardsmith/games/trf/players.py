"""TRF's own player: `planner`, a rule-based policy that plays each step of the turn for TRF's own
victory (take planets until the homeworld falls) at the cost of a few table look-ups a decision.

It sees what an honest agent sees: its seat's observation and the legal actions. It reads the
observation through the rules' own table helpers (`Board` over the observation's data, never a
copy of the true state): pools, costs, who may attack or block, a fight side's combat. Each call
works the whole plan of the step out again from the observation (what to buy, whom to send, whom to
block, where the fleets go) and answers its first action not yet taken, so a plan carried over
several actions needs no memory between calls.

- Buy: the set of characters (and Unique revivals) the meters pay for with the most strength
  (combat + capture, fleets preferred), found by a small knapsack; draw planets are activated
  with meters to spare.
- Roleplay: destroy, draw and word abilities; non-combat OOC cards; individuals join the
  strongest free fleets; then attack with every fleet when the fleets the blockers cannot cover
  would take a planet (or nobody can block), else wait: fleets are what takes planets and most
  cannot come back, so none is sent into blockers for a fight (see `attackers`).
- Block: fights with good odds first; then, while the unblocked fleets would still take a planet,
  chump blocks (a blocked fleet captures nothing whatever the dice say), individuals first.
- Capture: the assignment of fleets to planets that takes the most (the homeworld wins).
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any, Iterable, Mapping, Sequence

from cardsmith.games.trf.board import Board
from cardsmith.games.trf.evaluate import win_chance
from cardsmith.games.trf.fights import capturable, planet_value, side_total, unblocked_fleets


class PlannerAgent:
    """A rule-based TRF player (module docstring): cheap, honest, plays every step for the win."""

    name = "planner"

    def __init__(self, game: Any):
        self.game = game
        self.infos = game.infos
        self.fleet_block = 0.65  # the odds a fleet needs to block a fleet (capture power is scarce)
        self.standoff = 30  # the turn after which, the decks drawn, the stronger army forces the fights
        self.edge = 1.0  # how much stronger (army against blockers) that takes
        self.late = 60  # the turn after which whoever can attack does

    # --- the agent contract ---------------------------------------------------------------------
    def act(self, observation: Any, legal_actions: tuple, rng: random.Random, seat: int) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        view = self.game.state_class(observation, None)  # the observation read through the table helpers
        phase = observation["phase"]
        choice = getattr(self, "_" + phase)(view, seat, legal_actions)
        if choice is None or choice not in legal_actions:
            choice = self._fallback(legal_actions)
        return choice

    @staticmethod
    def _fallback(legal: Sequence[tuple]) -> tuple:
        """The step's way on (pass, done, fight, no_attack) when the plan has nothing to add."""
        for kind in ("pass", "done", "fight", "no_attack"):
            if (kind,) in legal:
                return (kind,)
        return legal[0]

    # --- values -----------------------------------------------------------------------------------
    def strength(self, cid: str) -> float:
        """What a character is worth on the table: fights and, for fleets, captures."""
        info = self.infos[cid]
        bonus = sum(e["amount"] for e in info.effects if e.get("do") in ("defend_bonus", "fleet_bonus"))
        return info.combat + info.capture + (2 if info.fleeter else 0) + 0.5 * bonus + (1 if info.acts else 0)

    def card_value(self, cid: str) -> float:
        """What a card in hand is worth (to choose what Azguard's revival discards)."""
        info = self.infos[cid]
        if info.type == "character":
            return self.strength(cid)
        return 4.0 if info.type == "planet" else 2.0

    # --- the steps --------------------------------------------------------------------------------
    def _draw(self, v: Board, seat: int, legal: tuple) -> tuple:
        return ("draw",) if ("draw",) in legal else ("pass",)

    def _planet(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        planets = [a for a in legal if a[0] == "planet"]
        if not planets:
            return None
        return max(planets, key=lambda a: (self.infos[a[1]].meters + self.infos[a[1]].words / 5, a[1]))

    def _buy(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        plan = self.buy_plan(v, seat, legal)
        if plan:
            return plan[0]
        return self._activation(legal) or self._azguard(v, seat, legal)

    def buy_plan(self, v: Board, seat: int, legal: tuple) -> list[tuple]:
        """The buys and revivals (strongest first) that the meters left pay for with the most strength."""
        meters = v.pools(seat)[0]
        hand = v.d["p"][seat]["hand"]
        items: list[tuple[tuple, int, float]] = []
        for a in legal:
            if a[0] == "buy":
                cost = v.char_cost(seat, a[1]) or 0
                copies = 1 if self.infos[a[1]].unique else hand.count(a[1])
                items += [(a, cost, self.strength(a[1]))] * copies
            elif a[0] == "revive":
                items.append((a, 2 * (v.char_cost(seat, a[1]) or 0), self.strength(a[1])))
        best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
        for i, (_, cost, value) in enumerate(items):
            for spent, (total, chosen) in list(best.items()):
                if spent + cost <= meters:
                    key = spent + cost
                    if key not in best or best[key][0] < total + value:
                        best[key] = (total + value, chosen + (i,))
        _, chosen = max(best.values(), key=lambda x: (x[0], -len(x[1])))
        picks = sorted((items[i] for i in chosen), key=lambda x: -x[2])
        return [a for a, _, _ in picks]

    def _activation(self, legal: tuple) -> tuple | None:
        """A planet that draws or gains words, when the pool can spare what it would give (the
        rules offer it only then)."""
        for a in legal:
            if a[0] == "activate" and len(a) == 2:
                return a
        return None

    def _azguard(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        """Azguard's revival, when the character back is worth clearly more than the two cards paid."""
        best, gain = None, 4.0
        for a in legal:
            if a[0] == "activate" and len(a) > 3:
                g = self.strength(a[2]) - sum(self.card_value(c) for c in a[3:])
                if g > gain:
                    best, gain = a, g
        return best

    def _roleplay(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        mine = {c["uid"]: c for c in v.chars_of(seat)}
        for a in legal:  # abilities first: a character that joins a fleet would spend the fleet's turn
            if a[0] == "ability" and mine[a[1]]["fleet"] is None:
                return self._best_target(v, seat, legal, a[:2]) if len(a) > 2 else a
        for a in legal:
            if a[0] == "account":
                return self._best_target(v, seat, legal, a[:1]) if len(a) > 1 else a
        ooc = self._ooc(v, seat, legal)
        if ooc is not None:
            return ooc
        act = self._activation(legal)
        if act is not None:
            return act
        joins = [a for a in legal if a[0] == "join"]
        if joins:
            return max(joins, key=lambda a: (self.strength(mine[a[2]]["card"]), -a[2]))
        if ("attack",) in legal and self.attackers(v, seat):
            return ("attack",)
        return ("no_attack",)

    def _best_target(self, v: Board, seat: int, legal: tuple, head: tuple) -> tuple:
        """Among the legal actions starting with `head`, the one whose target is worth most."""
        options = [a for a in legal if a[:len(head)] == head]
        return max(options, key=lambda a: self._target_value(v, seat, a[len(head):]))

    def _target_value(self, v: Board, seat: int, target: tuple) -> float:
        if not target:
            return 0.0
        t = target[0]
        if isinstance(t, int):  # a character in play (destroy), a fight, a persistent card: biggest first
            try:
                return self.strength(v.char(t)["card"])
            except KeyError:
                return 0.0
        return self.card_value(t) if t in self.infos else 0.0

    def _ooc(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        """An OOC card worth playing now: the best target of the first one offered."""
        for a in legal:
            if a[0] != "ooc":
                continue
            effects = [e.get("do") for e in self.infos[a[1]].effects]
            if "fight_bonus" in effects and len(a) > 2:
                return self._fight_bonus(v, seat, legal, a[1])
            if "capture_bonus" in effects and not (v.d["phase"] == "combat" and unblocked_fleets(v)):
                continue
            return self._best_target(v, seat, legal, a[:2]) if len(a) > 2 else a
        return None

    def _fight_bonus(self, v: Board, seat: int, legal: tuple, cid: str) -> tuple:
        """The fight whose odds a bonus improves most (the closest one)."""
        options = [a for a in legal if a[:2] == ("ooc", cid)]

        def closeness(a: tuple) -> float:
            f = v.d["fights"][a[2]]
            me = f["seats"].index(seat)
            diff = side_total(v, f, me) - side_total(v, f, 1 - me)
            return -abs(diff)
        return max(options, key=closeness)

    # --- attacking ----------------------------------------------------------------------------------
    def unit_strength(self, v: Board, leader: int, seat: int, defending: bool) -> int:
        fight = {"seats": [1 - seat, seat] if defending else [seat, 1 - seat], "att": [], "def": [], "bonus": [0, 0]}
        fight["def" if defending else "att"] = v.unit(leader)
        return side_total(v, fight, 1 if defending else 0)

    def attackers(self, v: Board, seat: int) -> list[int]:
        """The units to send this turn (leaders' uids), strongest first; [] to hold back."""
        infos = self.infos
        mine = [c for c in v.chars_of(seat) if v.can_attack(c)]
        fleets = [c for c in mine if infos[c["card"]].fleeter]
        if not fleets:
            return []
        blockers = [c for c in v.chars_of(1 - seat) if self._could_block(v, c)]
        # Fleets are what takes planets, and most cannot come back: no attack into blockers for a
        # fight (measured: sending units even at 80% odds loses more than it wins against greedy
        # play), and none for nothing (attackers cannot block next turn). Every fleet goes when
        # the ones the blockers cannot cover (the smallest captures) would take a planet.
        by_capture = sorted(fleets, key=lambda c: (-infos[c["card"]].capture, c["uid"]))
        spare = by_capture[len(blockers):]
        bonus = v.d["capture_bonus"]
        if spare and sum(infos[c["card"]].capture + bonus for c in spare) >= self._weakest_planet(v, 1 - seat):
            return [c["uid"] for c in by_capture]
        # A stand-off (two patient players) would end in a capped draw: once both decks are drawn
        # (nothing left to wait for) after turn `standoff`, the side with the stronger army forces
        # the fights; after turn `late`, whoever can.
        turn = v.d["turn"]
        drawn = not v.d["p"][0]["deck"] and not v.d["p"][1]["deck"]
        if (turn > self.standoff and drawn) or turn > self.late:
            power = sum(self.unit_strength(v, c["uid"], seat, False) for c in mine)
            guard = sum(self.unit_strength(v, c["uid"], 1 - seat, True) for c in blockers)
            if power > self.edge * guard or turn > self.late:
                return [c["uid"] for c in mine]
        return []

    def _weakest_planet(self, v: Board, seat: int) -> int:
        """The smallest capture value among `seat`'s planets that an attack could take now."""
        open_ = self._capturable(v, seat)
        return min(planet_value(v, seat, pl) for pl in v.d["p"][seat]["planets"] if pl["uid"] in open_)

    @staticmethod
    def _could_block(v: Board, c: Mapping[str, Any]) -> bool:
        """Whether an opposing character could block this turn's attack (as `can_block` will say)."""
        return c["rest"] != v.d["turn"] and c["fleet"] is None and v.in_fight(c["uid"]) is None

    def _declare(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        chosen = set(v.d["declared"])
        for uid in self.attackers(v, seat):
            if uid not in chosen and ("declare", uid) in legal:
                return ("declare", uid)
        if ("done",) in legal:
            return ("done",)
        return next(a for a in legal if a[0] == "declare")

    # --- blocking -----------------------------------------------------------------------------------
    def _block(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        plan = self.block_plan(v, seat)
        for b, a in plan:
            if ("block", b, a) in legal:
                return ("block", b, a)
        return ("done",)

    def block_plan(self, v: Board, seat: int) -> list[tuple[int, int]]:
        """(blocker, attacker) pairs still to make: good fights first, then chump blocks that keep
        the capture total below every planet the attackers could take."""
        infos, foe = self.infos, 1 - seat
        made = {b for b, _ in v.d["blocks"]}
        blocked = {a for _, a in v.d["blocks"]}
        free = [c["uid"] for c in v.chars_of(seat) if v.can_block(c) and c["uid"] not in made]
        open_ = [a for a in v.d["declared"] if a not in blocked]
        attack = {a: self.unit_strength(v, a, foe, False) for a in open_}
        guard = {b: self.unit_strength(v, b, seat, True) for b in free}
        fleets = {a for a in open_ if infos[v.char(a)["card"]].fleeter}
        plan: list[tuple[int, int]] = []
        for a in sorted(open_, key=lambda a: (-(a in fleets), -attack[a])):
            good = [b for b in free if win_chance(guard[b] - attack[a]) >= self._block_odds(v, b, a in fleets)]
            if good:
                b = min(good, key=lambda b: (guard[b], b))
                plan.append((b, a))
                free.remove(b)
        chosen = {a for _, a in plan}
        threat = sorted((a for a in fleets if a not in chosen), key=lambda a: -infos[v.char(a)["card"]].capture)
        values = [planet_value(v, seat, pl) for pl in v.d["p"][seat]["planets"]
                  if pl["uid"] in self._capturable(v, seat)]
        smallest = min(values) if values else 0
        bonus = v.d["capture_bonus"]
        home = any(pl["home"] for pl in v.d["p"][seat]["planets"] if pl["uid"] in self._capturable(v, seat))
        while threat and free and sum(infos[v.char(a)["card"]].capture + bonus for a in threat) >= smallest:
            a = threat.pop(0)
            # Sacrifice individuals first (they take no planets); a fleet only for the homeworld or
            # with a fair chance of surviving the fight.
            spare = [b for b in free if not infos[v.char(b)["card"]].fleeter
                     or home or win_chance(guard[b] - attack[a]) >= 0.35]
            if not spare:
                continue
            b = max(spare, key=lambda b: (guard[b], -b))  # the best chance of surviving the block
            plan.append((b, a))
            free.remove(b)
        return plan

    def _block_odds(self, v: Board, blocker: int, against_fleet: bool) -> float:
        """The chance of winning a block must beat: a fleet risks capture power, which is scarce."""
        fleet = self.infos[v.char(blocker)["card"]].fleeter
        return (self.fleet_block if fleet else 0.5) if against_fleet else (0.75 if fleet else 0.6)

    @staticmethod
    def _capturable(v: Board, seat: int) -> set[int]:
        planets = v.d["p"][seat]["planets"]
        others = {pl["uid"] for pl in planets if not pl["home"]}
        return others or {pl["uid"] for pl in planets if pl["home"]}

    # --- fights and captures ----------------------------------------------------------------------
    def _combat(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        return self._ooc(v, seat, legal)

    def _post(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        return self._ooc(v, seat, legal)

    def _capture(self, v: Board, seat: int, legal: tuple) -> tuple | None:
        plan = self.capture_plan(v, seat)
        for a in legal:
            if a[0] == "assign" and plan.get(a[1]) == a[2]:
                return a
        return None

    def capture_plan(self, v: Board, seat: int) -> dict[int, int]:
        """Fleet uid -> planet uid for the fleets not yet assigned: the assignment that takes the
        most planets (the homeworld above all), by trying them all when few, else largest first."""
        infos, foe = self.infos, 1 - seat
        bonus = v.d["capture_bonus"]
        done = {u: pl for u, pl in v.d["assign"]}
        fleets = [u for u in unblocked_fleets(v) if u not in done]
        if not fleets:
            return {}
        planets = {pl["uid"]: pl for pl in v.d["p"][foe]["planets"]}
        targets = [u for u in capturable(v) if u in planets]
        power = {u: infos[v.char(u)["card"]].capture + bonus for u in fleets}
        base = {t: sum(infos[v.char(u)["card"]].capture + bonus for u, pl in done.items() if pl == t) for t in targets}
        need = {t: planet_value(v, foe, planets[t]) for t in targets}

        def score(assignment: Iterable[int]) -> float:
            total = dict(base)
            for u, t in zip(fleets, assignment):
                total[t] += power[u]
            return sum((1000.0 if planets[t]["home"] else 10.0 + need[t]) for t in targets if total[t] >= need[t])

        if len(targets) ** len(fleets) <= 1024:
            best = max(product(targets, repeat=len(fleets)), key=score)
            return dict(zip(fleets, best))
        plan: dict[int, int] = {}
        order = sorted(fleets, key=lambda u: -power[u])
        total = dict(base)
        for t in sorted(targets, key=lambda t: need[t] - total[t]):
            while order and total[t] < need[t]:
                u = order.pop(0)
                plan[u] = t
                total[t] += power[u]
        for u in order:
            plan[u] = targets[0]
        return plan


def make_planner(game: Any) -> PlannerAgent:
    return PlannerAgent(game)
