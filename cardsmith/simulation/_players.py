"""Who plays a balance run, how strong it measured, and how many games the run can afford.

Before a balance run the chosen player plays a short calibration match against random (mirror
matches on the set's decks, as `cardsmith agents` plays them). Its verdict is trusted only when that
player is competent: it beats random at least 85% of the time (point estimate; with N seats the
same margin over a fair share, scaled: 1/N + 0.7/N) and at most 2% of its games (calibration or
round robin) end by a cap.

A default run is sized to finish within TARGET_SECONDS of wall time on the workers it has: each
stage is given a share of the CPU seconds that affords, and sizes its games from the cost per game
measured by the games before it (the calibration's, then the round robin's). Nothing measured is
cached: every run measures again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from cardsmith.engine.chance import derive_seed
from cardsmith.engine.runner import GameRecord, GameTask
from cardsmith.simulation.ladder import CAP_LIMIT, COMPETENT, RANDOM, Pairing, pairing_tasks

CALIBRATION_GAMES = 200
TARGET_SECONDS = 600.0  # a default `balance` run finishes within ten minutes
PLAN = 0.6  # of them, what the sizing plans to spend (estimates are rough; the report's own work costs too)
# Each stage's share of the planned CPU seconds.
SHARES = {"calibration": 0.10, "round_robin": 0.25, "card_tests": 0.40, "second": 0.25}
MIN_GAMES = 10  # games per pairing below which a round robin says too little
MAX_GAMES = 100  # games per pairing a default run never goes beyond (the old default)
MIN_BUDGET = 400  # card-test games below which the tests are skipped as pointless


@dataclass
class Clock:
    """The CPU seconds a default run plans to spend, and what its games have spent so far."""

    workers: int
    target: float = TARGET_SECONDS
    spent: float = 0.0

    @property
    def capacity(self) -> float:
        return self.target * PLAN * self.workers

    def share(self, stage: str) -> float:
        return self.capacity * SHARES[stage]

    def charge(self, records: Sequence[GameRecord]) -> float:
        """Add the records' CPU seconds; their mean per game."""
        cpu = sum(r.cpu_seconds for r in records)
        self.spent += cpu
        return cpu / len(records) if records else 0.0


def competent_bar(seats: int) -> float:
    """The share against random a competent player reaches: 85% with two seats."""
    return 1 / seats + 2 * (COMPETENT - 0.5) / seats


def calibrate(play: Callable[[list[GameTask], str], list[GameRecord]], player: str, n_decks: int, seats: int,
              seed: int, clock: Clock | None, games: int = CALIBRATION_GAMES) -> dict[str, Any]:
    """`player` against random: a first batch, then up to `games` within the clock's calibration share."""
    if player == RANDOM:
        return {"player": player, "games": 0, "share": 0.5, "low": None, "high": None, "capped_share": None,
                "cpu_per_game": None, "seats": seats, "note": "random play is the ladder's floor: not measured"}
    cal_seed = derive_seed("calibration", seed)
    first = pairing_tasks(player, RANDOM, n_decks, 2 * seats * n_decks, cal_seed, seats)
    records = play(first, f"calibration: {player} vs random")
    if clock is not None:
        per_game = clock.charge(records)
        affordable = int(clock.share("calibration") / per_game) if per_game > 0 else games
        more = min(games, affordable) - len(records)
    else:
        more = games - len(records)
    if more >= seats * n_decks:
        rest = pairing_tasks(player, RANDOM, n_decks, more, cal_seed, seats, start=len(first))
        played = play(rest, f"calibration: {player} vs random")
        if clock is not None:
            clock.charge(played)
        records += played
    out = Pairing(player, RANDOM, seats, records).figures()
    if len(records) < games:
        out["note"] = (f"{len(records)} calibration games, not {games}: a game of {player} costs "
                       f"{out['cpu_per_game']:.3g} CPU s, and calibration may take {100 * SHARES['calibration']:.0f}% "
                       f"of the run's time")
    return out


def trust(calibration: dict[str, Any], capped_rate: float | None) -> tuple[bool, str]:
    """Is the player competent enough to trust its verdict? (trusted, why not / why)."""
    failed, reason = _trust_rule(calibration, capped_rate)
    return failed is None, reason


