"""Effects with intervals and a false-discovery-rate control over many of them.

An effect is a difference in the holder's result (a share: 1 a win, 0 a loss, 0.5 a draw), so
+0.12 reads "+12 points of win rate, draws counting half". Intervals are Student-t intervals from
the observed spread (paired differences with n - 1 degrees of freedom, or Welch's unpaired form
with Welch-Satterthwaite's); p-values are two-sided from the same t distribution. With hundreds of
games that is the normal interval; with the 40 of a first look at a 99% level it is noticeably
wider, and the normal one would be too narrow.

An estimate that was looked at up to `looks` times while games were added (the adaptive budget,
`intervention.run_interventions`) is corrected for optional stopping by a Bonferroni split of the
error rate over those looks: its interval is the 1 - 0.05/looks interval and its p-value is
`looks` times the fixed-sample one. Whatever the stopping rule, the chance that any of the looks'
intervals misses the true effect is then at most 5%, so the interval reported at the last look
holds at 95% (and a null card's p-value stays uniform or larger, as Benjamini-Hochberg needs).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Any, Sequence

from cardsmith.engine.stats import Z95

FDR = 0.05  # the Benjamini-Hochberg false discovery rate over all cards tested
# The smallest effect that matters: a card is flagged only when its effect is shown to lie beyond
# +-MARGIN (5 points of win rate), not merely away from zero. With the thousands of games a sized
# run plays, "not zero" is true of nearly every card, and a card 2 points above average is one no
# designer would change.
MARGIN = 0.05
LEVEL = 0.95  # coverage of every interval, after the correction for sequential looks


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def two_sided(t: float, dof: float) -> float:
    """P(|T| >= t) for Student's t with `dof` degrees of freedom (the normal when dof is infinite)."""
    t = abs(t)
    if t == 0:
        return 1.0
    if math.isinf(dof):
        return math.erfc(t / math.sqrt(2))
    x = dof / (dof + t * t)
    a, b = dof / 2, 0.5
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1 - x) / b


@lru_cache(maxsize=4096)
def critical(looks: int = 1, dof: float = math.inf) -> float:
    """The quantile of a two-sided interval at 1 - (1 - LEVEL)/looks (1.96 for one look with many games)."""
    alpha = (1 - LEVEL) / looks
    z = NormalDist().inv_cdf(1 - alpha / 2)
    if math.isinf(dof):
        return z
    lo, hi = z, z * 4 + 40
    for _ in range(100):  # bisection: two_sided falls as t grows
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if two_sided(mid, dof) > alpha else (lo, mid)
    return hi


@dataclass(frozen=True)
class Effect:
    """A mean difference with its 95% interval, p-value and the games it rests on; `looks` is how
    many times the design allowed it to be looked at while games were added (see the module notes)."""

    mean: float
    se: float
    games: int
    draws_with: int = 0  # draws among the games with the card (or dealt)
    draws_without: int = 0
    looks: int = 1
    dof: float = math.inf  # degrees of freedom of the t interval (infinite: normal)

    @property
    def crit(self) -> float:
        return Z95 if self.looks == 1 and math.isinf(self.dof) else critical(self.looks, max(1.0, self.dof))

    @property
    def low(self) -> float:
        return self.mean - self.crit * self.se

    @property
    def high(self) -> float:
        return self.mean + self.crit * self.se

    @property
    def z(self) -> float:
        if self.se > 0:
            return self.mean / self.se
        return 0.0 if self.mean == 0 else math.copysign(1e9, self.mean)

    @property
    def p(self) -> float:
        if self.se == 0 or math.isinf(self.se):
            return 0.0 if self.se == 0 and self.mean != 0 else 1.0
        return min(1.0, self.looks * two_sided(self.z, max(1.0, self.dof)))

    def to_dict(self) -> dict[str, Any]:
        return {"effect": round(self.mean, 6), "low": round(self.low, 6), "high": round(self.high, 6),
                "se": round(self.se, 6) if math.isfinite(self.se) else None, "looks": self.looks,
                "p_value": round(self.p, 8), "dof": None if math.isinf(self.dof) else round(self.dof, 3),
                "games": self.games,
                "draws_with": self.draws_with, "draws_without": self.draws_without}

    def text(self) -> str:
        """`+21.0 points [14.2, 27.8]`."""
        return f"{100 * self.mean:+.1f} points [{100 * self.low:+.1f}, {100 * self.high:+.1f}]"


