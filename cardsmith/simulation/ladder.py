"""A game's ladder of players, measured: each rung against the rung below it and against random.

Every pairing is played on the set's own decks as mirror matches (the same deck in every seat, each
deck of the set in turn), so what is measured is the players, not the decks. With two seats the
seats alternate; with N seats the player sits in one seat and the rung below in all the others,
the seats rotating. A rung's result is its *share*: 1 for a win, 1/k for first place shared by k
seats (a draw between two counts half), 0 otherwise. A fair share is 1/N. Its 95% interval is
Wilson's, with the fractional shares counted as they are (an approximation the draws make).

Costs are machine figures, apart from the games: CPU seconds per game (the whole game, as the
process that played it measured), and the player's own CPU seconds per decision (a decision is a
choice among more than one legal action; its wall-clock thinking time, scaled by the game's CPU
share of its wall time so that a loaded machine does not inflate it). Random's choices are not
timed (one costs less than reading the clock: `engine.agents.RandomAgent.timed`), so its time
per decision is None, shown "-".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from cardsmith.base.errors import CardsmithError
from cardsmith.engine.runner import GameRecord, GameTask, normalise_agents, table_tasks
from cardsmith.engine.stats import wilson

DEFAULT_GAMES = 200  # games per pairing, at least
RANDOM = "random"
# The rules a ladder is held to (issue 27, item 2); `balance` trusts a player by COMPETENT.
ABOVE_BELOW = 0.55  # a rung beats the rung below: the interval's lower end above this
BEST_VS_RANDOM = 0.90  # the top rung's share against random (point estimate), two seats
CAP_LIMIT = 0.02  # share of capped games any rung above random may have
COMPETENT = 0.85  # balance trusts its player when it beats random this often (point estimate)


def share(record: GameRecord, seat: int) -> float:
    """The seat's share of the win: 1 alone first, 1/k sharing first with k seats, 1/N a draw for all."""
    winners = record.winners
    if not winners:
        return 1 / record.seats
    return 1 / len(winners) if seat in winners else 0.0


def pairing_tasks(player: str, opponent: str, n_decks: int, games: int, seed: int, seats: int = 2,
                  start: int = 0) -> list[GameTask]:
    """At least `games` games of `player` in one seat against `opponent` in the others, split evenly
    over mirror tables of each deck (a whole number of seat rotations per deck)."""
    per_deck = max(seats, math.ceil(games / max(1, n_decks) / seats) * seats)
    tasks: list[GameTask] = []
    for d in range(n_decks):
        tasks += table_tasks([player] + [opponent] * (seats - 1), per_deck, seed, deck_ids=(d,) * seats,
                             start=start + len(tasks))
    return tasks


@dataclass
class Pairing:
    """The games of one player against another (the opponent in every other seat)."""

    player: str
    opponent: str
    seats: int
    records: list[GameRecord]

    def seat(self, r: GameRecord) -> int:
        """The player's seat (seat 0's in a mirror of one player against itself)."""
        return r.agents.index(self.player)

    def figures(self) -> dict[str, Any]:
        n = len(self.records)
        shares = [share(r, self.seat(r)) for r in self.records]
        score = sum(shares)
        low, high = wilson(score, n)
        capped = sum(r.capped for r in self.records)
        decisions = sum(r.decisions[self.seat(r)] for r in self.records if r.decisions)
        think = sum(_cpu_think(r, self.seat(r)) for r in self.records)
        return {
            "player": self.player, "opponent": self.opponent, "seats": self.seats, "games": n,
            "share": round(score / n, 6) if n else None, "low": round(low, 6), "high": round(high, 6),
            "fair": round(1 / self.seats, 6),
            "draws": sum(r.is_draw for r in self.records), "capped": capped,
            "capped_share": round(capped / n, 6) if n else None,
            "cpu_per_game": round(sum(r.cpu_seconds for r in self.records) / n, 6) if n else None,
            "decisions_per_game": round(decisions / n, 3) if n else None,
            # (no time at all: a player the runner does not time, random)
            "cpu_per_decision": round(think / decisions, 9) if decisions and think > 0 else None,
        }


