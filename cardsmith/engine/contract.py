"""The game contract: what every rules module declares and what every game state offers.

This is the one module the rest of `cardsmith.engine` (agents, runner, statistics, reports) imports
to talk to a game. The shape follows OpenSpiel (N seats, `returns()`, chance through one hook),
python-chess (a readable position, like FEN) and a pure `apply` that returns the events it caused.

A rules package (bundled under `cardsmith.games.<name>`, or any installed package that registers an
entry point in the group `cardsmith.games`) exposes `RULES`, a `RulesModule`: its name, the player
counts it supports, a JSON Schema for its `play:` settings, the card fields and effects it reads,
the deck predicates and cost functions it adds, a `validate(cardset)` hook, and `make_game(cardset)`.

Seats are numbered 0..N-1 in the order the decks were given. Who acts first is the rules' business
(a coin toss, a die, the lowest total cost): a state says who acts now through `to_act()`, and the
runner records who actually acted first (`first_actor`), so seat advantage is measured for the
player who really went first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping, Protocol, Sequence, runtime_checkable

from cardsmith.sets.model import Card, CardSet, Deck

# Games choose their action type: hashable, picklable, equal across clones, with a readable str().
# Plain tuples of strings and ints, such as ("play", "flack-load") or ("attack", 3, 7), serve well.
Action = Hashable


class IllegalAction(Exception):
    """`apply()` raises it for an action that is not in the freshly computed legal set."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as `apply` reports it.

    `kind` is a short machine name ("draw", "roll", "damage", "destroyed", "win"); `text` is the
    readable line for logs; `data` holds the particulars. `seen_by` is None for a public event, or
    the seats that may see it (a card drawn is seen by its owner only).

    Every resolution (a fight, a combat, a challenge) is one event of kind "result" whose `data`
    gives `resolution` (the game's word), `sides` (each `{seat, role, total, parts}`, the parts
    summing to the total) and `winner` (a seat or None); docs/engine.md, "Result events".
    """

    kind: str
    text: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    seen_by: tuple[int, ...] | None = None

    def visible_to(self, seat: int) -> bool:
        return self.seen_by is None or seat in self.seen_by


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: a rank per seat (0 = first place; equal ranks tie) and why.

    `capped` marks a game stopped by a turn or action cap rather than by the rules' own end; such a
    game is a draw among the seats still in it and statistics report it apart.
    """

    ranks: tuple[int, ...]
    reason: str
    capped: bool = False

    @classmethod
    def win(cls, winner: int, seats: int, reason: str) -> "Outcome":
        """One winner, every other seat shares second place."""
        return cls(tuple(0 if s == winner else 1 for s in range(seats)), reason)

    @classmethod
    def draw(cls, seats: int, reason: str, capped: bool = False) -> "Outcome":
        return cls((0,) * seats, reason, capped)

    @classmethod
    def placing(cls, order: Sequence[Sequence[int]], seats: int, reason: str) -> "Outcome":
        """From groups of seats best first: [[2], [0, 3], [1]] = seat 2 won, 0 and 3 tied second."""
        ranks = [0] * seats
        for rank, group in enumerate(order):
            for s in group:
                ranks[s] = rank
        return cls(tuple(ranks), reason)

    @property
    def seats(self) -> int:
        return len(self.ranks)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place; empty for a draw among every seat."""
        best = min(self.ranks)
        top = tuple(s for s, r in enumerate(self.ranks) if r == best)
        return () if len(top) == len(self.ranks) else top

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None for a draw or a shared first place."""
        w = self.winners
        return w[0] if len(w) == 1 else None

    def returns(self) -> tuple[float, ...]:
        """Per seat, the share of other seats it finished ahead of (a tie counts half).

        A two-player win is (1, 0), a draw (0.5, 0.5); with N seats the winner gets 1 and the last 0.
        Every game's returns sum to N/2, so averages compare across player counts.
        """
        n = len(self.ranks)
        if n == 1:
            return (1.0,)
        out = []
        for s, r in enumerate(self.ranks):
            ahead = sum(1 for t, q in enumerate(self.ranks) if t != s and q > r)
            tied = sum(1 for t, q in enumerate(self.ranks) if t != s and q == r)
            out.append((ahead + 0.5 * tied) / (n - 1))
        return tuple(out)