def paired_effect(diffs: Sequence[float], draws_with: int = 0, draws_without: int = 0, looks: int = 1) -> Effect:
    """The mean of paired differences with its standard error (0 games: no information)."""
    n = len(diffs)
    if n == 0:
        return Effect(0.0, math.inf, 0, looks=looks)
    mean = statistics.fmean(diffs)
    sd = statistics.stdev(diffs) if n > 1 else math.inf
    # A run of identical differences (all 0) has no spread to speak of; a floor keeps it from
    # counting as infinitely certain: one game's worth of a win-loss swing.
    se = max(sd / math.sqrt(n), 0.5 / n) if n > 1 else math.inf
    return Effect(mean, se, n, draws_with, draws_without, looks, dof=n - 1)


def unpaired_effect(yes: Sequence[float], no: Sequence[float]) -> Effect:
    """Mean of `yes` minus mean of `no`, with Welch's standard error."""
    n1, n0 = len(yes), len(no)
    m1, m0 = statistics.fmean(yes), statistics.fmean(no)
    v1 = statistics.variance(yes) if n1 > 1 else 0.25
    v0 = statistics.variance(no) if n0 > 1 else 0.25
    se = max(math.sqrt(v1 / n1 + v0 / n0), 0.5 / (n1 + n0))
    # Welch-Satterthwaite degrees of freedom (the smaller group's, when a side has no spread).
    parts = (v1 / n1, v0 / n0)
    den = sum(p * p / (n - 1) for p, n in zip(parts, (n1, n0)) if n > 1)
    dof = sum(parts) ** 2 / den if den > 0 else max(1, min(n1, n0) - 1)
    return Effect(m1 - m0, se, n1 + n0, sum(1 for x in yes if x == 0.5), sum(1 for x in no if x == 0.5), dof=dof)


def benjamini_hochberg(p_values: Sequence[float], q: float = FDR) -> list[bool]:
    """Which hypotheses are rejected at false discovery rate `q` (step-up procedure)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    cut = 0
    for rank, i in enumerate(order, 1):
        if p_values[i] <= q * rank / m:
            cut = rank
    rejected = [False] * m
    for i in order[:cut]:
        rejected[i] = True
    return rejected


def beyond_margin(effect: float, se: float | None, margin: float = MARGIN, looks: int = 1,
                  dof: float | None = None) -> float:
    """The p-value of "|effect| <= margin" (the effect is too small to matter): the two one-sided
    tests against +margin and -margin, the better one doubled, so that a single card is rejected
    exactly when its two-sided 95% interval lies wholly beyond +-margin; times `looks` as the
    plain p-value is. margin 0 gives the plain test of "effect = 0"."""
    if se is None or not math.isfinite(se):
        return 1.0
    excess = abs(effect) - margin
    if excess <= 0:
        return 1.0
    if se == 0:
        return 0.0
    return min(1.0, looks * two_sided(excess / se, max(1.0, dof) if dof else math.inf))


def flag_rows(rows: list[dict[str, Any]], margin: float = MARGIN, q: float = FDR) -> None:
    """Mark each card-test row 'too strong', 'too weak' or None: Benjamini-Hochberg at `q` over every
    row's p-value of "|effect| <= margin" (kept as `p_margin`); a row needs `effect` and `se`, and
    may give `looks` and `dof`."""
    ps = [beyond_margin(r["effect"], r.get("se"), margin, r.get("looks", 1), r.get("dof")) for r in rows]
    for r, p, rej in zip(rows, ps, benjamini_hochberg(ps, q)):
        r["p_margin"] = round(p, 8)
        r["margin"] = margin
        r["flag"] = None if not rej else ("too strong" if r["effect"] > 0 else "too weak")


def spearman(xs: Sequence[float], ys: Sequence[float]) -> dict[str, Any]:
    """Spearman's rank correlation with a 95% interval (Fisher's z; Bonett-Wright variance)."""
    n = len(xs)
    if n < 4:
        return {"rho": None, "low": None, "high": None, "cards": n}

    def ranks(v: Sequence[float]) -> list[float]:
        order = sorted(range(n), key=lambda i: v[i])
        out = [0.0] * n
        i = 0
        while i < n:
            j = i
            while j + 1 < n and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    rho = num / den if den else 0.0
    clipped = max(-0.999999, min(0.999999, rho))
    half = Z95 * math.sqrt((1 + rho * rho / 2) / (n - 3))
    z = math.atanh(clipped)
    return {"rho": round(rho, 6), "low": round(math.tanh(z - half), 6), "high": round(math.tanh(z + half), 6), "cards": n}