def _cpu_think(r: GameRecord, seat: int) -> float:
    """The seat's thinking time in CPU seconds: its wall-clock time scaled by the game's CPU share."""
    if not r.think_seconds:
        return 0.0
    ratio = r.cpu_seconds / r.wall_seconds if r.wall_seconds > 0 else 1.0
    return r.think_seconds[seat] * min(1.0, ratio)


Play = Callable[[list[GameTask], str], list[GameRecord]]


def play_pairing(play: Play, player: str, opponent: str, n_decks: int, games: int, seed: int,
                 seats: int = 2) -> Pairing:
    """Play one pairing through `play(tasks, description)` (a runs.run_games over the set's decks)."""
    tasks = pairing_tasks(player, opponent, n_decks, games, seed, seats)
    return Pairing(player, opponent, seats, play(tasks, f"{player} vs {opponent}"))


def check_ladder(ladder: Sequence[str], rules: Any) -> tuple[str, ...]:
    """The ladder's specs written canonically; an error for one that is not a ladder."""
    specs = tuple(normalise_agents([s], 1, rules)[0] for s in ladder)
    if not specs or specs[0] != RANDOM:
        raise CardsmithError(f"{getattr(rules, 'name', 'the game')}'s ladder must start with random, not {list(ladder)}",
                             hint="RulesModule.ladder lists player specs weakest first, starting with \"random\"")
    if len(set(specs)) != len(specs):
        raise CardsmithError(f"the ladder names a player twice: {list(specs)}")
    return specs


def measure_ladder(play: Play, ladder: Sequence[str], n_decks: int, *, games: int = DEFAULT_GAMES, seed: int = 1,
                   seats: int = 2) -> dict[str, Any]:
    """Every rung against the rung below and against random; random against itself for its cost."""
    rungs = []
    for k, spec in enumerate(ladder):
        if k == 0:
            # Random against itself: its cost and how often its games stall (its share is fair by symmetry).
            own = play_pairing(play, spec, spec, n_decks, games, seed, seats).figures()
            rungs.append({"rung": 0, "player": spec, "below": None, "vs_random": None, "own": own})
            continue
        below = play_pairing(play, spec, ladder[k - 1], n_decks, games, seed, seats).figures()
        vs_random = below if k == 1 else play_pairing(play, spec, RANDOM, n_decks, games, seed, seats).figures()
        rungs.append({"rung": k, "player": spec, "below": below, "vs_random": vs_random, "own": None})
    figures: dict[str, Any] = {"ladder": list(ladder), "seats": seats, "games_per_pair": games, "seed": seed,
                               "decks": n_decks, "rungs": rungs,
                               "share_note": "a win counts 1, a draw between two seats half, first place shared "
                                             "by k seats 1/k; 95% Wilson intervals over these fractional shares"}
    figures["rules"] = ladder_rules(figures)
    return figures


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(p: dict[str, Any] | None) -> str:
    if p is None:
        return "-"
    return f"{_pct(p['share'])} [{100 * p['low']:.1f}-{100 * p['high']:.1f}]"


def _capped(rung: dict[str, Any]) -> float:
    """The rung's worst capped share over its pairings."""
    return max(p["capped_share"] for p in (rung["below"], rung["vs_random"], rung["own"]) if p is not None)