@runtime_checkable
class Chance(Protocol):
    """Where a state draws everything left to chance. See `cardsmith.engine.chance`.

    `stream` is "public" for chance every player sees (dice, a shared deck's shuffle that everyone
    sees the result of), or `seat<N>` for a shuffle only seat N may know (its own deck). Separate
    streams mean no public roll can reveal a hidden order. Tests pass a `ScriptedChance`.
    """

    def roll(self, sides: int, why: str = "", stream: str = "public") -> int: ...
    def randrange(self, n: int, why: str = "", stream: str = "public") -> int: ...
    def shuffle(self, items: list, why: str = "", stream: str = "public") -> None: ...
    def fork(self) -> "Chance": ...


class GameState(Protocol):
    """One game in progress, or finished.

    Legal actions are an immutable tuple. `apply` checks the action against the legal set of the
    state as it is (an agent cannot widen it by mutating what it was handed) and returns the events.
    """

    seats: int
    turn: int  # 1-based; what statistics call game length
    log: list[str]  # readable account, one line per event (turn headers included)

    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (several for simultaneous choices); () when terminal."""
        ...

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Deterministic order; never empty for a seat in `to_act()`. Default seat: `to_act()[0]`."""
        ...

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Play `action` for `seat` (default `to_act()[0]`); IllegalAction if it is not legal now."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None:
        """None while the game goes on."""
        ...

    def returns(self) -> tuple[float, ...]:
        """`outcome().returns()`; all 0.5 while the game goes on."""
        ...

    def observation(self, seat: int) -> Any:
        """Only what `seat` may know: its own hidden cards, public zones, sizes of hidden zones."""
        ...

    def clone(self) -> "GameState":
        """Independent: applying to the clone never changes this state."""
        ...

    def position(self) -> dict[str, Any]:
        """The whole state as plain data (str, int, float, bool, None, lists, dicts), YAML/JSON-ready.

        `game.from_position(state.position())` gives a state that plays on exactly like this one
        (chance aside, which the caller supplies). It names the game under `game:`.
        """
        ...

    def cards_played(self, seat: int) -> frozenset[str]:
        """Card ids this seat put into play (per-card statistics)."""
        ...


class Game(Protocol):
    """A game's rules bound to one card set (and its `play:` settings).

    Forced decisions: a game may apply a decision with a single legal action by itself (Alien Empires,
    TransWar and Solar Empires do, for speed). Such a game accepts the keyword `keep_forced=True` in
    `new_game` and `from_position`: every decision then waits for its action, one legal action or
    more, so a scripted line of actions does not depend on what the hands hold; clones keep the option.
    Every bundled game accepts the keyword (TRF and #rm2k_anime never skip a decision). Runs and agents
    leave it off."""

    name: str
    rules: "RulesModule"

    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None) -> GameState:
        """A new game with `decks[i]` in seat i. Chance comes from `chance` or, when None, from
        `SeededChance(seed)`. Shuffles and setup happen here. (Optional keyword: `keep_forced`, above.)"""
        ...

    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0) -> GameState:
        """A state from `GameState.position()` data; raises PositionError naming the bad entry.
        (Optional keyword: `keep_forced`, above.)"""
        ...

    def sample_state(self, observation: Any, rng: Any) -> GameState:
        """Determinization: a full state consistent with the observation, hidden parts dealt with rng."""
        ...

    def heuristic(self, state: GameState, seat: int) -> float:
        """Higher = better for `seat` (greedy choices and search rollouts).

        A game may also offer `scores_as_now(state, seat, action) -> bool`: True only when applying
        the legal `action` would leave a position that `heuristic` (and the game's end) scores exactly
        as `state` now, for `seat`; greedy agents then skip the look-ahead for it. It must never
        guess: False whenever in doubt."""
        ...


