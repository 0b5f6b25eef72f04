"""Play games: one game from (seed, decks, agents), replays, and runs of many games over processes.

A run is a list of `GameTask`s over a list of decks. Every game depends only on its own seed (game
chance) and on agent generators derived from (seed, seat), and results are put back in task order,
so the same run gives the same records whatever the number of worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from cardsmith.engine.agents import agent_label, make_agent, parse_agent_spec
from cardsmith.engine.core import Action, Game, GameState, IllegalAction
from cardsmith.engine.rng import agent_rng, game_seed
from cardsmith.errors import CardsmithError
from cardsmith.model import Deck, frozen_map

# A game that a rules bug keeps going forever must not hang a balance run: after this many actions
# the runner stops it and counts it as a capped draw (and says so).
MAX_ACTIONS = 50_000
ACTION_CAP = "action cap (engine guard)"
CAPPED_REASONS = ("turn cap", ACTION_CAP)


@dataclass
class GameRecord:
    """What one game did. Seats: 0 went first. `deck_ids[seat]` indexes the run's list of decks."""

    index: int
    seed: int
    deck_ids: tuple[int, int]
    decks: tuple[str, str]  # deck names by seat
    agents: tuple[str, str]  # agent specs by seat
    winner: int | None  # seat; None = draw
    end_reason: str
    turns: int
    cards_played: tuple[tuple[str, ...], tuple[str, ...]]  # by seat, sorted card ids
    actions: list = field(default_factory=list)
    ceiling_hits: tuple[int, int] = (0, 0)  # search decisions cut short by the time ceiling, by seat
    log: list[str] | None = None
    # Timing (machine-dependent, so in no figure): real choices (more than one legal action) each seat
    # made, and the seconds spent on them.
    decisions: tuple[int, int] = (0, 0)
    think_seconds: tuple[float, float] = (0.0, 0.0)

    @property
    def winner_deck(self) -> int | None:
        return None if self.winner is None else self.deck_ids[self.winner]

    @property
    def first_deck(self) -> int:
        return self.deck_ids[0]

    @property
    def capped(self) -> bool:
        return self.end_reason in CAPPED_REASONS

    def to_dict(self, with_actions: bool = False) -> dict[str, Any]:
        d = {
            "index": self.index, "seed": self.seed, "decks": list(self.decks), "agents": list(self.agents),
            "winner_seat": self.winner, "winner_deck": None if self.winner is None else self.decks[self.winner],
            "end_reason": self.end_reason, "turns": self.turns, "capped": self.capped,
            "cards_played": [list(c) for c in self.cards_played],
        }
        if with_actions:
            d["actions"] = [str(a) for a in self.actions]
        return d


@dataclass(frozen=True)
class GameTask:
    """One game of a run: which decks sit where (indexes into the run's decks), agents, seed."""

    index: int
    seed: int
    deck_ids: tuple[int, int]
    agents: tuple[str, str]  # agent specs, e.g. "greedy" or "mcts:iterations=500"


