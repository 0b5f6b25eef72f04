"""Per-card impact by intervention: play the same seeds with a card and with a neutral filler in
its place, and take the paired difference of the holder's result.

The holder's result is its return (`Outcome.returns()`: the share of other seats it finished ahead
of, a draw counting half), so a two-player win is 1, a loss 0 and a draw 0.5; with N seats the
same measure is the holder's placing. Draws are also counted apart in every row.

An arm is one (deck, card) pair. For every table the deck sits at (alone, so that the card has one
holder), game j of the baseline and game j of the arm share the seed, the seating and every
player's generator; only the card differs. The paired difference (baseline minus filler: what the
card adds) has a normal interval from the differences' spread.

Games are spent adaptively, as a group-sequential design: every arm gets a first batch per table
(look 1), then the arms not yet settled (not sure to pass Benjamini-Hochberg: their p-value of
"|effect| <= MARGIN" above FDR/m, and their interval not within +-MARGIN) double their games at each further look, those nearest to settling first, up to LOOKS looks or
until the budget (a number of games) is spent. Choosing which arms get more games from their own
results is optional stopping, which would make a plain 95% interval too narrow; every arm's
interval and p-value are therefore corrected for LOOKS looks by a Bonferroni split (see
`effects`), whether or not it took them. Results depend only on the run seed and the budget,
never on the number of processes.

Cards the game deals (a solar system's star and planets, a common deck's opening hands) are
measured through the game's own randomness: the holder's result when the game dealt the card at
setup against when it did not (`GameState.cards_dealt(seat)`, or else the rules' `cards_in_hand`
read straight after setup). Those are randomised by the game, so they are causal too, but
unpaired. They use a fixed number of games (the round robin's and the first look's baseline
games), so they need no correction for sequential looks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from cardsmith.engine.chance import game_seed
from cardsmith.engine.contract import Game, cards_dealt
from cardsmith.engine.runner import GameRecord, GameTask
from cardsmith.sets.model import Card, CardSet, Deck, frozen_map
from cardsmith.simulation import DEFAULT_BUDGET
from cardsmith.simulation._inference import FDR, MARGIN, Effect, beyond_margin, paired_effect, unpaired_effect
from cardsmith.simulation._observed import Hands

FIRST_BATCH = 40  # games per arm per table at the first look
# Looks per arm (its games per table double at each): 40, 80, 160, 320. Every card test's interval
# is widened for this many looks (98.75% per look, 95% overall), taken or not.
LOOKS = 4
# A dealt card's comparison needs this many games on each side: the normal interval from a
# handful of games (two wins, say) would claim a certainty it does not have.
MIN_GROUP = 10


@dataclass(frozen=True)
class Arm:
    """One test: `card` in deck `deck` replaced by `filler` (deck index `swapped` in the run)."""

    deck: int
    card: str
    filler: str
    swapped: int


def fillers(cardset: CardSet, rules: Any, cards: Sequence[str]) -> dict[str, Card]:
    """The rules' stand-in for each card that has one (none if the rules define no filler)."""
    hook = rules.filler
    if hook is None:
        return {}
    by_id = cardset.by_id() if hasattr(cardset, "by_id") else {c.id: c for c in cardset.cards}
    out = {}
    for cid in cards:
        card = by_id.get(cid)
        made = hook(card, cardset) if card is not None else None
        if made is not None:
            out[cid] = made
    return out


def with_fillers(cardset: CardSet, made: dict[str, Card]) -> CardSet:
    """The set with the filler cards added (the game is built from it)."""
    return replace(cardset, cards=tuple(cardset.cards) + tuple(made.values()))


def swap(deck: Deck, card: str, filler: str) -> Deck:
    """`deck` with every copy of `card` replaced by `filler`, in the same places (so shuffles and
    deck order line up with the baseline's)."""
    zones = {z: frozen_map({(filler if c == card else c): n for c, n in cards.items()}) for z, cards in deck.zones.items()}
    return Deck(name=f"{deck.name} (no {card})", set_id=deck.set_id, zones=frozen_map(zones))


@dataclass(frozen=True)
class FillerGameFactory:
    """Makes the set's Game with its fillers in a worker process (a picklable recipe)."""

    path: Any
    cards: tuple[str, ...]

    def __call__(self) -> Game:
        from cardsmith.engine.registry import load_game
        from cardsmith.simulation.sets import load_set_checked

        cardset = load_set_checked(self.path)
        game = load_game(cardset)
        return game.rules.make_game(with_fillers(cardset, fillers(cardset, game.rules, self.cards)))