class PositionError(ValueError):
    """A position that names an unknown card, a seat out of range, or misses an entry."""


@dataclass(frozen=True)
class Problem:
    """Something wrong in a set, found by a rules module's `validate`.

    Where it is: `card` (a card id) with `path` inside that card (("effect", "amount")), or
    `setting` (a path inside `play:`), or neither for the set as a whole. `cardsmith validate` turns
    it into `file:line:col: error: message` with the hint.
    """

    message: str
    hint: str | None = None
    card: str | None = None
    path: tuple[str | int, ...] = ()
    setting: tuple[str | int, ...] | None = None
    severity: str = "error"


@dataclass(frozen=True)
class EffectSpec:
    """One effect handler a rules module offers: `effect: {do: NAME, param: value, when: TIMING}`.

    `params` maps each parameter to a JSON Schema (every one is required unless it has a
    "default"); `when` lists the timings it accepts (empty: the effect takes no `when`).
    """

    name: str
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    when: tuple[str, ...] = ()
    doc: str = ""


@dataclass(frozen=True)
class RulesModule:
    """What a rules package declares (`RULES` in the package, or the entry point's target).

    - `players`: the smallest and largest number of seats.
    - `play_schema`: JSON Schema of the set's `play:` mapping (the keys it may hold).
    - `card_fields`: per card type, JSON Schemas of the fields the rules read (checked in validate).
    - `effects`: the effect handlers cards may name (`effect:` on a card; one mapping or a list).
    - `effect_types`: card types whose cards must carry an `effect:` ("" type list: none need one).
    - `deck_predicates`, `cost_functions`: names the set's deck rules may use.
    - `validate`: further checks over the loaded set; its Problems appear in `cardsmith validate`.
    - `make_game`: the `Game` for a set.
    - `filler` (optional): `filler(card, cardset) -> Card | None`, the neutral stand-in for a deck
      card in balance tests by intervention (the same seeds played with the card and with the
      filler); None for a card that has no fair stand-in. The filler's id must be new to the set.
    - `cards_in_hand` (optional): `cards_in_hand(state, seat) -> frozenset[str]`, the card ids the
      seat holds in hand now. The balance report's observational figures (win rate when drawn, in
      the opening hand, never seen) replay games and read it after every action; read straight
      after `new_game` it is the opening deal, the natural experiment for a common deck's cards.
    - `agents` (optional): the game's own players by name (`PlayerSpec`), next to the engine's
      random, greedy and mcts; `--agents NAME` finds them for this game only.
    - `ladder`: player specs, weakest first, that `cardsmith agents` measures each against the one
      below it; it starts with "random".
    - `competent` (optional): the spec `balance` plays by default; None means the top of the ladder.
    - `decisions` (optional): the kinds `state.decision()` names (`StateHooks.decision`), each with
      one line saying who decides what; the conformance checks hold the game to them.
    """

    name: str
    title: str
    players: tuple[int, int]
    make_game: Callable[[CardSet], Game]
    play_schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "object"})
    card_fields: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    effects: Mapping[str, EffectSpec] = field(default_factory=dict)
    effect_types: tuple[str, ...] = ()
    deck_predicates: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    cost_functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    validate: Callable[[CardSet], Iterable[Problem]] | None = None
    doc: str = ""
    filler: Callable[[Card, CardSet], Card | None] | None = None
    cards_in_hand: Callable[[Any, int], frozenset[str]] | None = None
    agents: Mapping[str, "PlayerSpec"] = field(default_factory=dict)
    ladder: tuple[str, ...] = ("random", "greedy")
    competent: str | None = None
    decisions: Mapping[str, str] = field(default_factory=dict)

    def supports(self, seats: int) -> bool:
        return self.players[0] <= seats <= self.players[1]

    def competent_player(self) -> str:
        """The player spec `balance` uses by default."""
        return self.competent or self.ladder[-1]


