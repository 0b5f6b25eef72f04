"""How good a position looks to a seat (greedy choices and search rollouts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.games.solar_empires.names import DEPLOY

if TYPE_CHECKING:
    from cardsmith.games.solar_empires.state import SolarState


def heuristic(state: "SolarState", player: int) -> float:
    """Material in play, planets held, support points and cards left, mine minus the opponent's;
    +1000 for a won game, -1000 for a lost one."""
    if state.end_reason:
        return 0.0 if state.winner is None else (1000.0 if state.winner == player else -1000.0)
    # Written out (no generators): greedy and search agents call it for every action they weigh.
    value = state.t.value
    dmg = state.dmg
    score = 0.0
    for p, sign in ((player, 1.0), (1 - player, -1.0)):
        material = 0
        for i in state.ships[p]:
            material += value[i] - dmg[i]
        # support and the planets held, as cached for construction (`SolarState.holding`)
        e, m, o, held, _ = state.holding(p)
        cards = len(state.hand[p]) + 0.2 * len(state.deck[p])
        score += sign * (material + 8.0 * len(held) + 2.0 * (e + m + o) + cards)
    return score


def scores_as_now(state: "SolarState", seat: int, action: tuple) -> bool:
    """True when `action` leaves a position the heuristic scores exactly as this one, so a greedy
    agent need not apply it to see: deploying a ship while another stays in reinforcements only
    moves it (the heuristic reads no positions) and the same seat decides again. Anything else
    (the last ship, "done", other decisions) is False: apply it and look."""
    if state.dec != DEPLOY or action[0] != "deploy" or state.current_player != seat \
            or action not in state.legal_actions(seat):
        return False
    at = state.at
    reserve = 0
    for i in state.ships[seat]:
        if at[i] < 0:
            reserve += 1
            if reserve == 2:
                return True
    return False
