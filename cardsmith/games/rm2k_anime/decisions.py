"""The decisions a #rm2k_anime game asks for, by name (`RmState.decision()`; docs/rules/rm2k-anime.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.engine.contract import Decision

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.board import Board

KINDS = {
    "main_user": "preparation: choose a Main User face down",
    "starting": "preparation: choose the other starting Users face down, or ready",
    "distribute_lag": "preparation: put one Lag of the starting Cost on a User",
    "main": "the Main Phase: Sync, pay, Attach, play an Event, or end the phase",
    "challenge": "the Challenge Phase: activate a Challenge, or end the phase",
    "attackers": "the challenger picks the Attackers of the Challenge",
    "defender": "pick the Defender of the Challenge",
    "defenders": "pick the Defenders of a Team Challenge, or done",
    "window": "during a Challenge: play an Event, or pass (two passes in a row resolve it)",
    "react": "React to the last Event played (a chain resolves last in, first out once a player passes)",
    "victory": "the Victory Phase: activate a fulfilled Victory Condition, or pass",
}


def decision(s: "Board") -> Decision | None:
    if s.end_reason or s.dec is None:
        return None
    return Decision(s.dec, (s.actor,), f"P{s.actor}: {KINDS[s.dec]}")