@dataclass(frozen=True)
class PlayerSpec:
    """A game's own player: `make(game, **options)` builds it; `options` maps option names to types
    (for specs such as `planner:width=4`); `doc` is one line for `--help` and docs."""

    make: Callable[..., Any]
    options: Mapping[str, type] = field(default_factory=dict)
    doc: str = ""


def card_effects(card: Card) -> tuple[Mapping[str, Any], ...]:
    """A card's effects as declared in its YAML (`effect:`, one mapping or a list); () for none.

    The validator keeps them on `Card.effects` (checked against the rules module's `effects`)."""
    return tuple(getattr(card, "effects", ()) or ())


# ---- optional hooks ---------------------------------------------------------------------------------
# A game may offer more than the contract above asks: each hook below is optional, and a game without
# it plays exactly as the default says. The engine and the simulation layer call a hook only through
# the functions that follow (never by probing a state or game themselves), so this section is the one
# list of them; `cardsmith.engine.checks.hook_problems` holds each game that offers one to its promise.


@dataclass(frozen=True)
class Decision:
    """The decision a game is waiting for: its `kind` (one of `RulesModule.decisions`, e.g. "block",
    "react", "migrate"), the `seats` that decide (`to_act()`), and a `prompt` in plain English
    ("Seat 1: choose blockers for the declared attackers, or done")."""

    kind: str
    seats: tuple[int, ...]
    prompt: str


