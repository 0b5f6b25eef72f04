"""The #rm2k_anime rules bound to one card set: new games, positions, determinization, heuristic."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Chance, Problem, RulesModule
from cardsmith.base.errors import CardsmithError
from cardsmith.games.rm2k_anime.cards import CardInfo, deck_lists
from cardsmith.games.rm2k_anime.effects import set_problems
from cardsmith.games.rm2k_anime.heuristics import heuristic
from cardsmith.games.rm2k_anime.observation import Observation, sample_state
from cardsmith.games.rm2k_anime.positions import from_position
from cardsmith.games.rm2k_anime.state import RmState
from cardsmith.sets.model import CardSet, Deck

DEFAULT_BUDGET = 8
DEFAULT_TURN_CAP = 60
PLAY_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "start_budget": {"type": "integer", "minimum": 1, "maximum": 60, "default": DEFAULT_BUDGET,
                         "description": "The agreed set value: the most the starting Users may cost in total."},
        "turn_cap": {"type": "integer", "minimum": 1, "default": DEFAULT_TURN_CAP,
                     "description": "Games still running after this turn end as draws (\"turn cap\")."},
    },
}


def _setting(play: Any, key: str, default: int) -> int:
    v = play.get(key, default) if isinstance(play, Mapping) else default
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else default


class Rm2kAnime:
    """The #rm2k_anime rules for one card set (`make_game(cardset)` builds it)."""

    name = "#rm2k_anime TCG"

    def __init__(self, cardset: CardSet, rules: RulesModule):
        problems: list[Problem] = [p for p in set_problems(cardset) if p.severity == "error"]
        if problems:
            first = problems[0]
            raise CardsmithError(f"set '{cardset.id}': " + (f"card '{first.card}': " if first.card else "")
                                 + first.message, hint=first.hint)
        self.cardset = cardset
        self.rules = rules
        self.infos = {c.id: CardInfo.of(c) for c in cardset.cards}
        play = cardset.meta.get("play") or {}
        self.budget = _setting(play, "start_budget", DEFAULT_BUDGET)
        self.turn_cap = _setting(play, "turn_cap", DEFAULT_TURN_CAP)

    def new_game(self, decks: Sequence[Deck], seed: int = 0, *, chance: Chance | None = None,
                 keep_forced: bool = False) -> RmState:
        """Preparation starts: seat 0 chooses its Main User face down (its deck is shuffled after the
        starting Users are chosen). (`keep_forced` changes nothing: every decision is asked.)"""
        lists = deck_lists(decks, self.infos)
        s = RmState(self.infos, chance if chance is not None else SeededChance(seed), self.budget, self.turn_cap)
        for p, ids in zip(s.p, lists):
            p.deck = list(ids)
        s.ask("main_user", 0)
        return s

    def from_position(self, position: Mapping[str, Any] | str, *, chance: Chance | None = None, seed: int = 0,
                      keep_forced: bool = False) -> RmState:
        """A state from `position()` data (or its YAML text); `keep_forced` changes nothing (every
        decision is asked)."""
        return from_position(RmState, self.infos, position, chance if chance is not None else SeededChance(seed),
                             self.budget, self.turn_cap)

    def sample_state(self, observation: Observation, rng: random.Random) -> RmState:
        return sample_state(RmState, observation, rng, self.infos)

    def heuristic(self, state: Any, seat: int) -> float:
        return heuristic(state, seat)
