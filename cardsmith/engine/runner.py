"""Play games: one game from (seed, decks, agents), replays, and runs of many games over processes.

A run is a list of `GameTask`s over a list of decks. Every game depends only on its own seed (game
chance, `chance.game_seed(run_seed, index)`) and on agent generators derived from (seed, seat), and
results are put back in task order, so the same run gives the same records whatever the number of
worker processes.

Agents are honest by construction: an agent gets the acting seat's observation and the legal
actions as an immutable tuple, and whatever it answers goes through `state.apply(action, seat)`,
which refuses anything outside the freshly computed legal set.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from cardsmith.engine.agents import agent_label, make_agent, parse_agent_spec
from cardsmith.engine.chance import agent_rng, game_seed
from cardsmith.engine.contract import (Action, Game, GameState, IllegalAction, Outcome, first_player, mute,
                                       names_first_player, summary)
from cardsmith.engine.hands import HandTracker
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Deck, frozen_map

# A game that a rules bug keeps going forever must not hang a balance run: after this many actions
# the runner stops it and counts it as a capped draw (and says so).
MAX_ACTIONS = 50_000
ACTION_CAP = "action cap (engine guard)"


class AgentError(CardsmithError):
    """An agent answered with an action it was not offered (the game refused it)."""


@dataclass
class GameRecord:
    """What one game did. `deck_ids[seat]` indexes the run's list of decks; `ranks[seat]` is the
    seat's place (0 = first; equal ranks tie); `first_actor` is the seat that acted first."""

    index: int
    seed: int
    deck_ids: tuple[int, ...]
    decks: tuple[str, ...]  # deck names by seat
    agents: tuple[str, ...]  # agent specs by seat
    ranks: tuple[int, ...]
    end_reason: str
    turns: int
    cards_played: tuple[tuple[str, ...], ...]  # by seat, sorted card ids
    first_actor: int = 0
    capped: bool = False
    actions: list = field(default_factory=list)  # (seat, action) in the order played
    ceiling_hits: tuple[int, ...] = ()  # search decisions cut short by the time ceiling, by seat
    log: list[str] | None = None
    # Timing (machine-dependent, so in no figure): real choices (more than one legal action) each seat
    # made, and the seconds spent on them.
    decisions: tuple[int, ...] = ()
    think_seconds: tuple[float, ...] = ()
    # The game's own facts about the finished game (`state.summary()`, plain data), for its balance figures.
    summary: Any = None
    # (opening hand, cards ever held) per seat, when the task asked for them (`GameTask.hands`).
    hands: Any = None
    # The whole game's CPU and wall-clock seconds in the process that played it (machine-dependent,
    # in no figure of the game): what `cardsmith agents` and balance's sizing read a player's cost from.
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def seats(self) -> int:
        return len(self.deck_ids)

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.ranks, self.end_reason, self.capped)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats in first place; () for a draw among every seat."""
        return self.outcome.winners

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None (a draw, or a shared first place)."""
        return self.outcome.winner

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def winner_deck(self) -> int | None:
        return None if self.winner is None else self.deck_ids[self.winner]

    @property
    def first_deck(self) -> int:
        return self.deck_ids[self.first_actor]

    def returns(self) -> tuple[float, ...]:
        return self.outcome.returns()

    def won(self, seat: int) -> bool:
        """The seat finished first (alone or sharing first place), and the game was not a draw for all."""
        return seat in self.winners

    def to_dict(self, with_actions: bool = False) -> dict[str, Any]:
        d = {
            "index": self.index, "seed": self.seed, "decks": list(self.decks), "agents": list(self.agents),
            "ranks": list(self.ranks), "winner_seat": self.winner,
            "winner_deck": None if self.winner is None else self.decks[self.winner],
            "first_actor": self.first_actor, "end_reason": self.end_reason, "turns": self.turns,
            "capped": self.capped, "cards_played": [list(c) for c in self.cards_played],
        }
        if with_actions:
            d["actions"] = [[s, str(a)] for s, a in self.actions]
        return d


