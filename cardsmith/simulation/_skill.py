"""Does skill change the answer? A balance run's deck standings and card flags under two players.

The deck ranking's agreement is Kendall's tau-b between the decks' win rates under each player,
with a 95% percentile interval from a bootstrap over games (each run's round-robin games resampled
with replacement, the win rates and tau recomputed). Every conclusion of either verdict (a deck too
strong or too weak, a card flagged) is marked "holds at both" or "only at <player>".
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from cardsmith.engine.chance import derive_seed
from cardsmith.engine.runner import GameRecord
from cardsmith.engine.stats import deck_overall

RESAMPLES = 400


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Kendall's tau-b of two equally long sequences (ties allowed); None when either is all ties."""
    concordant = discordant = tie_x = tie_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tie_x += 1
            elif dy == 0:
                tie_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    den = math.sqrt((concordant + discordant + tie_x) * (concordant + discordant + tie_y))
    return (concordant - discordant) / den if den else None


def _rates(records: Sequence[GameRecord], names: Sequence[str]) -> list[float]:
    return [d["wins"]["rate"] if d["wins"]["n"] else 0.5 for d in deck_overall(records, names)]


def deck_agreement(first: Sequence[GameRecord], second: Sequence[GameRecord], names: Sequence[str],
                   seed: int, resamples: int = RESAMPLES) -> dict[str, Any]:
    """Kendall's tau of the decks' win rates under two runs, with a bootstrap interval over games."""
    method = f"bootstrap over games ({resamples} resamples, percentile interval)"
    if len(names) < 3:
        return {"tau": None, "low": None, "high": None, "decks": len(names), "method": method,
                "note": "fewer than three decks: no ranking to compare"}
    tau = kendall_tau(_rates(first, names), _rates(second, names))
    rng = random.Random(derive_seed("skill bootstrap", seed))
    draws = []
    for _ in range(resamples):
        a = [first[rng.randrange(len(first))] for _ in first]
        b = [second[rng.randrange(len(second))] for _ in second]
        t = kendall_tau(_rates(a, names), _rates(b, names))
        if t is not None:
            draws.append(t)
    draws.sort()
    low = draws[int(0.025 * (len(draws) - 1))] if draws else None
    high = draws[int(math.ceil(0.975 * (len(draws) - 1)))] if draws else None
    return {"tau": None if tau is None else round(tau, 6), "low": low if low is None else round(low, 6),
            "high": high if high is None else round(high, 6), "decks": len(names), "method": method}


def _conclusions(figures: dict[str, Any]) -> dict[str, str]:
    """A verdict's conclusions as readable keys: "Omnae is too strong", "Mace (Omnae) is too weak"."""
    v = figures["verdict"]
    out = {f"{d} is too strong": "deck" for d in v.get("strong_decks", [])}
    out.update({f"{d} is too weak": "deck" for d in v.get("weak_decks", [])})
    for r in figures.get("card_tests", []):
        if r.get("flag"):
            out[f"{r['name']} ({r['deck']}) is {r['flag']}"] = "card"
    return out


def conclusions_at_both(first: dict[str, Any], second: dict[str, Any]) -> list[dict[str, Any]]:
    """Every conclusion of either run, marked "holds at both" or "only at <player>"."""
    a, b = _conclusions(first), _conclusions(second)
    tested_b = {(r["deck"], r["name"]) for r in second.get("card_tests", [])}
    out = []
    for text in list(a) + [t for t in b if t not in a]:
        if text in a and text in b:
            holds = "holds at both"
        else:
            holds = f"only at {first['agent'] if text in a else second['agent']}"
        out.append({"conclusion": text, "kind": a.get(text) or b[text], "holds": holds})
    for row in out:  # a card the second run did not test cannot disagree: say so
        if row["kind"] == "card" and row["holds"].startswith("only at") and row["conclusion"] in a:
            flagged = next(r for r in first["card_tests"] if f"{r['name']} ({r['deck']}) is {r['flag']}" == row["conclusion"])
            if (flagged["deck"], flagged["name"]) not in tested_b:
                row["holds"] += f" (not tested at {second['agent']})"
    return out


def skill_section(first: dict[str, Any], first_records: Sequence[GameRecord], second: dict[str, Any],
                  second_records: Sequence[GameRecord], seed: int, cards: dict[str, Any]) -> dict[str, Any]:
    """The skill comparison of a balance report: deck agreement, conclusions, and `cards` (the card
    ranking's agreement, `balance.compare_agents`)."""
    decks = deck_agreement(first_records, second_records, first["decks"], seed)
    rows = conclusions_at_both(first, second)
    a, b = first["agent"], second["agent"]
    if decks["tau"] is None:
        deck_text = f"Deck standings under {a} and {b}: {decks['note']}."
    else:
        deck_text = (f"Deck standings under {a} and {b}: Kendall's tau {decks['tau']:.2f} "
                     f"[{decks['low']:.2f}, {decks['high']:.2f}] over {decks['decks']} decks; {decks['method']}.")
    both = sum(r["holds"] == "holds at both" for r in rows)
    summary = (f"Of {len(rows)} conclusions, {both} {'holds' if both == 1 else 'hold'} at both {a} and {b}." if rows
               else f"Neither {a} nor {b} play draws a conclusion about a deck or a card.")
    return {**cards, "deck_agreement": decks, "conclusions": rows, "games": [first["games"], second["games"]],
            "games_per_pairing": [first["games_per_pairing"], second["games_per_pairing"]],
            "study_games": [first.get("study_games", 0), second.get("study_games", 0)],
            "sentence": f"{deck_text} {summary} {cards['sentence']}", "card_sentence": cards["sentence"]}