def _trust_rule(calibration: dict[str, Any], capped_rate: float | None) -> tuple[str | None, str]:
    """(the rule the player fails: "random", "weak", "caps", or None; the sentence saying so)."""
    player, seats = calibration["player"], calibration["seats"]
    bar = competent_bar(seats)
    if player == RANDOM:
        return "random", "the games were played by random play, which measures chance, not the game"
    share = calibration["share"]
    if share < bar:
        return "weak", (f"{player} beats random only {100 * share:.1f}% of the time "
                        f"[{100 * calibration['low']:.1f}-{100 * calibration['high']:.1f}], below the "
                        f"{100 * bar:.0f}% a competent player reaches")
    capped = max(calibration["capped_share"] or 0.0, capped_rate or 0.0)
    if capped > CAP_LIMIT:
        return "caps", f"{100 * capped:.1f}% of {player}'s games were stopped by a cap (at most {100 * CAP_LIMIT:.0f}%)"
    return None, f"{player} beats random {100 * share:.1f}% of the time and caps {100 * capped:.1f}% of games"


def player_figures(player: str, ladder: Sequence[str], calibration: dict[str, Any], capped_rate: float | None) -> dict[str, Any]:
    """What balance.json and the report say about the player: its rung, strength against random, trust."""
    failed, reason = _trust_rule(calibration, capped_rate)
    rung = ladder.index(player) if player in ladder else None
    # balance.json holds figures of the games only, the same on every machine: no CPU seconds.
    games_only = {k: v for k, v in calibration.items() if not k.startswith("cpu_")}
    return {"spec": player, "rung": rung, "ladder": list(ladder), "vs_random": games_only, "trusted": failed is None,
            "reason": reason, "failed_rule": failed, "competent_bar": round(competent_bar(calibration["seats"]), 6)}


def player_line(p: dict[str, Any]) -> str:
    """`Player: greedy (rung 1 of random < greedy), beats random 71.0% [...] over 200 games, capped 0.0%.`"""
    c = p["vs_random"]
    rung = f"rung {p['rung']} of {' < '.join(p['ladder'])}" if p["rung"] is not None else "not on the game's ladder"
    if c["games"]:
        strength = (f"beats random {100 * c['share']:.1f}% [{100 * c['low']:.1f}-{100 * c['high']:.1f}] over "
                    f"{c['games']} games, capped {100 * c['capped_share']:.1f}%")
    else:
        strength = c.get("note", "not measured")
    return f"{p['spec']} ({rung}): {strength}"


def games_for(clock: Clock, stage: str, per_game: float, tables: int, seats: int, given: int | None) -> tuple[int, str]:
    """Games per pairing for a round robin: as given, or what the stage's share affords (MIN..MAX)."""
    if given is not None:
        return given, f"{given} games per table, as given by --games"
    if per_game <= 0:
        return MAX_GAMES, "the default"
    afford = int(clock.share(stage) / per_game / max(1, tables))
    games = max(MIN_GAMES, min(MAX_GAMES, afford)) // seats * seats or seats
    bound = f" (at most {MAX_GAMES})" if games == MAX_GAMES else f" (at least {MIN_GAMES})" if afford < MIN_GAMES else ""
    why = (f"{games} games per table{bound}: a game costs about {per_game:.3g} CPU s, and the round robin may take "
           f"{100 * SHARES[stage]:.0f}% of {clock.target / 60:.0f} minutes on {clock.workers} worker(s)")
    return games, why


def budget_for(clock: Clock, share: float, per_game: float, given: int | None, default: int,
               given_text: str = "as given by --budget") -> tuple[int, str]:
    """Card-test games: as given, or what `share` CPU seconds afford at `per_game` (at most `default`)."""
    if given is not None:
        return given, f"{given:,} card-test games, {given_text}"
    left = min(share, clock.capacity - clock.spent)
    afford = int(left / per_game) if per_game > 0 else default
    budget = min(default, afford)
    if budget < MIN_BUDGET:
        return 0, (f"card tests skipped: {max(0, afford)} games fit in the time left, fewer than the {MIN_BUDGET} "
                   f"they need (give --budget to run them anyway)")
    return budget, (f"{budget:,} card-test games: what {left:.0f} CPU s afford at {per_game:.3g} s a game"
                    + (f" (at most {default:,})" if budget == default else ""))


def mirror_cost(calibration: dict[str, Any]) -> float:
    """A game with the player in every seat, from its game against random: add its thinking per extra seat."""
    per_game = calibration.get("cpu_per_game") or 0.0
    think = (calibration.get("cpu_per_decision") or 0.0) * (calibration.get("decisions_per_game") or 0.0)
    return per_game + (calibration["seats"] - 1) * think if math.isfinite(per_game) else 0.0
