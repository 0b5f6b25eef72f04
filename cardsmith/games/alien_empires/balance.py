"""Alien Empires' own balance figures: per Race power, the win rate of the players holding it in
their Racial Destiny against those without it (95% Wilson intervals, Fisher's exact test, Holm and
Benjamini-Hochberg corrections over all the powers compared), win rate per seat, game length and
the share of games that reach a victory (not the turn cap).

A Race card is in a seat's `cards_played` exactly when it is in that seat's Racial Destiny (Race
cards are never played otherwise), so the figures read the runner's records.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from cardsmith.engine.stats import Rate, fisher_exact

VICTORIES = ("controls every world", "last race standing")


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (false discovery rate)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    out, running = [0.0] * m, 1.0
    for k, i in enumerate(order):
        rank = m - k
        running = min(running, pvalues[i] * m / rank)
        out[i] = min(1.0, running)
    return out


def figures(records: Iterable[Any], race_cards: dict[str, str], alpha: float = 0.05) -> dict[str, Any]:
    """Every figure as plain data. `race_cards` maps Race card ids to names."""
    records = list(records)
    seats = max((r.seats for r in records), default=0)
    seat_wins = [Rate(sum(1 for r in records if r.seats > s and r.winner == s), sum(1 for r in records if r.seats > s))
                 for s in range(seats)]
    rows: list[dict[str, Any]] = []
    for cid, name in race_cards.items():
        a = b = c = d = 0
        for r in records:
            for s in range(r.seats):
                won = r.winner == s
                if cid in r.cards_played[s]:
                    a, b = a + won, b + (not won)
                else:
                    c, d = c + won, d + (not won)
        if a + b == 0:
            continue
        rows.append({"card": cid, "name": name, "holders": Rate(a, a + b), "others": Rate(c, c + d),
                     "p": fisher_exact(a, b, c, d)})
    ps = [row["p"] for row in rows]
    for row, h, bh in zip(rows, holm(ps), benjamini_hochberg(ps)):
        row.update(holm=h, bh=bh, significant=bh < alpha)
    rows.sort(key=lambda r: -(r["holders"].rate - r["others"].rate))
    victories = sum(1 for r in records if r.end_reason in VICTORIES)
    turns = [r.turns for r in records]
    return {
        "games": len(records),
        "seat_wins": [{"seat": s, **w.to_dict()} for s, w in enumerate(seat_wins)],
        "powers": [{"card": r["card"], "name": r["name"], "holders": r["holders"].to_dict(), "others": r["others"].to_dict(),
                    "difference": round(r["holders"].rate - r["others"].rate, 6), "p_value": round(r["p"], 6),
                    "holm_p": round(r["holm"], 6), "bh_p": round(r["bh"], 6), "significant": r["significant"]} for r in rows],
        "length": {"mean_turns": sum(turns) / len(turns) if turns else 0.0, "max_turns": max(turns, default=0)},
        "victory": Rate(victories, len(records)).to_dict(),
        "alpha": alpha,
    }


def text(figs: dict[str, Any]) -> str:
    """The figures as a short plain-text report."""
    r = lambda d: str(Rate(d["k"], d["n"]))  # noqa: E731
    lines = [f"Alien Empires: {figs['games']} games; mean length {figs['length']['mean_turns']:.1f} turns "
             f"(longest {figs['length']['max_turns']}); reached a victory: {r(figs['victory'])}",
             "  win rate per seat: " + "; ".join(f"P{x['seat']} {r(x)}" for x in figs["seat_wins"]),
             "  Race powers, holders against the others (p corrected over all powers: Holm, Benjamini-Hochberg):"]
    for p in figs["powers"]:
        mark = " *" if p["significant"] else ""
        lines.append(f"    {p['name']:<17} holders {r(p['holders'])}  others {r(p['others'])}  "
                     f"Holm p={p['holm_p']:.3f} BH p={p['bh_p']:.3f}{mark}")
    lines.append(f"  * significant at false discovery rate {figs['alpha']}")
    return "\n".join(lines)


def sentences(figs: dict[str, Any]) -> list[str]:
    """The conclusions a common-deck verdict leads with: Race powers in a Racial Destiny (chosen by
    the players, so observational; the card tests are the causal measure) by Holm and BH, and how
    often a game reaches a victory."""
    r = lambda d: str(Rate(d["k"], d["n"]))  # noqa: E731
    powers = figs["powers"]
    sig = [p for p in powers if p["significant"]]
    holm_sig = [p for p in powers if p["holm_p"] < figs["alpha"]]
    out = [f"Race powers in a Racial Destiny (chosen, so observational): {len(sig)} of {len(powers)} differ from "
           f"the others at a {100 * figs['alpha']:.0f}% false discovery rate (Benjamini-Hochberg), {len(holm_sig)} "
           "by Holm" + (": " + "; ".join(f"{p['name']} holders {r(p['holders'])} against {r(p['others'])} "
                                           f"(BH p={p['bh_p']:.3f})" for p in sig[:4]) if sig else "") + "."]
    out.append(f"games reaching a victory (not the turn cap): {r(figs['victory'])}.")
    return out
