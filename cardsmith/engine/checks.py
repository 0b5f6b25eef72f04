"""Checks that keep simulations honest; rules modules use them in their own tests too.

`observation_leaks(state, observation)` finds every mutable object an observation shares with the
true state (the state itself, its lists, dicts, generators...). An observation that shares none
cannot be used to read the state's hidden zones or to predict its chance, now or later.
"""

from __future__ import annotations

import dataclasses
import random
import types
from typing import Any, Callable, Iterable, Iterator

_ATOMS = (str, bytes, int, float, complex, bool, type(None), range, types.FunctionType, types.BuiltinFunctionType,
          types.ModuleType, type)


def _is_mutable(obj: Any) -> bool:
    if isinstance(obj, (tuple, frozenset, types.MappingProxyType)) or isinstance(obj, _ATOMS):
        return False
    if dataclasses.is_dataclass(obj) and getattr(obj, "__dataclass_params__").frozen:  # (typeshed omits the attribute)
        return False
    if hasattr(obj, "__dict__") or isinstance(obj, (list, dict, set, bytearray, random.Random)):
        return True
    return hasattr(obj, "__slots__")


def _children(obj: Any) -> Iterator[Any]:
    if isinstance(obj, _ATOMS):
        return
    if isinstance(obj, (dict, types.MappingProxyType)):
        for k, v in obj.items():
            yield k
            yield v
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
        return
    if hasattr(obj, "__dict__"):
        yield from vars(obj).values()
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                yield getattr(obj, name)


def reachable(root: Any, skip: Iterable[Any] = ()) -> dict[int, Any]:
    """Every object reachable from `root` through containers and attributes, by id (not into `skip`)."""
    seen: dict[int, Any] = {}
    skipped = {id(o) for o in skip}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in skipped or isinstance(obj, _ATOMS):
            continue
        seen[id(obj)] = obj
        stack.extend(_children(obj))
    return seen


def observation_leaks(state: Any, observation: Any, shared_ok: Iterable[Any] = ()) -> list[str]:
    """Descriptions of the mutable objects `observation` shares with `state` (empty: none).

    `shared_ok`: objects both may hold because they never change during a game and hide nothing
    (a game's static card table, say); they and what they hold are not searched.
    """
    in_state = {i: o for i, o in reachable(state, shared_ok).items() if _is_mutable(o)}
    leaks = []
    for i, obj in reachable(observation, shared_ok).items():
        if i in in_state:
            what = "the state itself" if obj is state else f"a {type(obj).__name__} of the state"
            leaks.append(f"{what}: {repr(obj)[:80]}")
    return leaks


class _NotAnAction:
    """An action no game offers (to check that apply refuses it)."""

    def __repr__(self) -> str:
        return "<not an action>"

    def __str__(self) -> str:
        return "<not an action>"


def plain(obj: Any, depth: int = 0) -> Any:
    """An observation as comparable plain data (objects without `__eq__` compared by their fields)."""
    kind = "other" if depth > 50 else _kind(obj)
    if kind == "mapping":
        return {plain(k, depth + 1): plain(v, depth + 1) for k, v in obj.items()}
    if kind == "sequence":
        return [plain(x, depth + 1) for x in obj]
    if kind == "set":
        return sorted((plain(x, depth + 1) for x in obj), key=repr)
    if kind == "fields":
        return (type(obj).__name__, {k: plain(v, depth + 1) for k, v in sorted(_fields(obj).items())})
    return obj


def _compares_itself(obj: Any) -> bool:
    return type(obj).__eq__ is not object.__eq__ and not dataclasses.is_dataclass(obj)


def _fields(obj: Any) -> dict[str, Any]:
    """An object's attributes, from its __dict__ and the __slots__ of its classes."""
    fields = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name) and not name.startswith("__"):
                fields[name] = getattr(obj, name)
    return fields


