"""The Solar Empires rules bound to one card set: new games, positions, determinization, heuristic."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import SeededChance
from cardsmith.engine.contract import Chance, RulesModule
from cardsmith.base.errors import CardsmithError
import cardsmith.games.solar_empires.effects as effects
from cardsmith.games.solar_empires.cards import BODY, POSITIONS, STAR, CardInfo, Table, build_table, deck_lists
from cardsmith.games.solar_empires.checks import set_problems
from cardsmith.games.solar_empires.flow import settle
from cardsmith.games.solar_empires.heuristics import heuristic, scores_as_now
from cardsmith.games.solar_empires.names import DEFAULT_TURN_CAP
from cardsmith.games.solar_empires.observation import Observation, sample_state
from cardsmith.games.solar_empires.positions import from_position
from cardsmith.games.solar_empires.state import SolarState
from cardsmith.sets.model import CardSet, Deck

class SolarEmpires:
    """The Solar Empires rules for one card set (`make_game(cardset)` builds it)."""

    name = "Solar Empires"

    def __init__(self, cardset: CardSet, rules: RulesModule):
        problems = [p for p in set_problems(cardset) if p.severity == "error"]
        if problems:
            first = problems[0]
            where = f"card '{first.card}': " if first.card else ""
            raise CardsmithError(f"set '{cardset.id}': {where}{first.message}"
                                 + (f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""),
                                 hint=first.hint)
        self.cardset = cardset
        self.rules = rules
        defaults = effects.defaults()
        self.infos = {c.id: CardInfo.of(c, defaults) for c in cardset.cards}
        play = cardset.meta.get("play") or {}
        self._tables: dict[tuple, Table] = {}
        self._by_decks: dict[tuple[int, int], tuple[Deck, Deck, Table]] = {}
        self.turn_cap = play.get("turn_cap", DEFAULT_TURN_CAP) if isinstance(play, Mapping) else DEFAULT_TURN_CAP

    def new_game(self, decks: Sequence[Deck], seed: int = 0, *, chance: Chance | None = None,
                 keep_forced: bool = False) -> SolarState:
        """Build the solar system (both solar bodies decks shuffled together, on public chance) and stop
        at the first decision (seat 0 orders its fleet deck). `keep_forced`: see `contract.Game`."""
        t = self._table(decks)
        s = SolarState(t, chance if chance is not None else SeededChance(seed))
        s.keep_forced = keep_forced
        # Copies of a card are alike, so the shuffle orders card ids (a test scripts it by name);
        # each id then takes the first of its instances not yet taken.
        names = t.ids(t.solar[0] + t.solar[1])
        s.shuffle(names, "solar system")
        taken: dict[str, int] = {}
        pile = []
        for cid in names:
            k = taken[cid] = taken.get(cid, -1) + 1
            pile.append(t.solar_by_id[cid][k])
        placed = 0
        for inst in pile:
            ci = t.info[inst]
            if ci.type == STAR and s.star < 0:
                s.star = inst
            elif ci.type == BODY and placed < POSITIONS:
                s.planet[placed] = inst
                placed += 1
            else:
                s.removed.append(inst)  # drawn with no free space (or a second star): ignored
        if placed == 0:
            raise CardsmithError(
                f"decks '{decks[0].name}' and '{decks[1].name}' bring no solar body cards, so there is no solar system",
                hint="each deck needs a `solar_bodies:` zone (1 star and 7 solar bodies)")
        s.rec("solar system", "The solar system: " + ", ".join(f"{i + 1}. {t.info[x].name}" for i, x in enumerate(s.planet)
                                                             if x >= 0)
              + (f"; star: {t.info[s.star].name}" if s.star >= 0 else "; no star"))
        settle(s)
        s.rec.take()
        return s

    def _table(self, decks: Sequence[Deck]) -> Table:
        """The card table of a game between `decks`: made once (a table never changes), so games
        between the same decks share it. Found by the deck objects first (a run hands the same ones
        to every game), else by their card lists."""
        if len(decks) == 2:
            hit = self._by_decks.get((id(decks[0]), id(decks[1])))
            if hit is not None and hit[0] is decks[0] and hit[1] is decks[1]:
                return hit[2]
        fleets, solars = deck_lists(decks)
        key = (tuple(fleets[0]), tuple(fleets[1]), tuple(solars[0]), tuple(solars[1]))
        t = self._tables.get(key)
        if t is None:
            if len(self._tables) >= 64:
                self._tables.clear()
                self._by_decks.clear()
            t = self._tables[key] = build_table(self.infos, fleets, solars, self.turn_cap,
                                                [f"deck '{d.name}'" for d in decks])
        # (the decks are kept in the entry, so their ids cannot be reused while it stands)
        self._by_decks[(id(decks[0]), id(decks[1]))] = (decks[0], decks[1], t)
        return t

    def from_position(self, position: Mapping[str, Any] | str, *, chance: Chance | None = None, seed: int = 0,
                      keep_forced: bool = False) -> SolarState:
        """A state from `SolarState.position()` data (or its YAML text); PositionError names a bad entry."""

        def make(table: Table, chance: Chance) -> SolarState:
            s = SolarState(table, chance)
            s.keep_forced = keep_forced
            return s

        return from_position(self.infos, position, self.turn_cap, chance if chance is not None else SeededChance(seed),
                             make)

    def sample_state(self, observation: Observation[SolarState], rng: random.Random) -> SolarState:
        return sample_state(observation, rng)

    def heuristic(self, state: Any, player: int) -> float:
        return heuristic(state, player)

    def scores_as_now(self, state: Any, seat: int, action: Any) -> bool:
        """The optional shortcut greedy agents use (see `Game.heuristic`)."""
        return scores_as_now(state, seat, action)