def play_game(
    game: Game,
    decks: Sequence[Deck],
    agents: Sequence[str],
    seed: int,
    *,
    index: int = 0,
    deck_ids: tuple[int, int] = (0, 1),
    keep_log: bool = False,
    max_actions: int = MAX_ACTIONS,
) -> GameRecord:
    """Play one game: `decks[i]` and `agents[i]` (specs) sit in seat i; seat 0 goes first."""
    players = []
    for spec in agents:
        name, opts = parse_agent_spec(spec)
        players.append(make_agent(name, game, **opts))
    rngs = [agent_rng(seed, seat) for seat in range(2)]
    state = game.new_game(list(decks), seed)
    actions: list[Action] = []
    end_reason = ""
    decisions, think = [0, 0], [0.0, 0.0]
    while not state.is_terminal():
        if len(actions) >= max_actions:
            end_reason = ACTION_CAP
            break
        seat = state.current_player
        legal = state.legal_actions()
        if not legal:
            raise RuntimeError(f"game {index} (seed {seed}): {game.name} offers no legal action to seat {seat} in a game that is not over")
        # The agent gets the observation only: never the state, so it cannot read hidden cards.
        agent = players[seat]
        started = time.perf_counter()
        observation = state.observation(seat) if getattr(agent, "needs_observation", True) else None
        action = agent.act(observation, legal, rngs[seat])
        if len(legal) > 1:  # a forced move is no decision
            think[seat] += time.perf_counter() - started
            decisions[seat] += 1
        try:
            state.apply(action)
        except IllegalAction as e:
            raise RuntimeError(f"game {index} (seed {seed}): agent {agents[seat]} chose an illegal action {action}: {e}") from e
        actions.append(action)
    winner = None if end_reason else state.winner
    return GameRecord(
        index=index, seed=seed, deck_ids=tuple(deck_ids), decks=(decks[0].name, decks[1].name),
        agents=(str(agents[0]), str(agents[1])), winner=winner, end_reason=end_reason or state.end_reason,
        turns=state.turn, cards_played=tuple(tuple(sorted(state.cards_played(s))) for s in range(2)),
        actions=actions, ceiling_hits=tuple(getattr(p, "ceiling_hits", 0) for p in players),
        log=list(state.log) if keep_log else None, decisions=tuple(decisions), think_seconds=tuple(think),
    )


def replay(game: Game, decks: Sequence[Deck], seed: int, actions: Iterable[Action]) -> GameState:
    """Play `actions` again from `seed`: the same game, move for move. IllegalAction if one is not legal."""
    state = game.new_game(list(decks), seed)
    for i, action in enumerate(actions):
        if state.is_terminal():
            raise IllegalAction(f"action {i + 1} ({action}) comes after the game ended")
        if action not in state.legal_actions():
            raise IllegalAction(f"action {i + 1} ({action}) is not legal at that point of the game")
        state.apply(action)
    return state


def replay_account(game: Game, decks: Sequence[Deck], record: GameRecord) -> str:
    """A readable turn-by-turn account of a recorded game: the game's own log, with each decision."""
    state = game.new_game(list(decks), record.seed)
    lines = [
        f"Game {record.index} of {game.name}, seed {record.seed}",
        f"Seat 0 (goes first): {record.decks[0]} played by {record.agents[0]}",
        f"Seat 1: {record.decks[1]} played by {record.agents[1]}",
        "",
    ]
    seen = 0
    lines += state.log
    seen = len(state.log)
    for action in record.actions:
        seat = state.current_player
        lines.append(f"    > seat {seat} chooses: {action}")
        state.apply(action)
        lines += state.log[seen:]
        seen = len(state.log)
    result = "draw" if record.winner is None else f"seat {record.winner} ({record.decks[record.winner]}) wins"
    lines += ["", f"Result: {result}; {record.end_reason}; {record.turns} turns; {len(record.actions)} decisions."]
    return "\n".join(lines) + "\n"


# ---- runs over worker processes ------------------------------------------------------------------

def deck_to_data(deck: Deck) -> tuple[str, str, dict[str, dict[str, int]]]:
    """A picklable copy of a deck (the model's read-only mappings do not pickle)."""
    return (deck.name, deck.set_id, {z: dict(c) for z, c in deck.zones.items()})


def deck_from_data(data: tuple[str, str, dict[str, dict[str, int]]]) -> Deck:
    name, set_id, zones = data
    return Deck(name=name, set_id=set_id, zones=frozen_map({z: frozen_map(c) for z, c in zones.items()}))


_WORKER: dict[str, Any] = {}


class _Given:
    """A factory for a game that already exists (only for forked workers, which inherit it)."""

    def __init__(self, game: Game):
        self.game = game

    def __call__(self) -> Game:
        return self.game


def _init_worker(factory: Callable[[], Game], decks_data: list) -> None:
    _WORKER["game"] = factory()
    _WORKER["decks"] = [deck_from_data(d) for d in decks_data]


