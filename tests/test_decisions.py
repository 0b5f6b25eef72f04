"""`state.decision()` (contract.StateHooks.decision) on every bundled game: the pending decision by its
documented kind, the seats deciding and a prompt (issue 30)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardsmith
from cardsmith.engine.contract import Decision, decision

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["trf", "alien-empires", "rm2k-anime", "solar-empires", "transwar"]


def _game(name: str):
    cs = cardsmith.load_set(ROOT / "cards" / name)
    game = cardsmith.load_game(cs)
    decks = [cardsmith.load_deck(p, cs) for p in sorted((ROOT / "cards" / name / "decks").glob("*.yaml"))]
    return game, (decks * 2)[:2]


def _engine_kinds(name: str) -> set[str]:
    """Every decision the game's code can ask for, from its own tables."""
    if name in ("alien-empires", "transwar"):
        mod = __import__(f"cardsmith.games.{name.replace('-', '_')}.state", fromlist=["STEPS"])
        return set(mod.STEPS.decisions)
    if name == "solar-empires":
        from cardsmith.games.solar_empires.names import DECISIONS
        return set(DECISIONS)
    if name == "rm2k-anime":
        from cardsmith.games.rm2k_anime.position_schema import DECISIONS as RM
        return set(RM)
    from cardsmith.games.trf.phases import PASS_TO
    return set(PASS_TO) | {"post", "declare", "block", "combat", "capture"}


@pytest.mark.parametrize("name", GAMES)
def test_every_decision_the_game_asks_is_declared_and_documented(name):
    game, _ = _game(name)
    kinds = game.rules.decisions
    assert set(kinds) == _engine_kinds(name)
    page = (ROOT / "docs" / "rules" / f"{name}.md").read_text()
    section = page[page.index("## Decisions"):]
    missing = [k for k in kinds if not re.search(rf"`{re.escape(k)}`", section)]
    assert not missing, f"docs/rules/{name}.md, Decisions, does not list {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_decision_names_the_seats_to_act_with_a_prompt_until_the_game_ends(name):
    game, decks = _game(name)
    state = game.new_game(decks, 1)
    seen = set()
    for _ in range(400):
        d = decision(state)
        if state.is_terminal():
            assert d is None
            break
        assert isinstance(d, Decision) and d.kind in game.rules.decisions and d.seats == state.to_act()
        assert d.prompt.strip()
        seen.add(d.kind)
        state.apply(state.legal_actions(d.seats[0])[0], d.seats[0])
    assert len(seen) >= 3, "a game passes through several kinds of decision"


def test_a_trf_block_is_the_defenders_decision():
    from trf_positions import char, player, position, state as trf_state

    s = trf_state(position(player("tessaly", "kethra-prime", seat=0), player("mira", "calder", seat=1),
                           chars=[char(1, "militia", 0), char(2, "militia", 1)]))
    s.apply(("attack",))
    s.apply(("declare", 1))
    assert s.decision().kind == "declare"
    s.apply(("done",))
    d = s.decision()
    assert d.kind == "block" and d.seats == (1,) and "block" in d.prompt
