"""A TransWar game in progress: plain-data fields, a stack of steps, and the contract's methods.

Everything a position needs is plain data (lists, dicts, ints, strings), so `position()` is a
copy of the fields and `from_position` reads them back. The top of `stack` is the next step: a
decision of one seat (legal actions from `STEPS.decisions`) or an automatic step ("@..."). A
decision with a single legal action is taken at once; decisions of seats already out are dropped.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Chance, Decision, Event, IllegalAction, Outcome
from cardsmith.engine.kit import EventRecorder, plain_copy, position_header, ResultState
from cardsmith.engine.kit.steps import Steps
from cardsmith.games.transwar.cards import CardTable, FormStats
from cardsmith.games.transwar.decisions import decision as _decision

GAME = "transwar"
HIDDEN = "?"
# The game's steps, on the kit's registry: flow.py (turns, Transform, Going Out) and fight.py (the
# attack sequence) register theirs as they load (game.py imports both), so this module imports neither.
STEPS: "Steps[TransWarState]" = Steps()
# The fields a position holds, in the order it writes them.
FIELDS = ("dealer", "active", "turn", "turn_cap", "out", "forms", "damage", "status", "started", "hands",
          "deck", "discard", "prep", "attack", "rescue", "stack", "played", "tally")
# What the game counts for balance reports (public facts): per seat, its first Form, how often it
# asked for help and was asked, joined, fought as an ally on the winning or losing side, and the
# cards it drew as an ally's reward.
TALLIES = ("asks", "asked", "joined", "ally_won", "ally_lost", "reward_cards")


def fresh_status() -> dict[str, Any]:
    """Effects on a player: lost turns and Skunk Spray (on the player); the rest on the Form."""
    return {"lost": 0, "sprayed": False, "broken": False, "bleeding": 0, "berserk": False}


class TransWarState(ResultState):
    """One game of TransWar for `seats` players (2 to 6)."""

    # True: a decision with one legal action waits for it like any other (`new_game(keep_forced=True)`).
    keep_forced = False

    def __init__(self, table: CardTable, seats: int, chance: Chance | None = None, turn_cap: int = 400):
        self.table = table
        self.seats = seats
        self.chance: Chance = chance if chance is not None else SeededChance(0)
        self.log: list[str] = []
        self.rec = EventRecorder(self.log)
        self.turn_cap = turn_cap
        self.dealer = 0
        self.active = 0
        self.turn = 1
        self.out: list[int] = []
        self.forms: list[str | None] = [None] * seats
        self.damage = [0] * seats
        self.status = [fresh_status() for _ in range(seats)]
        self.started = [False] * seats
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.prep: dict[str, Any] = {}
        self.attack: dict[str, Any] | None = None
        self.rescue: dict[str, Any] | None = None
        self.stack: list[dict[str, Any]] = []
        self.played: list[set[str]] = [set() for _ in range(seats)]
        self.result: Outcome | None = None
        self._legal: tuple | None = None
        self.pool: dict[str, int] = {}  # every card of the common deck and its count (public)
        self.dealt: list[list[str]] | None = None  # the deal, kept by new_game for cards_dealt (clones drop it)
        self.tally: dict[str, list] = {"first_form": [None] * seats, **{k: [0] * seats for k in TALLIES}}

    # ---- the contract ---------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """The pending decision by name: kind, seats, prompt (docs/rules/transwar.md, "Decisions")."""
        return _decision(self)

    def to_act(self) -> tuple[int, ...]:
        if self.result is not None or not self.stack:
            return ()
        return (self.stack[-1]["seat"],)

    def legal_actions(self, seat: int | None = None) -> tuple:
        acting = self.to_act()
        if not acting or (seat is not None and seat not in acting):
            return ()
        if self._legal is None:
            top = self.stack[-1]
            self._legal = tuple(STEPS.decisions[top["kind"]][0](self, top))
        return self._legal

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        acting = self.to_act()
        if not acting:
            raise IllegalAction("the game is over")
        who = acting[0] if seat is None else seat
        if who not in acting:
            raise IllegalAction(f"seat {who} is not to act (seat {acting[0]} is)")
        action = tuple(action) if isinstance(action, list) else action
        if action not in self.legal_actions(who):
            raise IllegalAction(f"{action!r} is not legal for seat {who} now")
        self._do(action)
        self.settle()
        return self.rec.take()

    def _do(self, action: tuple) -> None:
        top = self.stack[-1]
        self._legal = None
        STEPS.decisions[top["kind"]][1](self, top, action)
        self._legal = None

    def settle(self) -> None:
        """Run automatic steps and forced decisions (kept with `keep_forced`) until a seat has a real
        choice (or the game ends)."""
        while self.result is None:
            if not self.stack:
                STEPS.empty(self)  # flow.next_turn
                continue
            top = self.stack[-1]
            kind = top["kind"]
            if kind.startswith("@"):
                self.stack.pop()
                STEPS.autos[kind](self, top)
                self._legal = None
                continue
            if top["seat"] in self.out:
                self.stack.pop()
                continue
            self._legal = None
            legal = self.legal_actions()
            if len(legal) == 1 and not self.keep_forced:
                self._do(legal[0])
                continue
            if not legal:
                raise RuntimeError(f"no legal action for seat {top['seat']} at {kind}")
            return
        self.stack.clear()

    def cards_played(self, seat: int) -> frozenset[str]:
        return frozenset(self.played[seat])

    def cards_dealt(self, seat: int) -> frozenset[str]:
        """Right after `new_game`: the five cards the deal gave the seat (the first player may
        already have spent some), the common-deck balance test's random treatment."""
        dealt = getattr(self, "dealt", None)  # a clone or a position has none: its hand now
        return frozenset(dealt[seat] if dealt else self.hands[seat])

    def summary(self) -> dict[str, list]:
        """Public facts of the game for balance figures (first Forms, help asked and given)."""
        return {k: list(v) for k, v in self.tally.items()}

    # ---- helpers the steps use ------------------------------------------------------------------
    def alive(self) -> list[int]:
        return [s for s in range(self.seats) if s not in self.out]

    def form_of(self, seat: int) -> FormStats | None:
        fid = self.forms[seat]
        return self.table.form(fid) if fid else None

    def hp_left(self, seat: int) -> int:
        f = self.form_of(seat)
        return (f.hp - self.damage[seat]) if f else 0

    def name(self, seat: int) -> str:
        fid = self.forms[seat]
        return f"P{seat}" + (f" ({self.table[fid].name})" if fid else "")

    def push(self, kind: str, seat: int | None = None, **data: Any) -> None:
        entry: dict[str, Any] = {"kind": kind}
        if seat is not None:
            entry["seat"] = seat
        entry.update(data)
        self.stack.append(entry)

    def draw(self, seat: int, n: int) -> list[str]:
        """Draw up to `n` cards for `seat`, reshuffling the discards into the deck when it runs out."""
        got: list[str] = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    break
                self.deck, self.discard = self.discard, []
                self.chance.shuffle(self.deck, "reshuffle", "public")
                self.rec("reshuffle", f"the deck is exhausted: {len(self.deck)} discards shuffled into a new deck",
                         cards=len(self.deck))
            card = self.deck.pop()
            self.hands[seat].append(card)
            got.append(card)
        if got:
            self.rec("draw", f"{self.name(seat)} draws {len(got)}", seat=seat, count=len(got))
            self.rec("drew", "", seen_by=(seat,), seat=seat, cards=list(got))
        return got

    def discard_from_hand(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.discard.append(card)

    def eliminate(self, seat: int, why: str) -> None:
        """The player is out: every card it holds goes to the discard pile."""
        if seat in self.out:
            return
        self.discard.extend(self.hands[seat])
        self.hands[seat] = []
        if self.forms[seat]:
            self.discard.append(self.forms[seat])  # type: ignore[arg-type]
        self.forms[seat] = None
        self.out.append(seat)
        self.rec("out", f"P{seat} is out of the game ({why})", seat=seat, reason=why)
        alive = self.alive()
        if len(alive) == 1:
            order = [alive] + [[s] for s in reversed(self.out)]
            self.result = Outcome.placing(order, self.seats, "last player standing")
            self.rec("win", f"P{alive[0]} is the last player standing and wins", seat=alive[0])

    def cap(self) -> None:
        """The turn cap: the players still in share first place; those out rank by elimination order."""
        order = [self.alive()] + [[s] for s in reversed(self.out)]
        ranks = Outcome.placing(order, self.seats, "turn cap").ranks
        self.result = Outcome(ranks, "turn cap", capped=True)
        self.rec("capped", f"turn cap {self.turn_cap} reached: the players still in share first place")

    # ---- positions, observations, clones --------------------------------------------------------
    def position(self) -> dict[str, Any]:
        out = position_header(GAME, self.seats)
        for f in FIELDS:
            value = getattr(self, f)
            if f == "played":
                value = [sorted(p) for p in value]
            out[f] = plain_copy(value)
        out["pool"] = dict(sorted(self.pool.items()))
        return out

    def observation(self, seat: int) -> dict[str, Any]:
        """The position as `seat` may know it: other hands and the deck's order are HIDDEN ("?")."""
        pos = self.position()
        pos["hands"] = [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(pos["hands"])]
        pos["deck"] = [HIDDEN] * len(pos["deck"])
        pos["observer"] = seat
        pos["to_act"] = list(self.to_act())
        return pos

    def clone(self) -> "TransWarState":
        twin = TransWarState.__new__(TransWarState)
        twin.table, twin.seats, twin.turn_cap = self.table, self.seats, self.turn_cap
        twin.keep_forced = self.keep_forced
        twin.chance = self.chance.fork()
        twin.log = list(self.log)
        twin.rec = EventRecorder(twin.log)
        twin.dealer, twin.active, twin.turn = self.dealer, self.active, self.turn
        twin.out = list(self.out)
        twin.forms = list(self.forms)
        twin.damage = list(self.damage)
        twin.status = [dict(s) for s in self.status]
        twin.started = list(self.started)
        twin.hands = [list(h) for h in self.hands]
        twin.deck = list(self.deck)
        twin.discard = list(self.discard)
        twin.prep = plain_copy(self.prep)
        twin.attack = plain_copy(self.attack)
        twin.rescue = plain_copy(self.rescue)
        twin.stack = [plain_copy(e) for e in self.stack]
        twin.played = [set(p) for p in self.played]
        twin.result = self.result
        twin._legal = self._legal
        twin.pool = self.pool
        twin.tally = {k: list(v) for k, v in self.tally.items()}
        return twin

    def __repr__(self) -> str:
        return f"<TransWar turn {self.turn}, P{self.active} to play, out {self.out}>"