def seating(table: Sequence[int], j: int) -> tuple[int, ...]:
    """Deck ids by seat for game j of a table (seats rotate as in `table_tasks`)."""
    n = len(table)
    return tuple(table[(s - j) % n] for s in range(n))


@dataclass
class InterventionRun:
    """The games of an intervention study and where they stand."""

    tables: list[tuple[int, ...]]
    arms: list[Arm]
    agents: str
    seed: int
    baseline: dict[tuple[int, int], GameRecord] = field(default_factory=dict)  # (table, j) -> record
    arm_games: dict[tuple[int, int, int], GameRecord] = field(default_factory=dict)  # (arm, table, j)
    counts: list[int] = field(default_factory=list)  # games per table given to each arm so far
    first: int = 0  # games per table of the first look (a fixed sample, before any adaptive choice)
    taken: list[int] = field(default_factory=list)  # looks each arm has had
    looks: int = LOOKS  # looks the design allows each arm (the intervals' Bonferroni split)
    stopped_for_time: bool = False  # a further look would have passed the run's deadline

    def tables_of(self, arm: Arm) -> list[int]:
        return [t for t, tab in enumerate(self.tables) if tab.count(arm.deck) == 1]

    def games_played(self) -> int:
        return len(self.baseline) + len(self.arm_games)

    def task(self, t: int, j: int, index: int, arm: Arm | None = None) -> GameTask:
        seats = seating(self.tables[t], j)
        if arm is not None:
            seats = tuple(arm.swapped if d == arm.deck else d for d in seats)
        return GameTask(index, game_seed(game_seed(self.seed, t), j), seats, (self.agents,) * len(seats))

    def effect(self, a: int) -> Effect:
        """Arm a's paired effect: the holder's result with the card minus with the filler."""
        arm = self.arms[a]
        diffs, draws_with, draws_without = [], 0, 0
        for t in self.tables_of(arm):
            for j in range(self.counts[a]):
                base, alt = self.baseline[(t, j)], self.arm_games[(a, t, j)]
                seat = base.deck_ids.index(arm.deck)
                diffs.append(base.returns()[seat] - alt.returns()[seat])
                draws_with += base.is_draw
                draws_without += alt.is_draw
        return paired_effect(diffs, draws_with, draws_without, looks=self.looks)


def _plan(run: InterventionRun, chosen: Sequence[tuple[int, int]]) -> tuple[list[GameTask], list[tuple]]:
    """Tasks for another `extra` games per table for each chosen (arm, extra), and the baseline games they need."""
    tasks: list[GameTask] = []
    keys: list[tuple] = []
    index = run.games_played()
    for a, extra in chosen:
        arm = run.arms[a]
        for t in run.tables_of(arm):
            for j in range(run.counts[a], run.counts[a] + extra):
                if (t, j) not in run.baseline and ("base", t, j) not in keys:
                    tasks.append(run.task(t, j, index))
                    keys.append(("base", t, j))
                    index += 1
                tasks.append(run.task(t, j, index, arm))
                keys.append(("arm", a, t, j))
                index += 1
    return tasks, keys


def _spend(run: InterventionRun, chosen: Sequence[tuple[int, int]], play: Callable[[list[GameTask]], list[GameRecord]]) -> None:
    tasks, keys = _plan(run, chosen)
    for key, record in zip(keys, play(tasks)):
        if key[0] == "base":
            run.baseline[(key[1], key[2])] = record
        else:
            run.arm_games[(key[1], key[2], key[3])] = record
    for a, extra in chosen:
        run.counts[a] += extra
        run.taken[a] += 1


def _cost(run: InterventionRun, a: int, extra: int) -> int:
    """Games another `extra` per table costs arm a: its own and, at worst, as many baseline games."""
    return 2 * len(run.tables_of(run.arms[a])) * extra