class StateHooks(Protocol):
    """What a `GameState` may add (call them through `mute`, `peek`, `first_player`, `cards_dealt`,
    `summary` and `decision` below)."""

    first_player: int | None
    """The seat that goes first by the rules, None until it is decided (a game whose setup choices
    come before the real first turn); the engine reads the first value that is not None, and it
    never goes back to None (Solar Empires then names the seat with priority each turn). Default:
    the first seat to act goes first. Saves crediting seat advantage to the wrong seat."""

    def mute(self) -> None:
        """From now on record no events and no log lines (`apply` returns ()); clones stay muted.
        Default: nothing (the game records as usual). Saves formatting text nobody reads: a fifth
        of a fast random game."""

    def peek(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """`apply` for a look-ahead that is scored, not played on: same checks, same resulting
        position; the next decision's legal set may be left unlisted until asked for. Default:
        `apply`. Saves listing a legal set a greedy agent never asks for."""

    def cards_dealt(self, seat: int) -> frozenset[str]:
        """Right after `new_game`: the cards of the seat's deck that the game's own chance put into
        play (Solar Empires' star and planets). Default: the game cannot say (the report falls back
        to the opening hand, `RulesModule.cards_in_hand`). Saves nothing: it adds a natural experiment."""

    def summary(self) -> Any:
        """The game's own facts about the finished game, plain data, kept on the record for the
        game's `balance_figures`. Default: None."""

    def decision(self) -> Decision | None:
        """The pending decision by name: its documented kind, the seats deciding, a prompt; None once
        the game is over. Every bundled game offers it (docs/rules/<game>.md lists the kinds).
        Default: kind "act", the seats of `to_act()`. Saves inferring the decision from action words."""


class GameHooks(Protocol):
    """What a `Game` may add (call them through `scores_as_now`, `balance_figures`, `balance_text` and `balance_sentences`)."""

    def scores_as_now(self, state: GameState, seat: int, action: Action) -> bool:
        """True only when applying the legal `action` would leave a position the heuristic (and the
        game's end) scores exactly as `state` now, for `seat`; never a guess. Default: False. Saves
        a greedy agent a clone and an apply per such action."""

    def balance_figures(self, records: Sequence[Any]) -> Mapping[str, Any]:
        """The game's own balance figures over finished games (`runner.GameRecord`s, with their
        `summary`), plain data (Alien Empires: win rates per Race power). Default: none."""

    def balance_text(self, figures: Mapping[str, Any]) -> str:
        """`balance_figures`' figures in words for the terminal and the report. Default: none."""

    def balance_sentences(self, figures: Mapping[str, Any]) -> Sequence[str]:
        """The few conclusions of `balance_figures`' figures, each with its numbers, that a
        common-deck balance verdict leads with (TransWar: starting Forms, allies). Default: none."""


STATE_HOOKS = ("first_player", "mute", "peek", "cards_dealt", "summary", "decision")
GAME_HOOKS = ("scores_as_now", "balance_figures", "balance_text", "balance_sentences")


def offers(obj: Any, hook: str) -> bool:
    """True when the state or game `obj` offers the optional hook named `hook` (one of the above)."""
    if hook not in STATE_HOOKS and hook not in GAME_HOOKS:
        raise ValueError(f"{hook!r} is no optional hook of the contract")
    return hasattr(obj, hook)


def mute(state: GameState) -> GameState:
    """`state`, told to record no events or log (`StateHooks.mute`) if its game can; returned for chaining."""
    quiet = getattr(state, "mute", None)
    if quiet is not None:
        quiet()
    return state


def peek(state: GameState, action: Action, seat: int | None = None) -> tuple[Event, ...]:
    """`state.peek(action, seat)` where the game has it (`StateHooks.peek`), else `state.apply`."""
    look = getattr(state, "peek", None)
    return look(action, seat) if look is not None else state.apply(action, seat)


def names_first_player(state: GameState) -> bool:
    """True when the game says who goes first (`StateHooks.first_player`), rather than the first to act."""
    return offers(state, "first_player")


def first_player(state: GameState) -> int | None:
    """The seat the rules made first player, or None: not decided yet, or a game that does not say."""
    return getattr(state, "first_player", None)


def cards_dealt(state: GameState, seat: int) -> frozenset[str] | None:
    """The cards chance dealt `seat` at setup (`StateHooks.cards_dealt`), or None for a game that cannot say."""
    dealt = getattr(state, "cards_dealt", None)
    return None if dealt is None else dealt(seat)


def summary(state: GameState) -> Any:
    """The game's facts about a finished game (`StateHooks.summary`), or None."""
    own = getattr(state, "summary", None)
    return None if own is None else own()


def decision(state: GameState) -> Decision | None:
    """The pending decision (`StateHooks.decision`); for a game without the hook, kind "act" and the
    seats to act; None when the game is over."""
    own = getattr(state, "decision", None)
    if own is not None:
        return own()
    if state.is_terminal():
        return None
    seats = tuple(state.to_act())
    return Decision("act", seats, f"Seat {', '.join(map(str, seats))}: choose one of the legal actions")


def scores_as_now(game: Game) -> Callable[[GameState, int, Action], bool] | None:
    """The game's `GameHooks.scores_as_now`, or None (every action is then looked at). Returned rather
    than called: a greedy agent asks it for every action it weighs, and looks it up once a decision."""
    return getattr(game, "scores_as_now", None)


def balance_figures(game: Game, records: Sequence[Any]) -> Mapping[str, Any] | None:
    """The game's own balance figures (`GameHooks.balance_figures`), or None for a game without any."""
    own = getattr(game, "balance_figures", None)
    return None if own is None else own(records)


def balance_text(game: Game, figures: Mapping[str, Any]) -> str | None:
    """The game's words for its own figures (`GameHooks.balance_text`), or None."""
    words = getattr(game, "balance_text", None)
    return None if words is None else str(words(figures))


def balance_sentences(game: Game, figures: Mapping[str, Any]) -> list[str] | None:
    """The game's conclusions from its own figures (`GameHooks.balance_sentences`), or None."""
    says = getattr(game, "balance_sentences", None)
    return None if says is None else [str(s) for s in says(figures)]