@dataclass(frozen=True)
class GameTask:
    """One game of a run: which decks sit where (indexes into the run's decks), agents, seed."""

    index: int
    seed: int
    deck_ids: tuple[int, ...]
    agents: tuple[str, ...]  # agent specs by seat, e.g. "greedy" or "mcts:iterations=500"
    hands: bool = False  # follow the seats' hands as the game is played (observational figures)


def _agent_error(agent: str, seat: int, action: Any, legal: tuple, e: IllegalAction, where: str) -> AgentError:
    shown = ", ".join(str(a) for a in legal[:6]) + (" ..." if len(legal) > 6 else "")
    return AgentError(f"{where}: agent '{agent}' in seat {seat} chose {action!s}, which it was not offered ({e})",
                      hint=f"an agent must return one of the legal actions it is handed: {shown}")


@dataclass
class _Played:
    """What the action loop of `play_game` saw: the actions, who acted first, the timed decisions."""

    actions: list
    first_actor: int
    capped: bool
    decisions: list[int]
    think: list[float]


def _play(state: GameState, players: list, rngs: list, max_actions: int, watch: Callable[[GameState], None] | None,
          agents: Sequence[str], where: str, game_name: str) -> _Played:
    """Ask the agents for actions and apply them until the game ends or `max_actions` were played.

    This loop runs for every action of every simulated game, a good share of a random game's cost:
    the state's methods and the agents' `act` are looked up once, the cap is the loop's range, and
    `to_act()` alone says whether the game goes on."""
    n = state.seats
    actions: list[tuple[int, Action]] = []
    decisions, think = [0] * n, [0.0] * n
    # Who goes first is the rules' business. A game whose setup choices come before the real first
    # turn names that seat in `first_player` once it is decided; otherwise the first seat to act counts.
    first_actor: int | None = None
    hook = names_first_player(state)
    looks = [getattr(p, "needs_observation", True) for p in players]
    times = [getattr(p, "timed", True) for p in players]  # (random's choices are not timed: agents.RandomAgent)
    acts = [p.act for p in players]
    is_terminal, to_act, legal_of, apply = state.is_terminal, state.to_act, state.legal_actions, state.apply
    observe, record, clock = state.observation, actions.append, time.perf_counter
    if watch is not None:
        watch(state)
    try:
        for _ in range(max_actions):
            acting = to_act()  # () exactly when the game is over (the contract; the protocol checks test it)
            if not acting:
                if not is_terminal():
                    raise RuntimeError(f"{where}: {game_name} names no seat to act in a game that is not over")
                capped = False
                break
            seat = acting[0]
            legal = legal_of(seat)
            if not legal:
                raise RuntimeError(f"{where}: {game_name} offers no legal action to seat {seat} in a game that is not over")
            if first_actor is None and not hook:
                first_actor = seat
            # The agent gets the observation only: never the state, so it cannot read hidden cards.
            observation = observe(seat) if looks[seat] else None
            decided = len(legal) > 1  # a forced move is no decision, and not timed
            decisions[seat] += decided
            if decided and times[seat]:
                started = clock()
                action = acts[seat](observation, legal, rngs[seat], seat)
                think[seat] += clock() - started
            else:
                action = acts[seat](observation, legal, rngs[seat], seat)
            try:
                apply(action, seat)
            except IllegalAction as e:
                raise _agent_error(str(agents[seat]), seat, action, legal, e, where) from None
            record((seat, action))
            if watch is not None:
                watch(state)
            if first_actor is None and hook:
                first_actor = first_player(state)
        else:
            capped = not is_terminal()  # the engine's guard: a rules bug must not hang a run
    except (CardsmithError, IllegalAction):
        raise
    except Exception as e:  # kept on the error: the actions so far reproduce it (engine.blame)
        e.game_actions = tuple(actions)  # type: ignore[attr-defined]
        raise
    if first_actor is None:
        first_actor = actions[0][0] if actions else 0
    return _Played(actions, first_actor, capped, decisions, think)