def run_interventions(game: Game, factory: Callable[[], Game] | None, decks: Sequence[Deck], arms: Sequence[Arm],
                      tables: Sequence[tuple[int, ...]], agent: str, *, seed: int, budget: int = DEFAULT_BUDGET,
                      first: int = FIRST_BATCH, looks: int = LOOKS, jobs: int | None = None,
                      progress: bool = False, where: Any = None, deadline: float | None = None) -> InterventionRun:
    """Play every arm's first look, then double the games of the arms not yet settled, look by look
    (see the module notes). With `deadline` (a `time.monotonic()` value), a further look takes only
    the games the time left affords at the pace measured so far (a sized default run: a player whose
    cost differs between the round robin and the tests, such as one that plans its opening anew for
    each deck variant, must not overrun the run's ten minutes).

    With `where` (a runs.Where naming a cluster) the games go to that cluster."""
    run = InterventionRun(list(tables), list(arms), agent, seed, counts=[0] * len(arms), taken=[0] * len(arms),
                          looks=looks)

    def play(tasks: list[GameTask]) -> list[GameRecord]:
        from cardsmith.simulation.runs import Where, run_games

        place = where.elsewhere() if where is not None and where.cluster is not None else Where(jobs=jobs, progress=progress)
        return run_games(factory, game, decks, tasks, place, description="intervention")[0]

    testable = [a for a in range(len(arms)) if run.tables_of(arms[a])]
    # A small budget gets a smaller first batch (a whole number of seat rotations, so every deck
    # sits in every seat equally often), rather than overrunning it.
    seats = max((len(t) for t in tables), default=2)
    pairs = sum(len(run.tables_of(arms[a])) for a in testable) or 1
    first = run.first = max(seats, min(first, budget // (2 * pairs)) // seats * seats)
    started = time.monotonic()
    _spend(run, [(a, first) for a in testable], play)
    settled = FDR / max(1, len(testable))
    while True:
        left = budget - run.games_played()
        if deadline is not None:
            now = time.monotonic()
            pace = (now - started) / max(1, run.games_played())
            affordable = int((deadline - now) / pace) if pace > 0 else left
            if affordable < left:
                run.stopped_for_time = True
                left = affordable
        # An arm is settled once it would pass Benjamini-Hochberg whatever the others do (its p of
        # "|effect| <= MARGIN" below FDR/m; a merely "significant" interval is not enough with many
        # cards tested), or once its interval lies within +-MARGIN (too small to matter).
        effects = {a: run.effect(a) for a in testable if run.taken[a] < looks}
        open_arms = [a for a, e in effects.items() if beyond_margin(e.mean, e.se, MARGIN, e.looks, e.dof) > settled
                     and not -MARGIN <= e.low <= e.high <= MARGIN]
        # Arms nearest to a decision first: they are the ones more games settle soonest.
        open_arms.sort(key=lambda a: (-abs(effects[a].z), a))
        chosen, cost = [], 0
        for a in open_arms:
            c = _cost(run, a, run.counts[a])  # the next look doubles its games
            if cost + c <= left:
                chosen.append((a, run.counts[a]))
                cost += c
        if not chosen:
            return run
        _spend(run, chosen, play)


def dealt_effects(game: Game, decks: Sequence[Deck], records: Sequence[GameRecord],
                  skip: frozenset[str] = frozenset(), hands: Hands | None = None) -> list[dict[str, Any]]:
    """Natural experiment: per deck and dealt card (bar `skip`), the holder's result when the game
    dealt the card at setup against when it did not: the state's `cards_dealt(seat)` (Solar
    Empires' star and planets), or else the opening hand (`hands`, from the rules' `cards_in_hand`;
    a common deck's cards). Every seat is a holder, also where several seats share one deck. Empty
    for a game that cannot say what it dealt."""
    rows: dict[tuple[int, str], tuple[list[float], list[float]]] = {}
    for r in records:
        state = game.new_game([decks[d] for d in r.deck_ids], r.seed)
        dealt_by_seat: Sequence[frozenset[str]]
        if cards_dealt(state, 0) is not None:
            dealt_by_seat = [cards_dealt(state, seat) or frozenset() for seat in range(len(r.deck_ids))]
        elif hands is None or hands.hand is None:
            return []
        else:
            dealt_by_seat = hands.of(r)[0]  # the opening hands
        returns = r.returns()
        for seat, d in enumerate(r.deck_ids):
            dealt = dealt_by_seat[seat]
            for card in dict.fromkeys(decks[d].cards()):
                if card in skip:
                    continue
                yes, no = rows.setdefault((d, card), ([], []))
                (yes if card in dealt else no).append(returns[seat])
    out = []
    for (d, card), (yes, no) in sorted(rows.items()):
        if min(len(yes), len(no)) < MIN_GROUP:
            continue  # (almost) always or never dealt: the game's chance says too little about it
        out.append({"deck": d, "card": card, "effect": unpaired_effect(yes, no)})
    return out
