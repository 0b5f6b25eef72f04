"""Figures a designer decides with: win rates with 95% Wilson intervals, first-player advantage,
draws and capped games, game length, per-card impact and matchup matrices. Pure functions of records.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from cardsmith.engine.runner import GameRecord
from cardsmith.sets.model import Deck

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (0..1); (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    # Exact ends: rounding must not put the interval just beside a rate of 0 or 1.
    return (0.0 if k == 0 else lo, 1.0 if k == n else hi)


@dataclass(frozen=True)
class Rate:
    """k of n, as a rate with its 95% Wilson interval."""

    k: int
    n: int

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"k": self.k, "n": self.n, "rate": None if not self.n else round(self.rate, 6), "low": round(lo, 6), "high": round(hi, 6)}

    def __str__(self) -> str:
        if not self.n:
            return "n/a (no games)"
        lo, hi = self.interval
        return f"{100 * self.rate:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] ({self.k}/{self.n})"


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher exact p-value of the 2x2 table [[a, b], [c, d]]."""
    row1, row2, col1, n = a + b, c + d, a + c, a + b + c + d
    if n == 0 or row1 == 0 or row2 == 0 or col1 == 0 or col1 == n:
        return 1.0

    def logp(x: int) -> float:
        return (_lcomb(row1, x) + _lcomb(row2, col1 - x)) - _lcomb(n, col1)

    observed = logp(a)
    lo, hi = max(0, col1 - row2), min(row1, col1)
    total = 0.0
    for x in range(lo, hi + 1):
        lp = logp(x)
        if lp <= observed + 1e-7:
            total += math.exp(lp)
    return min(1.0, total)