def same_plain(a: Any, b: Any, depth: int = 0) -> bool:
    """`plain(a) == plain(b)`, walking both at once: parts that are one object (a determinized state
    shares the card table with the real one) are equal without a walk."""
    if a is b:
        return True
    kind = _kind(a)
    if depth > 50 or kind != _kind(b) or kind in ("other", "set"):
        return bool(plain(a, depth) == plain(b, depth))
    if kind == "sequence":
        return len(a) == len(b) and all(same_plain(x, y, depth + 1) for x, y in zip(a, b))
    if kind == "mapping":
        if not all(isinstance(k, _ATOMS) for k in a) or not all(isinstance(k, _ATOMS) for k in b):
            return bool(plain(a, depth) == plain(b, depth))
        return a.keys() == b.keys() and all(same_plain(a[k], b[k], depth + 1) for k in a)
    fa, fb = _fields(a), _fields(b)  # kind "fields": compared by type name and attributes, as plain does
    return (type(a).__name__ == type(b).__name__ and fa.keys() == fb.keys()
            and all(same_plain(fa[k], fb[k], depth + 1) for k in fa))


def _kind(obj: Any) -> str:
    """How `plain` turns `obj` into data: "sequence", "mapping", "set", "fields" or "other"."""
    if isinstance(obj, _ATOMS):
        return "other"
    if isinstance(obj, (dict, types.MappingProxyType)):
        return "mapping"
    if isinstance(obj, (list, tuple)):
        return "sequence"
    if isinstance(obj, (set, frozenset)):
        return "set"
    return "other" if _compares_itself(obj) else "fields"


def _snapshot(state: Any) -> tuple:
    acting = state.to_act()
    return (state.turn, acting, len(state.log), tuple(state.legal_actions(acting[0])) if acting else ())


def _mutations(action: Any) -> list[Any]:
    """Actions an agent might make by editing an offered one (refused unless also offered)."""
    out: list[Any] = [_NotAnAction()]
    if isinstance(action, tuple):
        out.append(action + ("extra",))
        if action:
            out.append(action[:-1] + ("<not a card>",))
    return out


def _position_problem(game: Any, state: Any) -> str | None:
    """None when `from_position(position())` gives the same position and legal actions."""
    from cardsmith.engine.contract import PositionError

    try:
        pos = state.position()
    except (PositionError, NotImplementedError):
        return None  # a game that cannot write this state as a position says so; nothing to compare
    try:
        back = game.from_position(pos)
    except Exception as e:  # noqa: BLE001 - any failure here is the finding
        return f"from_position(position()) failed: {e}"
    if back.position() != pos:
        return "from_position(position()).position() differs from the position"
    acting = state.to_act()
    if back.to_act() != acting or (acting and back.legal_actions(acting[0]) != state.legal_actions(acting[0])):
        return "a state read back from its position offers other actions"
    return None


def protocol_problems(game: Any, decks: Any, seeds: Iterable[int] = range(5), max_actions: int = 20_000,
                      shared_ok: Any = None, position_every: int = 7, same_observation: bool = True) -> list[str]:
    """Play random games and report every breach of the game contract found (empty: none).

    Checked after every action: the seats to act and their legal actions are offered (a non-empty
    tuple, the same when asked twice) while the game runs, no outcome before the end; an action not
    offered, an offered action edited, or an action for a seat not to act raise IllegalAction and
    change nothing; applying to a clone leaves the original alone; a determinization of a seat's
    observation shows that seat the same observation (unless `same_observation=False`) and offers
    the same actions. Every action for the first ten, then every fifth: observations share nothing
    mutable with the state. Every `position_every` actions: the position reads back to the same
    state. Per game: the same seed gives the same game, `(seed, actions)` replays it, it
    ends within `max_actions`, and its returns sum to N/2. `shared_ok(state)` may return static
    objects observations are allowed to share.
    """
    import random as _random

    from cardsmith.engine.contract import IllegalAction

    problems: list[str] = []
    fail = _collector(problems)

    for seed in seeds:
        state = game.new_game(list(decks), seed)
        twin = game.new_game(list(decks), seed)
        if list(state.log) != list(twin.log) or _snapshot(state) != _snapshot(twin):
            fail(seed, 0, "new_game with the same seed gave a different game")
        rng = _random.Random(seed)
        actions: list | None = []
        for step in range(max_actions + 1):
            if state.is_terminal():
                break
            if step == max_actions:
                fail(seed, step, f"the game did not end within {max_actions} actions")
                break
            if not _check_step(game, state, step, seed, fail, shared_ok, position_every, same_observation, IllegalAction):
                actions = None
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            turn = state.turn
            try:
                state.apply(action, seat)
            except IllegalAction as e:
                fail(seed, step, f"an offered action {action} was refused: {e}")
                actions = None
                break
            assert actions is not None
            actions.append((seat, action))
            if state.turn < turn:
                fail(seed, step, "the turn number went back")
        if actions is None:
            continue
        _check_end(game, decks, state, seed, actions, fail, IllegalAction)
    return problems