def play_game(
    game: Game,
    decks: Sequence[Deck],
    agents: Sequence[str],
    seed: int,
    *,
    index: int = 0,
    deck_ids: Sequence[int] | None = None,
    keep_log: bool = False,
    max_actions: int = MAX_ACTIONS,
    state: GameState | None = None,
    watch: Callable[[GameState], None] | None = None,
) -> GameRecord:
    """Play one game: `decks[i]` and `agents[i]` (specs) sit in seat i; the rules say who acts first.

    `state` continues a game already under way (from a position) instead of starting one; `watch`
    is handed the state before the first action and after every action (it must not change it)."""
    players = []
    for spec in agents:
        name, opts = parse_agent_spec(spec, game.rules)
        players.append(make_agent(name, game, **opts))
    given = state
    if state is None:
        state = game.new_game(list(decks), seed)
    if not keep_log:
        mute(state)  # nobody reads this game's events or log; `replay_account` writes them on demand
    n = state.seats
    if len(players) != n:
        raise CardsmithError(f"{n} seats but {len(players)} agents", exit_code=2)
    rngs = [agent_rng(seed, seat) for seat in range(n)]
    where = f"game {index} (seed {seed})"
    begin = _start_position(given)
    try:
        played = _play(state, players, rngs, max_actions, watch, agents, where, game.name)
    except CardsmithError:
        raise
    except Exception as e:
        # A designer's rules crashed: keep where (file:line) and the position before the failing action.
        from cardsmith.engine.blame import remember_position

        remember_position(e, game, lambda: game.from_position(begin, seed=seed) if begin is not None
                          else game.new_game(list(decks), seed), getattr(e, "game_actions", ()))
        raise
    if played.capped:
        outcome = Outcome.draw(n, ACTION_CAP, capped=True)
    else:
        outcome = state.outcome() or Outcome.draw(n, "no outcome given", capped=True)
    return GameRecord(
        index=index, seed=seed, deck_ids=tuple(deck_ids if deck_ids is not None else range(n)),
        decks=tuple(d.name for d in decks), agents=tuple(str(a) for a in agents), ranks=outcome.ranks,
        end_reason=outcome.reason, capped=outcome.capped, turns=state.turn,
        cards_played=tuple(tuple(sorted(state.cards_played(s))) for s in range(n)),
        first_actor=played.first_actor, actions=played.actions,
        ceiling_hits=tuple(getattr(p, "ceiling_hits", 0) for p in players),
        log=list(state.log) if keep_log else None, decisions=tuple(played.decisions),
        think_seconds=tuple(played.think), summary=summary(state),
    )


def _start_position(state: GameState | None) -> dict[str, Any] | None:
    """The position a game continued from a state starts at (None for a new game, or a game that
    writes no positions): what a crash in a game package is replayed from."""
    from cardsmith.engine.contract import PositionError

    if state is None:
        return None
    try:
        return state.position()
    except (PositionError, NotImplementedError):
        return None


def replay(game: Game, decks: Sequence[Deck], seed: int, actions: Iterable[tuple[int, Action]]) -> GameState:
    """Play `(seat, action)` pairs again from `seed`: the same game, move for move.

    IllegalAction (naming the step) if one is not legal where it comes."""
    state = game.new_game(list(decks), seed)
    for i, (seat, action) in enumerate(actions):
        if state.is_terminal():
            raise IllegalAction(f"action {i + 1} ({action}) comes after the game ended")
        try:
            state.apply(action, seat)
        except IllegalAction as e:
            raise IllegalAction(f"action {i + 1} ({action}, seat {seat}) is not legal at that point of the game: {e}") from None
    return state


def result_text(record: GameRecord) -> str:
    """`seat 1 (terracorp) wins`, `draw`, or the placing of every seat."""
    if record.is_draw:
        return "draw"
    if record.winner is not None and record.seats == 2:
        return f"seat {record.winner} ({record.decks[record.winner]}) wins"
    order = sorted(range(record.seats), key=lambda s: record.ranks[s])
    return "placing: " + ", ".join(f"{record.ranks[s] + 1}. seat {s} ({record.decks[s]})" for s in order)