def _lcomb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def length_summary(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Game length in turns: mean, median, spread and a histogram (bins of whole turns)."""
    turns = sorted(r.turns for r in records)
    if not turns:
        return {"games": 0}
    q = statistics.quantiles(turns, n=10, method="inclusive") if len(turns) > 1 else [turns[0]] * 9
    return {
        "games": len(turns), "mean": round(statistics.fmean(turns), 3), "median": _tidy(statistics.median(turns)),
        "min": turns[0], "max": turns[-1], "p10": _tidy(q[0]), "p90": _tidy(q[-1]),
        "histogram": {str(t): c for t, c in sorted(Counter(turns).items())},
    }


def _tidy(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 2)


def _rate(k: int, n: int) -> dict[str, Any]:
    return Rate(k, n).to_dict()


def deck_rows(records: Sequence[GameRecord], deck_names: Sequence[str]) -> list[dict[str, Any]]:
    """Per deck: games, wins (first place), mean return (share of seats beaten), and its wins when
    it acted first and when it did not."""
    rows = []
    for i, name in enumerate(deck_names):
        games = wins = first_n = first_w = later_n = later_w = 0
        ret = 0.0
        for r in records:
            for seat, d in enumerate(r.deck_ids):
                if d != i:
                    continue
                games += 1
                won = r.won(seat)
                wins += won
                ret += r.returns()[seat]
                if seat == r.first_actor:
                    first_n, first_w = first_n + 1, first_w + won
                else:
                    later_n, later_w = later_n + 1, later_w + won
        rows.append({
            "deck": name, "games": games, "wins": _rate(wins, games),
            "mean_return": round(ret / games, 6) if games else None,
            "wins_going_first": _rate(first_w, first_n), "wins_going_second": _rate(later_w, later_n),
        })
    return rows


def seat_rows(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per seat number: how often that seat won, and how often it was the one to act first."""
    seats = max((r.seats for r in records), default=0)
    out = []
    for s in range(seats):
        games = [r for r in records if r.seats > s]
        out.append({"seat": s, "wins": _rate(sum(1 for r in games if r.won(s)), len(games)),
                    "acted_first": sum(1 for r in games if r.first_actor == s)})
    return out


def group_rows(records: Sequence[GameRecord], deck_groups: Sequence[str | None]) -> list[dict[str, Any]]:
    """Per faction (or race): wins of the seats whose deck belongs to it. `deck_groups[i]` names
    deck i's group (None: a deck of no single group, left out)."""
    counts: dict[str, list[int]] = {}
    for r in records:
        for seat, d in enumerate(r.deck_ids):
            g = deck_groups[d] if d < len(deck_groups) else None
            if g is None:
                continue
            c = counts.setdefault(g, [0, 0])
            c[0] += r.won(seat)
            c[1] += 1
    return [{"group": g, "wins": _rate(k, n)} for g, (k, n) in sorted(counts.items())]


def match_summary(records: Sequence[GameRecord], deck_names: Sequence[str]) -> dict[str, Any]:
    """Every figure of a run between decks: wins per deck and per seat, draws, capped games, the
    results of whoever acted first (not seat 0: the rules decide who goes first), game length and
    why games ended. A win is a first place; with N seats a deck's fair share of wins is 1/N, and
    its mean return (share of the other seats it finished ahead of, ties half) is 0.5."""
    n = len(records)
    draws = sum(1 for r in records if r.is_draw)
    decided = n - draws
    first_wins = sum(1 for r in records if r.won(r.first_actor) and not r.is_draw)
    seats = sorted({r.seats for r in records})
    return {
        "games": n,
        "seats": seats[0] if len(seats) == 1 else seats,
        "decks": deck_rows(records, deck_names),
        "seat_wins": seat_rows(records),
        "draws": _rate(draws, n),
        "capped": _rate(sum(1 for r in records if r.capped), n),
        "first_player_wins": _rate(first_wins, n),
        "first_player_wins_of_decided": _rate(first_wins, decided),
        "end_reasons": dict(sorted(Counter(r.end_reason for r in records).items())),
        "length": length_summary(records),
        "search_ceiling_hits": sum(sum(r.ceiling_hits) for r in records),
    }


@dataclass(frozen=True)
class CardImpact:
    """Win rate of a deck's games in which the card was played, against those in which it was not.

    `p_value` is Fisher's exact test on the raw counts; `adjusted_difference` and `adjusted_p` compare
    only games of similar length (Mantel-Haenszel over game-length strata), since a card that is
    played at all in short games, and missing from quick losses, looks decisive when it is not.
    `significant` uses the length-adjusted test.
    """

    card: str
    played: Rate
    not_played: Rate
    p_value: float
    adjusted_difference: float | None
    adjusted_p: float
    significant: bool

    @property
    def difference(self) -> float | None:
        if not self.played.n or not self.not_played.n:
            return None
        return self.played.rate - self.not_played.rate

    def to_dict(self) -> dict[str, Any]:
        d, ad = self.difference, self.adjusted_difference
        return {
            "card": self.card, "played": self.played.to_dict(), "not_played": self.not_played.to_dict(),
            "difference": None if d is None else round(d, 6), "p_value": round(self.p_value, 6),
            "length_adjusted_difference": None if ad is None else round(ad, 6),
            "length_adjusted_p_value": round(self.adjusted_p, 6), "significant": self.significant,
        }


def mantel_haenszel(tables: Sequence[tuple[int, int, int, int]]) -> tuple[float | None, float]:
    """Pooled risk difference and the Cochran-Mantel-Haenszel p-value (continuity corrected) of
    2x2 tables (a, b, c, d) = (played & won, played & lost, not played & won, not played & lost)."""
    num = den = dev = var = 0.0
    for a, b, c, d in tables:
        n1, n0, n = a + b, c + d, a + b + c + d
        if n1 == 0 or n0 == 0 or n < 2:
            continue  # a stratum where the card was always (or never) played says nothing
        num += (a * n0 - c * n1) / n
        den += n1 * n0 / n
        dev += a - n1 * (a + c) / n
        var += n1 * n0 * (a + c) * (b + d) / (n * n * (n - 1))
    if den == 0:
        return None, 1.0
    if var == 0:
        return num / den, 1.0
    stat = max(0.0, abs(dev) - 0.5) ** 2 / var
    return num / den, math.erfc(math.sqrt(stat / 2))


def _length_strata(records: Sequence[GameRecord], k: int = 4) -> list[int]:
    """Cut points splitting games into up to `k` groups of similar length (turns)."""
    turns = sorted(r.turns for r in records)
    if len(turns) < 2 * k:
        return []
    cuts = sorted({turns[len(turns) * i // k] for i in range(1, k)})
    return [c for c in cuts if c > turns[0]]


def card_impact(records: Sequence[GameRecord], decks: Sequence[Deck], alpha: float = 0.05) -> list[CardImpact]:
    """Per card, over every (game, seat) whose deck holds the card: wins when played vs not played.

    This is a correlation, not a cause (a card played only when already ahead shows up too); read
    it as "look here". Significance: the length-adjusted Mantel-Haenszel test at `alpha`.
    """
    import bisect

    cuts = _length_strata(records)
    strata = len(cuts) + 1
    # card -> per stratum [played & won, played & lost, not played & won, not played & lost]
    counts: dict[str, list[list[int]]] = {}
    contents = [set(d.cards()) for d in decks]
    for r in records:
        stratum = bisect.bisect_right(cuts, r.turns)
        for seat in range(r.seats):
            played = set(r.cards_played[seat])
            lost = int(not r.won(seat))
            for card in contents[r.deck_ids[seat]]:
                cell = counts.setdefault(card, [[0, 0, 0, 0] for _ in range(strata)])[stratum]
                cell[(0 if card in played else 2) + lost] += 1
    rows = []
    for card, tables in counts.items():
        a, b, c, d = (sum(t[i] for t in tables) for i in range(4))
        p = fisher_exact(a, b, c, d)
        adjusted, adjusted_p = mantel_haenszel([(t[0], t[1], t[2], t[3]) for t in tables])
        rows.append(CardImpact(card, Rate(a, a + b), Rate(c, c + d), p, adjusted, adjusted_p,
                               bool(a + b and c + d and adjusted is not None and adjusted_p < alpha)))
    rows.sort(key=lambda x: (-(x.adjusted_difference if x.adjusted_difference is not None else -2.0), x.card))
    return rows


def matchup_matrix(records: Sequence[GameRecord], deck_names: Sequence[str]) -> list[list[dict[str, Any] | None]]:
    """cell[i][j]: how often deck i finished ahead of deck j in games where both played (a Rate as a
    dict; with two seats that is i's wins against j, draws counting as not won); None on the
    diagonal or where the two never met."""
    k = len(deck_names)
    games = [[0] * k for _ in range(k)]
    ahead = [[0] * k for _ in range(k)]
    for r in records:
        for s, a in enumerate(r.deck_ids):
            for t, b in enumerate(r.deck_ids):
                if s == t or a == b:
                    continue
                games[a][b] += 1
                if r.ranks[s] < r.ranks[t]:
                    ahead[a][b] += 1
    return [[Rate(ahead[i][j], games[i][j]).to_dict() if i != j and games[i][j] else None for j in range(k)] for i in range(k)]


def deck_overall(records: Sequence[GameRecord], deck_names: Sequence[str]) -> list[dict[str, Any]]:
    """Each deck's win rate over all its games against other decks (for the balance overview)."""
    out = []
    for i, name in enumerate(deck_names):
        wins = games = 0
        for r in records:
            if len(set(r.deck_ids)) < 2:
                continue  # a mirror (or a common deck) says nothing about the deck
            for seat, d in enumerate(r.deck_ids):
                if d == i:
                    games += 1
                    wins += r.won(seat)
        out.append({"deck": name, "wins": Rate(wins, games).to_dict()})
    return out
