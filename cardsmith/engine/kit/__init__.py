"""The shared kit games are built from: zones with hidden information, a decision stack, turn order
and phases, event recording, and positions. Chance lives in `cardsmith.engine.chance`.

A game is free to keep its own fast representation; the kit is what the bundled games share so that
hiding, determinization, multi-step choices and positions work the same way everywhere.
"""

from cardsmith.engine.kit.decisions import Decision, DecisionStack
from cardsmith.engine.kit.events import EventRecorder
from cardsmith.engine.kit.positions import dump_position, parse_position, plain_copy, position_header
from cardsmith.engine.kit.cards import CardTable
from cardsmith.engine.kit.results import ResultState, WinnerState, ended, returns_of
from cardsmith.engine.kit.table import COMMON, PER_SEAT, TableGame, TableState, ranked
from cardsmith.engine.kit.turns import TurnOrder
from cardsmith.engine.kit.zones import HIDDEN, OWNER, PUBLIC, SECRET, Zone, Zones

__all__ = [
    "COMMON", "PER_SEAT", "CardTable", "Decision", "DecisionStack", "EventRecorder", "HIDDEN", "OWNER", "PUBLIC", "SECRET", "TurnOrder",
    "Zone", "Zones", "dump_position", "ended", "parse_position", "plain_copy", "position_header", "ResultState", "WinnerState",
    "returns_of", "ranked", "TableGame", "TableState",
]