def ladder_rules(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """Each rule of a good ladder (issue 27, item 2) with pass/fail and the figure it rests on."""
    seats, rungs = figures["seats"], figures["rungs"]
    fair = 1 / seats
    above = rungs[1:]
    bar = ABOVE_BELOW if seats == 2 else fair
    none = "the ladder has no player above random"
    out = []

    def rule(text: str, passed: bool | None, detail: str) -> None:
        out.append({"rule": text, "passed": passed, "detail": detail})

    low = min(above, key=lambda r: r["below"]["low"]) if above else None
    rule(f"every player beats the one below it (interval's lower end above {_pct(bar)})",
         low is not None and low["below"]["low"] > bar,
         none if low is None else f"weakest step: {low['player']} vs {low['below']['opponent']}, lower end "
                                  f"{_pct(low['below']['low'])}")
    if seats == 2:
        top = above[-1] if above else None
        rule(f"the best player beats random at least {_pct(BEST_VS_RANDOM)} of the time (point estimate)",
             top is not None and top["vs_random"]["share"] >= BEST_VS_RANDOM,
             none if top is None else f"{top['player']} {_rate(top['vs_random'])}")
    else:
        top = max(above, key=lambda r: r["vs_random"]["low"]) if above else None
        rule(f"the best player's share against random is clearly above a fair {_pct(fair)} (lower end)",
             top is not None and top["vs_random"]["low"] > fair,
             none if top is None else f"{top['player']} {_rate(top['vs_random'])}")
    worst = max(above, key=_capped) if above else None
    rule(f"no player above random has more than {_pct(CAP_LIMIT)} capped games",
         worst is not None and _capped(worst) <= CAP_LIMIT,
         none if worst is None else f"most: {worst['player']} {_pct(_capped(worst))}")
    behind = min(above, key=lambda r: r["vs_random"]["high"]) if above else None
    rule(f"no player is worse than random (interval's upper end at least {_pct(fair)})",
         behind is not None and behind["vs_random"]["high"] >= fair,
         none if behind is None else f"lowest: {behind['player']} upper end {_pct(behind['vs_random']['high'])}")
    return out


def _cost(p: dict[str, Any] | None) -> str:
    if p is None:
        return f"{'-':>10} {'-':>12} {'-':>10}"
    per_decision = "-" if p["cpu_per_decision"] is None else f"{1000 * p['cpu_per_decision']:.3g}"
    return f"{p['cpu_per_game']:>10.3g} {per_decision:>12} {p['decisions_per_game']:>10.1f}"


def format_ladder(figures: dict[str, Any], title: str) -> str:
    """The ladder as a table, then a PASS/FAIL line per rule."""
    seats = figures["seats"]
    who = "against the rung below it in every other seat" if seats > 2 else "against the rung below it"
    lines = [f"{title}: ladder {' < '.join(figures['ladder'])}, {seats} seats, each player {who}, "
             f"mirror matches on {figures['decks']} deck{'s' if figures['decks'] != 1 else ''}, "
             f"at least {figures['games_per_pair']} games per pair, seed {figures['seed']}", ""]
    width = max(6, max(len(r["player"]) for r in figures["rungs"]))
    lines.append(f"  {'rung':<4} {'player':<{width}} {'games':>6} {'vs below':<22} {'vs random':<22} {'capped':>7} "
                 f"{'CPU s/game':>10} {'CPU ms/dec.':>12} {'dec./game':>10}")
    for r in figures["rungs"]:
        cost = r["own"] if r["own"] is not None else (r["vs_random"] if r["rung"] > 1 else r["below"])
        played = (r["below"] or r["own"])["games"]
        lines.append(f"  {r['rung']:<4} {r['player']:<{width}} {played:>6} {_rate(r['below']):<22} {_rate(r['vs_random']):<22} "
                     f"{_pct(_capped(r)):>7} {_cost(cost)}")
    fair = f"fair {_pct(1 / seats)}"
    lines += ["", f"  vs below / vs random: the player's share of the win ({fair}): {figures['share_note']}.",
              "  CPU s/game: a whole game (random: random in every seat; others: against random). "
              "CPU ms/dec.: the player's own time per decision (a choice among more than one legal action; "
              "-: random's, not timed, as it costs less than reading the clock).",
              "", "Rules:"]
    for rule in figures["rules"]:
        lines.append(f"  {'PASS' if rule['passed'] else 'FAIL'}  {rule['rule']}: {rule['detail']}")
    return "\n".join(lines)
