"""The optional hooks are declared in one place (`cardsmith.engine.contract`): a game without them plays
as the defaults say, and the conformance harness (`checks.hook_problems`) catches a game whose hook
breaks its promise. The engine and the simulation reach hooks only through the contract."""

from __future__ import annotations

import ast
from pathlib import Path

import engine_testgame as sk
import pytest

from cardsmith.engine import contract
from cardsmith.engine.checks import hook_problems
from cardsmith.engine.runner import play_game

ROOT = Path(__file__).resolve().parents[1]
DECKS = [sk.AGGRO, sk.TURTLE]


def test_a_game_without_hooks_gets_the_defaults():
    game = sk.make_game()
    state = game.new_game(DECKS, 3)
    twin = game.new_game(DECKS, 3)
    assert contract.mute(state) is state and not contract.names_first_player(state)
    assert contract.first_player(state) is None and contract.cards_dealt(state, 0) is None
    assert contract.summary(state) is None and contract.scores_as_now(game) is None
    assert contract.balance_figures(game, []) is None and contract.balance_text(game, {}) is None
    action = state.legal_actions()[0]
    assert contract.peek(state, action) == twin.apply(action)  # peek is apply
    assert state.position() == twin.position()
    assert hook_problems(game, DECKS, seeds=range(2)) == []
    with pytest.raises(ValueError, match="no optional hook"):
        contract.offers(state, "peak")


class _Hooked(sk.SkirmishState):
    """Skirmish with hooks that break their promises, one per flag."""

    broken: frozenset[str] = frozenset()

    def clone(self) -> "_Hooked":
        c = super().clone()
        c.__class__ = type(self)
        return c

    def peek(self, action, seat=None):
        legal = self.legal_actions(seat)
        return self.apply(legal[-1] if "peek" in self.broken else action, seat)

    @property
    def first_player(self):
        return 7 if "first_player" in self.broken else self.order.order[0]

    def cards_dealt(self, seat):
        return frozenset({"no-such-card"} if "cards_dealt" in self.broken else self.zones.of(seat, "hand").cards)


def _game_with(broken: set[str]):
    game = sk.make_game()
    made = game.new_game
    kind = type("Broken", (_Hooked,), {"broken": frozenset(broken)})

    def new_game(decks, seed, *, chance=None):
        state = made(decks, seed, chance=chance)
        state.__class__ = kind
        return state
    game.new_game = new_game
    return game


@pytest.mark.parametrize("hook, says", [("peek", "led elsewhere than apply"), ("first_player", "not a seat"),
                                        ("cards_dealt", "not cards of the seat's own deck")])
def test_the_harness_catches_a_hook_that_breaks_its_promise(hook, says):
    assert hook_problems(_game_with(set()), DECKS, seeds=range(2)) == []
    problems = hook_problems(_game_with({hook}), DECKS, seeds=range(2))
    assert problems and all(says in p for p in problems), problems[:3]


def test_the_runner_credits_the_seat_the_rules_name_first():
    game = _game_with(set())
    record = play_game(game, DECKS, ["random", "random"], 4)
    assert record.first_actor == game.new_game(DECKS, 4).order.order[0]


def _calls_outside_the_contract(path: Path) -> list[str]:
    """getattr/hasattr calls naming an optional hook, in one module."""
    hooks = set(contract.STATE_HOOKS) | set(contract.GAME_HOOKS)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in hooks):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_engine_and_simulation_reach_hooks_only_through_the_contract():
    modules = [p for d in ("engine", "simulation") for p in sorted((ROOT / "cardsmith" / d).rglob("*.py"))]
    found = [f for p in modules if p.name != "contract.py" for f in _calls_outside_the_contract(p)]
    assert found == []
