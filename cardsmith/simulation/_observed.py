"""Observational card figures, as 17lands and HSReplay report them: per deck and card, the holder's
win rate in the games where the card was drawn, where it was in the opening hand, and where it was
never seen, each with its interval and game count.

These are not causal: a player who survives longer draws more cards, so "when drawn" mixes the
card's strength with the game's length. The card tests (`study`) are the causal measure; these
figures stay beside them because designers know them from those sites.

The round robin's workers follow the hands while they play (`GameTask.hands`, an
`engine.hands.HandTracker` reading the rules' `cards_in_hand(state, seat)` after every action), so
no game is played twice; a record without them (one kept for --resume) is replayed. A card is drawn
in a game if it was ever in the seat's hand; the opening hand is the hand when the first player is
known (for a game whose state does not say, straight after setup). A game whose rules module has no
`cards_in_hand` cannot tell, and the figures say so. A draw counts half, as everywhere.
"""

from __future__ import annotations

from typing import Any, Sequence

from cardsmith.engine.contract import Game
from cardsmith.engine.contract import mute
from cardsmith.engine.hands import Hand, HandTracker
from cardsmith.engine.hands import Hands as HandsOfGame
from cardsmith.engine.runner import GameRecord, play_game
from cardsmith.engine.stats import wilson
from cardsmith.sets.model import Deck

KINDS = ("drawn", "opening", "not_seen")


def hands_of(game: Game, decks: Sequence[Deck], record: GameRecord, hand: Hand) -> HandsOfGame:
    """Per seat, the opening hand and every card that was in its hand during the game: what the
    worker followed as it played (`GameTask.hands`), or else a replay."""
    if record.hands is not None:
        return record.hands
    seated = [decks[d] for d in record.deck_ids]
    actions = record.actions
    if not actions and record.turns > 0:
        # Records kept for --resume come without their actions: the game is played again (the same
        # seed and agents give the same game), so the figures do not depend on where it ran.
        actions = play_game(game, seated, record.agents, record.seed, index=record.index).actions
    state = game.new_game(seated, record.seed)
    mute(state)
    tracker = HandTracker(hand, len(record.deck_ids))
    tracker(state)
    for seat, action in actions:
        state.apply(action, seat)
        tracker(state)
    return tracker.result()


class Hands:
    """The hands of recorded games, each game replayed once and shared by the figures that need it
    (these observational figures, and the natural experiment on opening hands)."""

    def __init__(self, game: Game, decks: Sequence[Deck]):
        self.game, self.decks = game, decks
        self.hand: Hand | None = getattr(game.rules, "cards_in_hand", None)
        self._memo: dict[tuple, HandsOfGame] = {}

    def of(self, record: GameRecord) -> HandsOfGame:
        """Per seat, the opening hand and every card held during the game."""
        assert self.hand is not None, "the rules module has no cards_in_hand"
        key = (record.seed, record.deck_ids, record.agents)
        if key not in self._memo:
            self._memo[key] = hands_of(self.game, self.decks, record, self.hand)
        return self._memo[key]


def _rate(results: list[float]) -> dict[str, Any]:
    n = len(results)
    k = sum(results)
    low, high = wilson(k, n) if n else (0.0, 1.0)
    return {"rate": round(k / n, 6) if n else None, "low": round(low, 6), "high": round(high, 6), "games": n}


def observed_cards(hands: Hands, records: Sequence[GameRecord], names: dict[str, str]) -> dict[str, Any]:
    """The observational figures of the run's games, or why the game cannot give them."""
    game, decks = hands.game, hands.decks
    if hands.hand is None:
        return {"available": False, "games": 0, "rows": [],
                "note": f"{game.name} does not say which cards a seat holds (its rules module has no cards_in_hand), "
                        "so there are no when-drawn, opening-hand or never-seen figures."}
    cells: dict[tuple[int, str], dict[str, list[float]]] = {}
    for r in records:
        opening, drawn = hands.of(r)
        returns = r.returns()
        for seat, d in enumerate(r.deck_ids):
            for card in dict.fromkeys(decks[d].cards()):
                cell = cells.setdefault((d, card), {k: [] for k in KINDS})
                if card in drawn[seat]:
                    cell["drawn"].append(returns[seat])
                else:
                    cell["not_seen"].append(returns[seat])
                if card in opening[seat]:
                    cell["opening"].append(returns[seat])
    # A card no seat ever held (a solar body, say) is not a hand card: it gets no row.
    rows = [{"deck": decks[d].name, "card": card, "name": names.get(card, card), **{k: _rate(v[k]) for k in KINDS}}
            for (d, card), v in sorted(cells.items()) if v["drawn"]]
    return {"available": True, "games": len(records), "rows": rows,
            "note": "Observational, not causal: win rate of the card's holder in the round robin's games where the card "
                    "was drawn, was in the opening hand, or was never seen (draws count half; 95% Wilson intervals). "
                    "Players who last longer draw more cards, so these mix a card's strength with game length; the "
                    "card tests above, where there are any, are the causal measure."}
