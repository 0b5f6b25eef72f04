"""How good a position looks for a seat (greedy choices and search rollouts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardsmith.games.rm2k_anime.state import RmState


def _worth(s: "RmState", seat: int) -> float:
    me = s.p[seat]
    v = 3.0 * me.vp + 0.5 * len(me.hand)
    for u in me.users:
        ci = s.info(u.card)
        v += 4 + sum(s.skill(u, k) for k in range(5)) / 4 + 1.5 * s.bandwidth(u) - 0.6 * u.lag + 0.5 * u.tokens
        v += 1.5 * len(u.attached)
        if ci.bandwidth - u.ping <= 0:
            v -= 6
    return v


def heuristic(s: "RmState", seat: int) -> float:
    if s.end_reason:
        return 1000.0 if s.winner == seat else (-1000.0 if s.winner == 1 - seat else 0.0)
    return _worth(s, seat) - _worth(s, 1 - seat)