def replay_account(game: Game, decks: Sequence[Deck], record: GameRecord, *, start: GameState | None = None) -> str:
    """A readable turn-by-turn account of a recorded game: the game's own log, with each decision.

    `start` is the state the game began from when it was continued from a position."""
    state = start.clone() if start is not None else game.new_game(list(decks), record.seed)
    lines = [f"Game {record.index} of {game.name}, seed {record.seed}"]
    for s in range(record.seats):
        first = " (goes first)" if s == record.first_actor and record.actions else ""
        lines.append(f"Seat {s}{first}: {record.decks[s]} played by {record.agents[s]}")
    lines.append("")
    lines += state.log
    seen = len(state.log)
    for seat, action in record.actions:
        lines.append(f"    > seat {seat} chooses: {action}")
        state.apply(action, seat)
        lines += state.log[seen:]
        seen = len(state.log)
    lines += ["", f"Result: {result_text(record)}; {record.end_reason}; {record.turns} turns; {len(record.actions)} decisions."]
    return "\n".join(lines) + "\n"


def final_state(game: Game, decks: Sequence[Deck], record: GameRecord, *, start: GameState | None = None) -> GameState:
    """The state a recorded game ended in (for `--log` to end with the final position)."""
    state = start.clone() if start is not None else game.new_game(list(decks), record.seed)
    for seat, action in record.actions:
        state.apply(action, seat)
    return state


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


def _init_worker(factory: Callable[[], Game], decks_data: list, position: Mapping[str, Any] | None) -> None:
    _WORKER["game"] = factory()
    _WORKER["decks"] = [deck_from_data(d) for d in decks_data]
    _WORKER["position"] = position
    gc.freeze()  # (`_settled`: the worker's whole life is its games)


@contextmanager
def _settled() -> Iterator[None]:
    """While a run's games are played, leave what is already in memory (the modules, the set, the
    game and its tables) out of the garbage collector's full walks (`gc.freeze`), and hand it back
    after. It lives through the whole run, and walking it again and again was about 3% of a random
    Alien Empires game (benchmarks/sim.py); the games' own objects are collected as before."""
    if gc.get_freeze_count():  # frozen already (by the caller): theirs to undo
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _play_tasks(tasks: list[GameTask]) -> list[GameRecord]:
    game, decks = _WORKER["game"], _WORKER["decks"]
    return [_play_task(game, decks, t, _WORKER["position"]) for t in tasks]


def _play_task(game: Game, decks: Sequence[Deck], task: GameTask, position: Mapping[str, Any] | None = None) -> GameRecord:
    seated = [decks[i] for i in task.deck_ids]
    # A game continued from a position draws its chance from the task's seed, like a new game.
    state = game.from_position(position, seed=task.seed) if position is not None else None
    hand = game.rules.cards_in_hand if task.hands else None
    tracker = HandTracker(hand, len(seated)) if hand is not None else None
    cpu, wall = time.process_time(), time.perf_counter()
    record = play_game(game, seated, task.agents, task.seed, index=task.index, deck_ids=task.deck_ids, state=state,
                       watch=tracker)
    record.cpu_seconds, record.wall_seconds = time.process_time() - cpu, time.perf_counter() - wall
    if tracker is not None:
        record.hands = tracker.result()
    return record


def default_jobs() -> int:
    return os.cpu_count() or 1


