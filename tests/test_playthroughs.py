"""Golden playthroughs: every file under tests/playthroughs/ replays to the same text.

Each file is rebuilt from its own header (set, decks, seed) and its recorded actions, applied through
the public game contract; the events every action produces and the end must read as written. A
change in the rules, in the order of the legal actions, in chance or in an event's wording shows as a
unified diff of the first lines that differ. When a change of play is intended, rewrite the files
with `python tests/playthroughs/regenerate.py` and read the diff (tests/playthroughs/README.md).
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path

import pytest

from playthroughs.golden import SPECS, account, by_text, header_lines, load, read_header, recorded_actions

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "playthroughs"
FILES = sorted(p.relative_to(FOLDER).as_posix() for p in FOLDER.glob("*/*.txt"))
WINDOW = 12  # lines of each text shown from the first difference on


@lru_cache(maxsize=None)
def _game(set_name: str, decks: tuple[str, ...]):
    """The game and decks of a header (each set is validated once per process)."""
    return load(ROOT, set_name, decks)


def first_difference(expected: list[str], actual: list[str], name: str) -> str:
    """A unified diff of the two texts around their first differing line (a replay that stopped early
    would otherwise show every later line as removed before the line that says why)."""
    first = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    diff = difflib.unified_diff(expected[:first + WINDOW], actual[:first + WINDOW],
                                f"{name} (as written)", f"{name} (replayed now)", n=2, lineterm="")
    return f"first difference at line {first + 1}:\n" + "\n".join(diff)


def test_every_golden_game_has_its_file_and_no_file_is_stray():
    assert FILES == sorted(s.path for s in SPECS), (
        "tests/playthroughs/ and golden.SPECS disagree: run `python tests/playthroughs/regenerate.py`, "
        "and delete files no spec names")


@pytest.mark.parametrize("name", FILES)
def test_playthrough_replays_as_written(name: str):
    expected = (FOLDER / name).read_text(encoding="utf-8").splitlines()
    spec = read_header(expected)
    assert expected[:len(header_lines(spec))] == header_lines(spec), f"{name}: the header is not as the format writes it"
    written_as = next(s for s in SPECS if s.path == name)
    assert (spec.game, spec.decks, spec.agents, spec.seed, spec.cap) == (
        written_as.game, written_as.decks, written_as.agents, written_as.seed, written_as.cap), (
        f"{name}: golden.SPECS changed since the file was written; regenerate it")
    actions = recorded_actions(expected)
    game, decks = _game(spec.game, spec.decks)
    actual = account(game, decks, spec, by_text(actions), len(actions))
    if actual != expected:
        pytest.fail(f"{name} no longer replays as written: play changed.\n"
                    f"{first_difference(expected, actual, name)}\n"
                    "If the change is intended, run `python tests/playthroughs/regenerate.py` and review the diff.",
                    pytrace=False)


def test_a_changed_event_shows_as_a_diff_of_that_action():
    """The check can fail: one event edited in a written file is reported at its action, not later."""
    name = FILES[0]
    expected = (FOLDER / name).read_text(encoding="utf-8").splitlines()
    spec = read_header(expected)
    actions = recorded_actions(expected)
    at = next(i for i, line in enumerate(expected) if " => " in line)
    edited = expected[:at] + [expected[at] + " | a made-up event"] + expected[at + 1:]
    game, decks = _game(spec.game, spec.decks)
    actual = account(game, decks, spec, by_text(actions), len(actions))
    diff = first_difference(edited, actual, name)
    assert f"-{expected[at]} | a made-up event" in diff and f"+{expected[at]}" in diff


def test_an_action_no_longer_offered_stops_the_replay_with_what_is_offered():
    name = FILES[0]
    expected = (FOLDER / name).read_text(encoding="utf-8").splitlines()
    spec = read_header(expected)
    actions = recorded_actions(expected)
    actions[2] = "('no such action',)"
    game, decks = _game(spec.game, spec.decks)
    actual = account(game, decks, spec, by_text(actions), len(actions))
    assert "recorded action ('no such action',) is not legal here; offered" in actual[-1]
    assert actual[-1].startswith("   3 seat ")