def _collector(problems: list[str], most: int = 50) -> Callable[[int, int, str], None]:
    """`fail(seed, step, text)`: adds "seed S, action N: text" to `problems`, the first `most` only."""
    def fail(seed: int, step: int, text: str) -> None:
        if len(problems) < most:
            problems.append(f"seed {seed}, action {step}: {text}")
    return fail


def _check_step(game: Any, state: Any, step: int, seed: int, fail: Any, shared_ok: Any, position_every: int,
                same_observation: bool, IllegalAction: type[Exception]) -> bool:
    import random as _random

    n = state.seats
    acting = state.to_act()
    if not acting:
        fail(seed, step, "to_act() is empty while the game goes on")
        return False
    if state.outcome() is not None or tuple(state.returns()) != (0.5,) * n:
        fail(seed, step, "an outcome (or returns other than 0.5) while the game goes on")
    seat = acting[0]
    legal = state.legal_actions(seat)
    if not isinstance(legal, tuple):
        fail(seed, step, f"legal_actions() gave a {type(legal).__name__}, not a tuple (an agent could change it)")
    if not legal:
        fail(seed, step, f"no legal action for seat {seat}, which is to act")
        return False
    if tuple(state.legal_actions(seat)) != tuple(legal):
        fail(seed, step, "legal_actions() changed when asked twice")
    ok = shared_ok(state) if shared_ok else ()
    # Walking a whole state is the costly part: every action early on, then every fifth.
    for s in range(n) if step < 10 or step % 5 == 0 else ():
        obs = state.observation(s)
        leaks = observation_leaks(state, obs, ok)
        if leaks:
            fail(seed, step, f"the observation of seat {s} shares {leaks[0]}")
    obs = state.observation(seat)
    sample = game.sample_state(obs, _random.Random(step))
    if tuple(sample.legal_actions(seat)) != tuple(legal):
        fail(seed, step, f"a determinization offers seat {seat} other actions than the real state")
    if same_observation and not same_plain(sample.observation(seat), obs):
        fail(seed, step, f"a determinization shows seat {seat} another observation (the observation depends on hidden cards)")
    before = _snapshot(state)
    for bad in _mutations(legal[0]):
        if bad in legal:
            continue
        try:
            state.apply(bad, seat)
            fail(seed, step, f"apply accepted {bad!r}, which was not offered")
        except IllegalAction:
            pass
    idle = [s for s in range(n) if s not in acting]
    if idle:
        try:
            state.apply(legal[0], idle[0])
            fail(seed, step, f"apply accepted an action for seat {idle[0]}, which is not to act")
        except IllegalAction:
            pass
    if _snapshot(state) != before:
        fail(seed, step, "a refused action changed the state")
    other = state.clone()
    other.apply(legal[0], seat)
    if _snapshot(state) != before:
        fail(seed, step, f"applying {legal[0]} to a clone changed the original")
        return False
    if position_every and step % position_every == 0:
        why = _position_problem(game, state)
        if why:
            fail(seed, step, why)
    return True


def _check_end(game: Any, decks: Any, state: Any, seed: int, actions: list, fail: Any,
               IllegalAction: type[Exception]) -> None:
    n = state.seats
    out = state.outcome()
    if out is None:
        fail(seed, len(actions), "the game is over but outcome() is None")
        return
    if len(out.ranks) != n or not out.reason:
        fail(seed, len(actions), f"the outcome {out} does not rank every seat or gives no reason")
    if abs(sum(state.returns()) - n / 2) > 1e-9:
        fail(seed, len(actions), f"returns {state.returns()} do not sum to {n / 2}")
    if state.to_act() != ():
        fail(seed, len(actions), "to_act() is not empty after the end")
    replayed = game.new_game(list(decks), seed)
    try:
        for seat, a in actions:
            replayed.apply(a, seat)
        if list(replayed.log) != list(state.log) or replayed.outcome() != out:
            fail(seed, len(actions), "replaying (seed, actions) gave a different game")
    except IllegalAction as e:
        fail(seed, len(actions), f"replaying (seed, actions) failed: {e}")