def chunk_size(n_tasks: int, workers: int) -> int:
    """Games per chunk: enough to amortise a round trip, small enough to keep the load even."""
    return max(1, min(50, n_tasks // (max(1, workers) * 8)))


def run_tasks(
    factory: Callable[[], Game] | None,
    decks: Sequence[Deck],
    tasks: Sequence[GameTask],
    *,
    jobs: int | None = None,
    game: Game | None = None,
    position: Mapping[str, Any] | None = None,
    on_records: Callable[[list[GameRecord]], None] | None = None,
) -> list[GameRecord]:
    """Play every task, over `jobs` processes (default: all cores), records in task order.

    With `position` (a state's `position()` data) every game continues from that position.
    `on_records` is called with each chunk of finished records as it comes in (in any order): the
    way to show progress (the simulation layer draws the bar, `simulation.runs`; the engine draws nothing).

    `factory` is a picklable callable that makes the Game in each worker (a set's Game may hold data
    that cannot be pickled). With one job the games run here, with `game` if given; forked workers
    inherit `game` instead of making their own.
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise CardsmithError(f"--jobs must be at least 1, not {jobs}", exit_code=2)
    tasks = list(tasks)
    records: list[GameRecord] = []
    size = chunk_size(len(tasks), jobs)
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]

    def finished(done: list[GameRecord]) -> None:
        records.extend(done)
        if on_records is not None:
            on_records(done)

    if jobs == 1 or len(tasks) <= 1:
        if game is None:
            assert factory is not None, "run_tasks needs a factory or a game"
            game = factory()
        with _settled():
            for chunk in chunks:
                finished([_play_task(game, decks, t, position) for t in chunk])
    else:
        data = [deck_to_data(d) for d in decks]
        if game is not None and multiprocessing.get_start_method(allow_none=False) == "fork":
            # Forked workers inherit the game already made here; nothing is pickled, nothing reloaded.
            factory = _Given(game)
        init: Callable[..., None] = _init_worker
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), initializer=init, initargs=(factory, data, position)) as pool:
            futures = [pool.submit(_play_tasks, chunk) for chunk in chunks]
            for f in as_completed(futures):
                finished(f.result())
    records.sort(key=lambda r: r.index)
    return records


def table_tasks(agents: Sequence[str], games: int, seed: int, deck_ids: Sequence[int] | None = None,
                start: int = 0) -> list[GameTask]:
    """`games` games of one table of decks, seats rotating: game i puts deck k in seat (k + i) mod N.

    `agents[k]` plays the deck `deck_ids[k]` whichever seat it sits in. With a multiple of N games
    every deck sits in every seat equally often (two decks: seats alternate). Game i's seed is
    `game_seed(seed, i)`, i counted over the whole run from `start`.
    """
    if games < 1:
        raise CardsmithError(f"the number of games must be at least 1, not {games}", exit_code=2)
    ids = tuple(deck_ids) if deck_ids is not None else tuple(range(len(agents)))
    if len(ids) != len(agents):
        raise CardsmithError(f"{len(ids)} decks but {len(agents)} agents", exit_code=2)
    n = len(ids)
    tasks = []
    for i in range(start, start + games):
        shift = (i - start) % n
        # seat s holds the deck whose table position k satisfies (k + shift) % n == s
        order = [(s - shift) % n for s in range(n)]
        tasks.append(GameTask(i, game_seed(seed, i), tuple(ids[k] for k in order), tuple(agents[k] for k in order)))
    return tasks


def match_tasks(agents: Sequence[str], games: int, seed: int, deck_ids: Sequence[int] = (0, 1), start: int = 0) -> list[GameTask]:
    """A two-deck match (seats alternating); `table_tasks` for two."""
    return table_tasks(agents, games, seed, deck_ids, start)


def normalise_agents(specs: Sequence[str], seats: int = 2, rules: Any = None) -> tuple[str, ...]:
    """One agent spec per seat, checked and written canonically; one spec means every seat uses it.

    `rules` (the game's RulesModule) makes the game's own players known."""
    specs = [s for s in specs if s.strip()]
    if len(specs) == 1:
        specs = specs * seats
    if len(specs) != seats:
        raise CardsmithError(f"give one agent, or {seats} separated by commas (one per deck), not {len(specs)}", exit_code=2)
    out = []
    for s in specs:
        name, opts = parse_agent_spec(s, rules)
        out.append(agent_label(name, opts))
    return tuple(out)
