"""The #rm2k_anime TCG (Ksarusix, early 2000s): the complete two-player rules on the game contract.

No mana: Users pay for cards by taking Lag, which their Bandwidth clears each turn; cards are Synced
face down on a User over several turns; Challenges of five kinds pit skill sums against each other;
a game is won by Domination, Pingout, Accomplishment (10 Victory Points) or the Main User's Goal.
Actions are plain tuples (`("pay", 0, 1)`: User 0 takes a Lag to put a Sync token on User 1's card);
Users are named by their index in their seat's list. Readings: docs/rules/rm2k-anime.md.

Modules: `effects` (the handlers cards name), `cards`, `state`, `flow` (the turn), `events`,
`challenge`, `observation`, `positions`, `heuristics`, `players`, `game`.
"""

from __future__ import annotations

from cardsmith.engine.contract import RulesModule
from cardsmith.games.rm2k_anime.decisions import KINDS as DECISION_KINDS
from cardsmith.games.rm2k_anime.effects import EFFECTS, set_problems
from cardsmith.games.rm2k_anime.filler import cards_in_hand, filler
from cardsmith.games.rm2k_anime.game import PLAY_SCHEMA, Rm2kAnime
from cardsmith.games.rm2k_anime.players import AGENTS, COMPETENT, LADDER
from cardsmith.games.rm2k_anime.state import RmState
from cardsmith.sets.model import CardSet


def make_game(cardset: CardSet) -> Rm2kAnime:
    """The #rm2k_anime rules for `cardset` (the registry calls it)."""
    return Rm2kAnime(cardset, RULES)


RULES = RulesModule(
    name="rm2k_anime",
    title="#rm2k_anime TCG",
    players=(2, 2),
    make_game=make_game,
    play_schema=PLAY_SCHEMA,
    effects=EFFECTS,
    effect_types=("event", "challenge", "victory"),
    validate=set_problems,
    filler=filler,
    cards_in_hand=cards_in_hand,
    agents=AGENTS,
    ladder=LADDER,
    competent=COMPETENT,
    doc="Users, Lag, Syncing and Challenges (Ksarusix); docs/rules/rm2k-anime.md.",
    decisions=DECISION_KINDS,
)

__all__ = ["EFFECTS", "RULES", "Rm2kAnime", "RmState", "make_game"]