# ---- the optional hooks (contract.StateHooks, contract.GameHooks) -----------------------------------

def _plain_data(obj: Any) -> bool:
    """Only str, int, float, bool, None, lists, tuples and dicts with str keys (YAML/JSON-ready, picklable)."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return True
    if isinstance(obj, (list, tuple)):
        return all(_plain_data(x) for x in obj)
    if isinstance(obj, dict):
        return all(isinstance(k, str) and _plain_data(v) for k, v in obj.items())
    return False


def _same_place(a: Any, b: Any) -> bool:
    """Two states stand at the same point of the game: position (or every seat's observation), the
    seats to act and their legal actions, the outcome."""
    from cardsmith.engine.contract import PositionError

    try:
        same = a.position() == b.position()
    except (PositionError, NotImplementedError):
        same = all(same_plain(a.observation(s), b.observation(s)) for s in range(a.seats))
    acting = a.to_act()
    return (same and acting == b.to_act() and a.outcome() == b.outcome()
            and all(a.legal_actions(s) == b.legal_actions(s) for s in acting))


def hook_problems(game: Any, decks: Any, seeds: Iterable[int] = range(3), max_actions: int = 20_000,
                  every: int = 3) -> list[str]:
    """Play random games and hold each optional hook the game offers to its promise (empty: none broken).

    `decision`: after every action, a kind the rules declare for the seats to act, with a prompt.
    `cards_dealt`: straight after setup, cards of the seat's own deck. `first_player`: None or a seat,
    and never None again once decided. `mute`: a muted twin fed the same actions plays the same game and
    writes no log. `peek` (every `every` actions): leads where `apply` leads. `scores_as_now` (every
    `every` actions): an action it vouches for leaves the heuristic and the end as they are.
    `summary`, `balance_figures`: plain data; `balance_text`: a str. Hooks are called as the engine
    calls them, through `cardsmith.engine.contract`.
    """
    import random as _random

    import cardsmith.engine.contract as c

    problems: list[str] = []
    fail = _collector(problems)

    for seed in seeds:
        state = game.new_game(list(decks), seed)
        _check_dealt(state, decks, seed, fail)
        muted = c.mute(game.new_game(list(decks), seed)) if c.offers(state, "mute") else None
        quiet_log = len(muted.log) if muted is not None else 0
        rng, decided = _random.Random(seed), None
        for step in range(max_actions):
            decided = _check_first_player(state, decided, seed, step, fail)
            _check_decision(game, state, seed, step, fail)
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            if step % every == 0:
                _check_lookahead(game, state, seat, action, seed, step, fail)
            state.apply(action, seat)
            if muted is not None:
                if muted.apply(action, seat) != () or len(muted.log) != quiet_log:
                    fail(seed, step, "a muted state recorded events or log lines")
                if not _same_place(muted, state):
                    fail(seed, step, "muting the game changed its play")
                    muted = None
        if not _plain_data(c.summary(state)):
            fail(seed, 0, f"summary() is not plain data: {c.summary(state)!r:.80}")
    problems += _check_balance_hooks(game, decks)
    return problems


def _check_dealt(state: Any, decks: Any, seed: int, fail: Any) -> None:
    from cardsmith.engine.contract import cards_dealt

    for seat in range(state.seats):
        dealt = cards_dealt(state, seat)
        if dealt is None:
            return
        own = set(decks[seat].cards()) if seat < len(decks) else set()
        if not isinstance(dealt, frozenset) or not dealt <= own:
            fail(seed, 0, f"cards_dealt({seat}) gave {sorted(dealt)[:5]}, not cards of the seat's own deck")


def _check_decision(game: Any, state: Any, seed: int, step: int, fail: Any) -> None:
    """`decision()`: None once the game is over; else a kind the rules declare, the seats of `to_act()`, a prompt."""
    from cardsmith.engine.contract import Decision, offers

    if not offers(state, "decision"):
        return
    d = state.decision()
    if state.is_terminal():
        if d is not None:
            fail(seed, step, f"decision() named {d!r:.80} after the game ended")
        return
    kinds = getattr(game.rules, "decisions", None) or {}
    if not isinstance(d, Decision):
        fail(seed, step, f"decision() gave {d!r:.80}, not a Decision")
    elif kinds and d.kind not in kinds:
        fail(seed, step, f"decision() kind {d.kind!r} is not one the rules declare ({', '.join(sorted(kinds))})")
    elif tuple(d.seats) != tuple(state.to_act()):
        fail(seed, step, f"decision() names seats {d.seats}, but to_act() is {state.to_act()}")
    elif not isinstance(d.prompt, str) or not d.prompt.strip():
        fail(seed, step, "decision() gave no prompt")


def _check_first_player(state: Any, decided: int | None, seed: int, step: int, fail: Any) -> int | None:
    from cardsmith.engine.contract import first_player, names_first_player

    if not names_first_player(state):
        return None
    seat = first_player(state)
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.seats):
        fail(seed, step, f"first_player is {seat!r}, not a seat")
    elif decided is not None and seat is None:
        fail(seed, step, f"first_player went back to None after naming seat {decided}")
    return decided if seat is None else seat


def _check_lookahead(game: Any, state: Any, seat: int, action: Any, seed: int, step: int, fail: Any) -> None:
    """`peek` leads where `apply` leads; an action `scores_as_now` vouches for changes no score."""
    from cardsmith.engine.contract import offers, peek, scores_as_now

    if offers(state, "peek"):
        applied, peeked = state.clone(), state.clone()
        applied.apply(action, seat)
        peek(peeked, action, seat)
        if not _same_place(applied, peeked):
            fail(seed, step, f"peek({action}) led elsewhere than apply")
    same = scores_as_now(game)
    if same is None:
        return
    now = game.heuristic(state, seat)
    for a in state.legal_actions(seat):
        if same(state, seat, a):
            after = state.clone()
            after.apply(a, seat)
            if after.is_terminal() != state.is_terminal() or game.heuristic(after, seat) != now:
                fail(seed, step, f"scores_as_now vouched for {a}, which changes the score")


def _check_balance_hooks(game: Any, decks: Any) -> list[str]:
    from cardsmith.engine.contract import balance_figures, balance_text, offers
    from cardsmith.engine.runner import play_game

    if not offers(game, "balance_figures"):
        return []
    seated = list(decks)
    records = [play_game(game, seated, ["random"] * len(seated), seed) for seed in range(2)]
    figures = balance_figures(game, records)
    if not _plain_data(figures):
        return [f"balance_figures gave something other than plain data: {figures!r:.80}"]
    words = balance_text(game, figures) if figures is not None and offers(game, "balance_text") else ""
    return [] if isinstance(words, str) else ["balance_text gave no text"]


# ---- per-seat decks: a determinization keeps every seat's cards its own -------------------------------

def _held(state: Any, seat: int) -> Any:
    """The cards `seat` holds: every card in a zone it owns (a kit `Zones` state), else the rules'
    `cards_in_hand` and the cards it played."""
    from collections import Counter

    from cardsmith.engine.kit.zones import HIDDEN, Zones

    zones = getattr(state, "zones", None)
    if isinstance(zones, Zones):
        return Counter(c for z in zones if z.owner == seat for c in z.cards if c != HIDDEN)
    hand = getattr(getattr(getattr(state, "game", None), "rules", None), "cards_in_hand", None)
    held: Counter[str] = Counter(hand(state, seat) if hand else ())
    return held + Counter(state.cards_played(seat))


def deck_problems(game: Any, decks: Any, seeds: Iterable[int] = range(3), max_actions: int = 20_000) -> list[str]:
    """Play random games and fail a determinization that gives a seat a card it could not hold.

    A seat the true games keep within its own deck list (every card it ever holds, counted with
    copies, is in its deck: a game where each player has their own deck) must be kept within it by
    `sample_state` too: a determinization for any seat's observation that gives it a card of
    another seat's deck (or more copies than its deck has) is a problem. Seats that really do hold
    cards of other decks (a common deck) are not checked. Seat the decks differently (two different
    deck lists) for the check to mean anything.
    """
    import random as _random
    from collections import Counter

    own = [Counter(d.cards()) for d in decks]
    confined = [True] * len(own)
    found: list[tuple[int, int, int, int, list[str]]] = []
    for seed in seeds:
        state, rng = game.new_game(list(decks), seed), _random.Random(seed)
        for step in range(max_actions):
            for s in range(len(own)):
                confined[s] = confined[s] and not (_held(state, s) - own[s])
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            sample = game.sample_state(state.observation(seat), _random.Random(step))
            for s in range(len(own)):
                extra = _held(sample, s) - own[s]
                if extra:
                    found.append((seed, step, seat, s, sorted(extra)))
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
    problems: list[str] = []
    fail = _collector(problems)
    for seed, step, seat, s, extra in found:
        if confined[s]:
            owners = [t for t, c in enumerate(own) if t != s and extra[0] in c]
            where = f" (a card of seat {owners[0]}'s deck)" if owners else ""
            fail(seed, step, f"a determinization for seat {seat} gives seat {s} {extra[0]!r}{where}, which its own "
                             f"deck does not hold: hidden cards leak across decks (a TableGame with one deck per "
                             f"player declares deck_mode = PER_SEAT)")
    return problems


# ---- determinizations: random play from any of them goes on to an end -----------------------------------

def playout_problems(game: Any, decks: Any, seeds: Iterable[int] = range(2), points: int = 12,
                     max_actions: int = 20_000) -> list[str]:
    """Play random games and, at `points` decisions of each (the first four, then spread over the
    game), determinize the acting seat's observation and play random actions from it to the end.

    Agents that plan (greedy, MCTS, playouts) play on from determinizations, so a state built there
    must lead on as the game's own states do. A problem: a playout state that is not over but has no
    seat to act or gives a seat to act no legal action (a state the real game never reaches, or a
    rules path with no options), `sample_state` or an offered action that raises, or a playout that
    does not end within `max_actions`. Random play only finds what it happens upon: a rare path needs
    a test of its own.
    """
    import random as _random

    problems: list[str] = []
    fail = _collector(problems)
    for seed in seeds:
        actions = _random_actions(game, decks, seed, max_actions)
        n = len(actions)
        marks = set(range(min(4, n))) | {i * n // points for i in range(points)}
        state = game.new_game(list(decks), seed)
        for step, (seat, action) in enumerate(actions):
            if step in marks:
                why = _playout(game, state, seat, _random.Random(seed * 100_003 + step), max_actions)
                if why:
                    fail(seed, step, f"random play from a determinization for seat {seat}: {why}")
            state.apply(action, seat)
    return problems


def _random_actions(game: Any, decks: Any, seed: int, max_actions: int) -> list[tuple[int, Any]]:
    """(seat, action) of a random game (cut short where it offers nothing: protocol_problems says so)."""
    import random as _random

    state, rng = game.new_game(list(decks), seed), _random.Random(seed)
    out: list[tuple[int, Any]] = []
    while len(out) < max_actions and not state.is_terminal() and state.to_act():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if not legal:
            break
        out.append((seat, legal[rng.randrange(len(legal))]))
        state.apply(out[-1][1], seat)
    return out


def _playout(game: Any, state: Any, seat: int, rng: Any, max_actions: int) -> str | None:
    """Why random play from a determinization of `seat`'s observation of `state` fails (None: it ends)."""
    try:
        sample = game.sample_state(state.observation(seat), rng)
    except Exception as e:  # noqa: BLE001 - the crash is the finding
        return f"sample_state raised {type(e).__name__}: {e}"
    for n in range(max_actions):
        if sample.is_terminal():
            return None
        acting = sample.to_act()
        if not acting:
            return f"after {n} actions, a state not over has no seat to act ({_where(sample)})"
        empty = [s for s in acting if not sample.legal_actions(s)]
        if empty:
            return f"after {n} actions, seat {empty[0]} is to act with no legal action ({_where(sample)})"
        legal = sample.legal_actions(acting[0])
        action = legal[rng.randrange(len(legal))]
        try:
            sample.apply(action, acting[0])
        except Exception as e:  # noqa: BLE001 - the crash is the finding
            return f"after {n} actions, the offered {action!r} raised {type(e).__name__}: {e}"
    return f"it did not end within {max_actions} actions"


def _where(state: Any) -> str:
    """The pending decision's kind where the game names it, else the state's repr."""
    from cardsmith.engine.contract import offers

    d = state.decision() if offers(state, "decision") else None
    return f"decision {d.kind!r}, turn {state.turn}" if d is not None else f"{state!r:.80}"