def _play_tasks(tasks: list[GameTask]) -> list[GameRecord]:
    game, decks = _WORKER["game"], _WORKER["decks"]
    return [_play_task(game, decks, t) for t in tasks]


def _play_task(game: Game, decks: Sequence[Deck], task: GameTask) -> GameRecord:
    seated = [decks[task.deck_ids[0]], decks[task.deck_ids[1]]]
    return play_game(game, seated, task.agents, task.seed, index=task.index, deck_ids=task.deck_ids)


def default_jobs() -> int:
    return os.cpu_count() or 1


def run_tasks(
    factory: Callable[[], Game],
    decks: Sequence[Deck],
    tasks: Sequence[GameTask],
    *,
    jobs: int | None = None,
    progress: bool = False,
    description: str = "playing",
    game: Game | None = None,
) -> list[GameRecord]:
    """Play every task, over `jobs` processes (default: all cores), records in task order.

    `factory` is a picklable callable that makes the Game in each worker (a set's Game may hold data
    that cannot be pickled). With one job the games run here, with `game` if given; forked workers
    inherit `game` instead of making their own.
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise CardsmithError(f"--jobs must be at least 1, not {jobs}", exit_code=2)
    tasks = list(tasks)
    records: list[GameRecord] = []
    with _progress_bar(progress, description, len(tasks)) as advance:
        if jobs == 1 or len(tasks) <= 1:
            game = game if game is not None else factory()
            for t in tasks:
                records.append(_play_task(game, decks, t))
                advance(1)
        else:
            # Chunks amortise the process round trip, small enough to keep the bar moving and the load even.
            size = max(1, min(50, len(tasks) // (jobs * 8)))
            chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
            data = [deck_to_data(d) for d in decks]
            if game is not None and multiprocessing.get_start_method(allow_none=False) == "fork":
                # Forked workers inherit the game already made here; nothing is pickled, nothing reloaded.
                factory = _Given(game)
            with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), initializer=_init_worker, initargs=(factory, data)) as pool:
                futures = [pool.submit(_play_tasks, chunk) for chunk in chunks]
                for f in as_completed(futures):
                    done = f.result()
                    records.extend(done)
                    advance(len(done))
    records.sort(key=lambda r: (r.index, r.deck_ids))
    return records


class _progress_bar:
    """A rich progress bar on stderr (or nothing), used as `with _progress_bar(...) as advance`."""

    def __init__(self, show: bool, description: str, total: int):
        self.show, self.description, self.total = show, description, total
        self._progress = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.show:
            return lambda n: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=Console(stderr=True), transient=True,
        )
        self._progress.__enter__()
        task = self._progress.add_task(self.description, total=self.total)
        return lambda n: self._progress.advance(task, n)

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)


def match_tasks(agents: Sequence[str], games: int, seed: int, deck_ids: tuple[int, int] = (0, 1), start: int = 0) -> list[GameTask]:
    """`games` games between two decks, seats alternating: even games the first deck goes first.

    `agents[k]` plays the deck `deck_ids[k]` whichever seat it sits in. Game i uses seed base + i.
    """
    if games < 1:
        raise CardsmithError(f"the number of games must be at least 1, not {games}", exit_code=2)
    a, b = deck_ids
    tasks = []
    for i in range(start, start + games):
        if (i - start) % 2 == 0:
            tasks.append(GameTask(i, game_seed(seed, i), (a, b), (agents[0], agents[1])))
        else:
            tasks.append(GameTask(i, game_seed(seed, i), (b, a), (agents[1], agents[0])))
    return tasks


def normalise_agents(specs: Sequence[str]) -> tuple[str, str]:
    """Two agent specs, checked and written canonically; one spec means both players use it."""
    specs = [s for s in specs if s.strip()]
    if len(specs) == 1:
        specs = specs * 2
    if len(specs) != 2:
        raise CardsmithError(f"give one agent, or two separated by a comma (one per deck), not {len(specs)}", exit_code=2)
    out = []
    for s in specs:
        name, opts = parse_agent_spec(s)
        out.append(agent_label(name, opts))
    return out[0], out[1]
