"""Alien Empires keeps two indexes beside its tokens and Racial Destinies, for speed: `held` (the
hexes where each seat has tokens) and `does` (each seat's Race handlers). The rules read them
instead of the map and the cards, so an index out of step would change play silently. These tests
walk random games, clones, positions and determinizations and compare each index with what it
stands for after every action. A muted game also sums conflict Force by a shortcut (`side_force`),
checked against the parts the `result` event names."""

from __future__ import annotations

import random

import pytest

from cardsmith.games.alien_empires.powers import cards_handlers
from cardsmith.games.alien_empires.state import STEPS
from tests.alien_support import game, standard_deck


def random_play(seats: int, seed: int, rng: random.Random, most: int = 20_000):
    """A muted random game: yields (state, seat, its legal actions) before each action, which it then
    picks with `rng`. The game must end within `most` actions."""
    st = game().new_game([standard_deck()] * seats, seed)
    st.mute()
    for _ in range(most):
        acting = st.to_act()
        if not acting:
            return
        seat = acting[0]
        legal = st.legal_actions(seat)
        yield st, seat, legal
        st.apply(rng.choice(legal), seat)
    raise AssertionError(f"a random game of {seats} seats (seed {seed}) did not end in {most} actions")


def in_step(st) -> None:
    for s in range(st.seats):
        assert st.held[s] == {h for h, row in enumerate(st.tokens) if row[s]}, f"held of seat {s}"
        assert st.does[s] == cards_handlers(st, st.destiny[s]), f"does of seat {s}"


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_the_indexes_follow_every_action_of_random_games(seats):
    g, rng = game(), random.Random(seats)
    for i in range(4):
        for step, (st, seat, _) in enumerate(random_play(seats, 40 + i, rng)):
            in_step(st)
            if step % 97 == 0:  # the search primitives build states of their own
                in_step(st.clone())
                in_step(g.from_position(st.position(), seed=i))
                in_step(g.sample_state(st.observation(seat), rng))
        in_step(st)  # (the finished game too)


@pytest.mark.parametrize("seats", [2, 5])
def test_choices_kept_between_moves_and_discards_are_those_listed_afresh(seats):
    # After an ordinary move the seat's next Migration list comes from a memo of the last one
    # (free stacks, power moves), and a discard of several cards lists once: a clone starts
    # without the memos, so its listing works everything out.
    rng = random.Random(7 + seats)
    checked = {"migrate": 0, "discard": 0}
    for i in range(6):
        for st, seat, legal in random_play(seats, 70 + i, rng):
            kind = st.stack[-1]["kind"]
            if kind in checked:
                twin = st.clone()
                assert legal == STEPS.decisions[kind][0](twin, twin.stack[-1]), kind
                checked[kind] += 1
    assert checked["migrate"] > 100 and checked["discard"] > 50, checked


def test_a_kept_list_answers_only_the_seat_that_acts():
    # The state keeps the last listed legal actions with their seat (-1 when none): another
    # seat, or -1 itself, still has none and cannot act.
    from cardsmith.engine.contract import IllegalAction

    g, rng = game(), random.Random(3)
    st = g.new_game([standard_deck()] * 3, 5)
    st.mute()
    for _ in range(300):
        acting = st.to_act()
        if not acting:
            break
        seat = acting[0]
        for other in (-1, *(s for s in range(3) if s not in acting)):  # (asked before the seat's list too)
            assert st.legal_actions(other) == ()
            with pytest.raises(IllegalAction):
                st.apply(st.legal_actions(seat)[0], other)
        st.apply(rng.choice(st.legal_actions(seat)), seat)


def test_a_move_is_checked_against_its_list_whatever_object_names_it():
    # `apply` tests a move against a set kept with the listing: an equal tuple or list made anew
    # is the same move, and a move the list lacks (too many tokens, another stack) is refused.
    from cardsmith.engine.contract import IllegalAction

    g, rng = game(), random.Random(7)
    st = g.new_game([standard_deck()] * 2, 11)
    st.mute()
    checked = 0
    while st.to_act() and checked < 20:
        seat = st.to_act()[0]
        legal = st.legal_actions(seat)
        if st.stack[-1]["kind"] == "move_to":
            move = rng.choice(legal)
            for bad in (move[:3] + (99,), ("move", "nowhere", move[2], 1)):
                with pytest.raises(IllegalAction):
                    st.clone().apply(bad, seat)
            twin = st.clone()
            twin.apply(list(move), seat)
            st.apply(tuple(x for x in move), seat)
            assert twin.position() == st.position()
            checked += 1
            continue
        st.apply(rng.choice(legal), seat)
    assert checked == 20


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_a_muted_conflict_is_decided_by_the_totals_the_result_event_gives(seats, monkeypatch):
    # A muted game sums each side's Force with `side_force` and builds no `result` event; a logged
    # game sums `side_parts`. The two must agree at every conflict, Race powers and Events included.
    from cardsmith.games.alien_empires.force import side_force, side_parts

    game()  # (loads the rules, which register their steps)
    resolve, seen = STEPS.autos["@resolve"], set()

    def checked(st, e):
        for side in "AD":
            parts, lowest = side_parts(st, side)
            assert side_force(st, side) == (sum(parts.values()), lowest), (side, parts)
            seen.update(k for k, v in parts.items() if v)
        return resolve(st, e)

    monkeypatch.setitem(STEPS.autos, "@resolve", checked)
    rng = random.Random(11 + seats)
    for i in range(10):
        for _ in random_play(seats, 70 + i, rng):
            pass
    assert {"jinx", "doubled force cards", "no lower than 0"} <= seen  # (these games have them all)
