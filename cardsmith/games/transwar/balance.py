"""TransWar's own balance figures, from finished games: win rate per seat and per starting Form
(95% Wilson intervals), how often help is asked for and given and what helping earns, game length
and the share of games that end before the turn cap.

Pure functions of (tally, outcome, turns) per game: the tally is the state's `tally` field (public
facts), so a caller may pass final states or positions read back from a run.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from cardsmith.engine.contract import Outcome
from cardsmith.engine.stats import Rate


@dataclass(frozen=True)
class Finished:
    """One finished game as the figures need it."""

    tally: Mapping[str, Sequence[Any]]
    outcome: Outcome
    turns: int


def finished(state: Any) -> Finished:
    """The figures' view of a finished TransWarState."""
    return Finished(state.tally, state.outcome(), state.turn)


def figures(games: Iterable[Finished]) -> dict[str, Any]:
    """Every figure as plain data (rates as {k, n, rate, low, high})."""
    games = list(games)
    seats = max((g.outcome.seats for g in games), default=0)
    seat_wins = [Rate(sum(1 for g in games if g.outcome.winner == s), len(games)) for s in range(seats)]
    form_k: dict[str, int] = defaultdict(int)
    form_n: dict[str, int] = defaultdict(int)
    asks = asked = joined = won = lost = reward = 0
    helpers_won = helpers_n = others_won = others_n = 0
    for g in games:
        t = g.tally
        for s, form in enumerate(t["first_form"]):
            if form:
                form_n[form] += 1
                form_k[form] += g.outcome.winner == s
        asks += sum(t["asks"])
        asked += sum(t["asked"])
        joined += sum(t["joined"])
        won += sum(t["ally_won"])
        lost += sum(t["ally_lost"])
        reward += sum(t["reward_cards"])
        for s in range(g.outcome.seats):
            if t["joined"][s]:
                helpers_n += 1
                helpers_won += g.outcome.winner == s
            else:
                others_n += 1
                others_won += g.outcome.winner == s
    decided = [g for g in games if not g.outcome.capped]
    return {
        "games": len(games),
        "seat_wins": [{"seat": s, **r.to_dict()} for s, r in enumerate(seat_wins)],
        "form_wins": sorted(({"form": f, **Rate(form_k[f], form_n[f]).to_dict()} for f in form_n),
                            key=lambda row: -(row["rate"] or 0)),
        "allies": {
            "asked_per_game": asks / len(games) if games else 0.0,
            "accepted": Rate(joined, asked).to_dict(),
            "helper_side_won": Rate(won, won + lost).to_dict(),
            "reward_cards_per_help": reward / joined if joined else 0.0,
            "helpers_win": Rate(helpers_won, helpers_n).to_dict(),
            "non_helpers_win": Rate(others_won, others_n).to_dict(),
        },
        "length": {"mean_turns": sum(g.turns for g in games) / len(games) if games else 0.0,
                   "max_turns": max((g.turns for g in games), default=0)},
        "ended_before_cap": Rate(len(decided), len(games)).to_dict(),
    }


def _rate(r: Mapping[str, Any]) -> str:
    return str(Rate(r["k"], r["n"]))


def text(figs: Mapping[str, Any]) -> str:
    """The figures as a short plain-text report."""
    lines = [f"{figs['games']} games; mean length {figs['length']['mean_turns']:.1f} turns "
             f"(longest {figs['length']['max_turns']}); ended before the turn cap: {_rate(figs['ended_before_cap'])}",
             "win rate per seat:"]
    lines += [f"  P{row['seat']}: {_rate(row)}" for row in figs["seat_wins"]]
    lines.append("win rate per starting Form:")
    lines += [f"  {row['form']:<9} {_rate(row)}" for row in figs["form_wins"]]
    a = figs["allies"]
    lines += [
        f"allies: {a['asked_per_game']:.2f} requests per game; accepted {_rate(a['accepted'])}",
        f"  a helper's side won {_rate(a['helper_side_won'])}; {a['reward_cards_per_help']:.2f} cards drawn per help",
        f"  players who ever helped won {_rate(a['helpers_win'])}; players who never did {_rate(a['non_helpers_win'])}",
    ]
    return "\n".join(lines)


def sentences(figs: Mapping[str, Any]) -> list[str]:
    """The conclusions a common-deck verdict leads with: starting Forms and allies (both chosen by
    the players, so observational: the card tests are the causal measure)."""
    out = []
    forms = [r for r in figs["form_wins"] if r["n"] >= 10]
    if len(forms) >= 2:
        best, worst = forms[0], forms[-1]
        out.append(f"starting Forms (chosen, so observational): {best['form']} wins {_rate(best)} when it is a player's "
                   f"first Form, {worst['form']} {_rate(worst)}.")
    a = figs["allies"]
    if a["accepted"]["n"]:
        out.append(f"allies: {a['asked_per_game']:.2f} requests per game, {_rate(a['accepted'])} accepted; a helper's "
                   f"side won {_rate(a['helper_side_won'])}; players who ever helped won {_rate(a['helpers_win'])}, "
                   f"those who never did {_rate(a['non_helpers_win'])}.")
    return out
