"""Skirmish: a tiny but real two-player card game with hidden information, for testing the engine
without Solar Empires (it lives in tests/, not in cardsmith/games).

Each player shuffles a deck (zone `deck`) and draws 3; life 10. On your turn you draw a card, then
play up to two cards and end the turn. `strike-K`: roll a d6; on roll + K >= 4 deal K + 1 damage
(shield absorbs first). `guard`: +2 shield. `heal`: +2 life (at most 12). Life 0 loses
("knockout"); a player with no cards at all at the start of their turn ends the game and the higher
life wins ("exhaustion"); after `turn_cap` turns the game is a draw ("turn cap").
Hidden: the opponent's hand and both deck orders. Decklists are public.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from cardsmith.engine.core import IllegalAction
from cardsmith.model import Deck, frozen_map

CARDS = ("strike-1", "strike-2", "strike-3", "guard", "heal")
PLAYS_PER_TURN = 2


@dataclass(frozen=True, order=True)
class Act:
    kind: str  # "play" or "end"
    card: str = ""

    def __str__(self) -> str:
        return f"play {self.card}" if self.kind == "play" else "end turn"


END = Act("end")


@dataclass(frozen=True)
class Obs:
    player: int
    current: int
    turn: int
    plays_left: int
    life: tuple[int, int]
    shield: tuple[int, int]
    hand: tuple[str, ...]  # own hand, sorted
    own_deck: tuple[str, ...]  # own deck contents, sorted (the order is a shuffle: unknown)
    hand_sizes: tuple[int, int]
    deck_sizes: tuple[int, int]
    discards: tuple[tuple[str, ...], tuple[str, ...]]  # public, in play order
    decklists: tuple[tuple[str, ...], tuple[str, ...]]  # public, sorted
    cap: int


class SkirmishState:
    def __init__(self, decklists, rng: random.Random, cap: int):
        self.rng = rng
        self.cap = cap
        self.decklists = decklists
        self.current_player = 0
        self.turn = 1
        self.winner: int | None = None
        self.end_reason = ""
        self.log: list[str] = []
        self.life = [10, 10]
        self.shield = [0, 0]
        self.hands: list[list[str]] = [[], []]
        self.decks: list[list[str]] = [[], []]
        self.discards: list[list[str]] = [[], []]
        self.plays_left = PLAYS_PER_TURN

    # -- protocol --
    def legal_actions(self) -> list[Act]:
        if self.winner is not None or self.end_reason:
            return []
        acts = [Act("play", c) for c in sorted(set(self.hands[self.current_player]))] if self.plays_left else []
        return acts + [END]

    def is_terminal(self) -> bool:
        return bool(self.end_reason)

    def apply(self, action: Act) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action} is not legal now")
        p, o = self.current_player, 1 - self.current_player
        if action.kind == "end":
            self.log.append(f"P{p} ends the turn")
            self._next_turn()
            return
        self.hands[p].remove(action.card)
        self.discards[p].append(action.card)
        self.plays_left -= 1
        if action.card.startswith("strike-"):
            k = int(action.card.split("-")[1])
            roll = self.rng.randint(1, 6)
            if roll + k >= 4:
                damage = k + 1
                absorbed = min(self.shield[o], damage)
                self.shield[o] -= absorbed
                self.life[o] -= damage - absorbed
                self.log.append(f"P{p} plays {action.card}, rolls {roll}: hits for {damage} ({absorbed} absorbed), P{o} at {self.life[o]}")
            else:
                self.log.append(f"P{p} plays {action.card}, rolls {roll}: misses")
            if self.life[o] <= 0:
                self._end(p, "knockout")
        elif action.card == "guard":
            self.shield[p] += 2
            self.log.append(f"P{p} plays guard: shield {self.shield[p]}")
        else:
            self.life[p] = min(12, self.life[p] + 2)
            self.log.append(f"P{p} plays heal: life {self.life[p]}")

    def clone(self) -> "SkirmishState":
        c = SkirmishState.__new__(SkirmishState)
        c.__dict__.update(self.__dict__)
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.log = list(self.log)
        c.life, c.shield = list(self.life), list(self.shield)
        c.hands = [list(h) for h in self.hands]
        c.decks = [list(d) for d in self.decks]
        c.discards = [list(d) for d in self.discards]
        return c

    def observation(self, player: int) -> Obs:
        return Obs(
            player=player, current=self.current_player, turn=self.turn, plays_left=self.plays_left,
            life=tuple(self.life), shield=tuple(self.shield), hand=tuple(sorted(self.hands[player])),
            own_deck=tuple(sorted(self.decks[player])),
            hand_sizes=(len(self.hands[0]), len(self.hands[1])), deck_sizes=(len(self.decks[0]), len(self.decks[1])),
            discards=(tuple(self.discards[0]), tuple(self.discards[1])), decklists=self.decklists, cap=self.cap,
        )

    def cards_played(self, player: int) -> set[str]:
        return set(self.discards[player])

    # -- rules --
    def _end(self, winner: int | None, reason: str) -> None:
        self.winner, self.end_reason = winner, reason
        self.log.append(f"Game over ({reason}): " + ("draw" if winner is None else f"P{winner} wins"))

    def _draw(self, p: int) -> None:
        if self.decks[p]:
            self.hands[p].append(self.decks[p].pop())

    def _next_turn(self) -> None:
        if self.turn >= self.cap:
            self._end(None, "turn cap")
            return
        self.turn += 1
        self.current_player = 1 - self.current_player
        self.plays_left = PLAYS_PER_TURN
        p = self.current_player
        self.log.append(f"-- Turn {self.turn}: P{p} --")
        if not self.hands[p] and not self.decks[p]:
            a, b = self.life
            self._end(None if a == b else (0 if a > b else 1), "exhaustion")
            return
        self._draw(p)


class Skirmish:
    name = "skirmish"

    def __init__(self, cap: int = 30):
        self.cap = cap

    def new_game(self, decks: Sequence[Deck], seed: int) -> SkirmishState:
        rng = random.Random(seed)
        lists = tuple(tuple(sorted(d.cards("deck"))) for d in decks)
        s = SkirmishState(lists, rng, self.cap)
        for p in (0, 1):
            s.decks[p] = list(decks[p].cards("deck"))
            rng.shuffle(s.decks[p])
            for _ in range(3):
                s._draw(p)
        s.log.append("-- Turn 1: P1 --")
        s._draw(0)
        return s

    def sample_state(self, obs: Obs, rng: random.Random) -> SkirmishState:
        s = SkirmishState(obs.decklists, random.Random(rng.getrandbits(64)), obs.cap)
        me, opp = obs.player, 1 - obs.player
        s.current_player, s.turn, s.plays_left = obs.current, obs.turn, obs.plays_left
        s.life, s.shield = list(obs.life), list(obs.shield)
        s.discards = [list(obs.discards[0]), list(obs.discards[1])]
        s.hands[me] = list(obs.hand)
        s.decks[me] = list(obs.own_deck)
        rng.shuffle(s.decks[me])
        unknown = list((Counter(obs.decklists[opp]) - Counter(obs.discards[opp])).elements())
        rng.shuffle(unknown)
        n = obs.hand_sizes[opp]
        s.hands[opp], s.decks[opp] = unknown[:n], unknown[n:]
        return s

    def heuristic(self, state: SkirmishState, player: int) -> float:
        o = 1 - player
        return (state.life[player] - state.life[o]) + 0.5 * (state.shield[player] - state.shield[o]) \
            + 0.3 * (len(state.hands[player]) - len(state.hands[o]))


def make_game(cardset=None) -> Skirmish:
    """Rules-module entry point (tests register this module as cardsmith.games.skirmish)."""
    cap = 30
    if cardset is not None:
        cap = int(dict(cardset.meta.get("play", {})).get("turn_cap", cap))
    return Skirmish(cap)


def deck(name: str, **counts: int) -> Deck:
    """A Skirmish deck: deck("aggro", strike_2=4, guard=2) (underscores for hyphens)."""
    zone = {k.replace("_", "-"): v for k, v in counts.items()}
    return Deck(name=name, set_id="skirmish", zones=frozen_map({"deck": frozen_map(zone)}))


AGGRO = deck("aggro", strike_1=3, strike_2=4, strike_3=3, heal=2)
TURTLE = deck("turtle", strike_1=2, strike_2=3, strike_3=2, guard=3, heal=3)
