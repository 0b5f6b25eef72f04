"""The verdict that opens a balance report: a few sentences, each with its numbers, saying what to
change. Built from the figures alone (so the terminal, the page and balance.json say the same).
"""

from __future__ import annotations

from typing import Any, Sequence

CAP_WARNING = 0.10  # above this share of capped (stalled) games the figures are not to be trusted


def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.0f}-{100 * r['high']:.0f}]"


def _pts(row: dict[str, Any]) -> str:
    return f"{100 * row['effect']:+.1f} points [{100 * row['low']:+.1f}, {100 * row['high']:+.1f}]"


def _how(row: dict[str, Any]) -> str:
    if row["method"] == "intervention":
        return f"when swapped for a {row['filler'].split(' for ')[0]}"
    return "when the game deals it against when it does not"


def card_sentence(row: dict[str, Any]) -> str:
    """`TCS-19 Mace (Terracorp Line Fleet), +21.0 points [+14.2, +27.8] when swapped for a plain fighter (800 games)`."""
    return f"{row['name']} ({row['deck']}), {_pts(row)} {_how(row)} ({row['games']} games)"


def deck_standing(rows: Sequence[dict[str, Any]], fair: float) -> tuple[list[dict], list[dict]]:
    """Decks whose win-rate interval lies above, and below, a fair share."""
    strong = [d for d in rows if d["wins"]["n"] and d["wins"]["low"] > fair]
    weak = [d for d in rows if d["wins"]["n"] and d["wins"]["high"] < fair]
    strong.sort(key=lambda d: -d["wins"]["low"])
    weak.sort(key=lambda d: d["wins"]["high"])
    return strong, weak


def _cause(tests: Sequence[dict[str, Any]], deck: str, flag: str) -> dict[str, Any] | None:
    for row in tests:  # ranked: the strongest evidence first
        if row["deck"] == deck and row["flag"] == flag:
            return row
    return None


def _stalls_only_in_the_run(player: dict[str, Any]) -> bool:
    """True when the player is untrusted for the run's capped games although it beats random and
    stalls no more than allowed against it: two decks holding each other off, not a weak player."""
    from cardsmith.simulation.ladder import CAP_LIMIT

    c = player.get("vs_random") or {}
    return player.get("failed_rule") == "caps" and bool(c.get("games")) and (c.get("capped_share") or 0.0) <= CAP_LIMIT


def _where_capped(figures: dict[str, Any], player: dict[str, Any]) -> str:
    """`: 15 of 100 in A against B`: the tables of two decks that hold the run's capped games, most first."""
    if player.get("failed_rule") != "caps":
        return ""
    rows = [t for t in figures.get("tables") or [] if len(t.get("decks") or []) == 2 and (t.get("capped") or {}).get("k")]
    rows.sort(key=lambda t: -t["capped"]["k"])
    parts = [f"{t['capped']['k']} of {t['capped']['n']} in {t['decks'][0]['deck']} against {t['decks'][1]['deck']}"
             for t in rows[:2]]
    return (": " + "; ".join(parts)) if parts else ""


def _remedy(player: dict[str, Any]) -> str:
    if _stalls_only_in_the_run(player):
        return ("its games against random end, so those decks hold each other off: a rule that ends such "
                "stand-offs, or a player that breaks them, would settle those games")
    return "use a stronger player (see `cardsmith agents`)"


def verdict(figures: dict[str, Any]) -> dict[str, Any]:
    """Sentences (plain text) and the facts behind them."""
    fair = 1 / figures.get("players", 2)
    tests = figures.get("card_tests", [])
    draws = figures.get("draws") or {}
    fair_note = f" (fair: {100 * fair:.0f}%)"
    if figures.get("players", 2) == 2 and draws.get("n") and draws.get("rate"):
        # A drawn game is a win for neither deck: with a third of games drawn, a fair deck wins a third.
        fair = (1 - draws["rate"]) / 2
        fair_note = f" (fair: {100 * fair:.0f}%, as {100 * draws['rate']:.0f}% of games are draws)"
    strong, weak = deck_standing(figures["deck_win_rates"], fair)
    out: list[str] = []
    causes: list[dict[str, Any]] = []
    # Two decks: one's wins are the other's losses, so the weak deck is the mirror of the strong one
    # and names no cause of its own (a card test there would be a false lead).
    mirror = strong[0]["deck"] if len(figures["deck_win_rates"]) == 2 and strong else None
    for decks, flag, note in ((strong, "too strong", fair_note), (weak, "too weak", fair_note if not strong else "")):
        for d in decks:
            out.append(f"{d['deck']} is {flag}: it wins {_pct(d['wins'])} against the field{note}.")
            if mirror and flag == "too weak":
                out[-1] = out[-1][:-1] + f": the mirror of {mirror} being too strong, so no cause of its own is named."
                continue
            row = _cause(tests, d["deck"], flag)
            if row:
                causes.append(row)
                out.append(f"Most likely cause: {card_sentence(row)}.")
    if not strong and not weak and figures["deck_win_rates"]:
        rates = [d["wins"]["rate"] for d in figures["deck_win_rates"] if d["wins"]["n"]]
        if rates:
            out.append(f"No deck stands out: win rates from {100 * min(rates):.1f}% to {100 * max(rates):.1f}%, "
                       f"every interval touching a fair {100 * fair:.0f}%.")
    others = [r for r in tests if r["flag"] == "too strong" and r not in causes]
    if others:
        out.append("Too strong: " + "; ".join(card_sentence(r) for r in others[:3])
                   + (f"; and {len(others) - 3} more" if len(others) > 3 else "") + ".")
    weak_cards = [r for r in tests if r["flag"] == "too weak" and r not in causes]
    if weak_cards:
        out.append("Too weak: " + "; ".join(card_sentence(r) for r in weak_cards[:3])
                   + (f"; and {len(weak_cards) - 3} more" if len(weak_cards) > 3 else "") + ".")
    if not tests and figures.get("card_tests_note"):
        out.append(figures["card_tests_note"])
    if tests:
        flagged = sum(1 for r in tests if r["flag"])
        looks = figures.get("looks", 1)
        how = f"; intervals corrected for the budget's {looks} sequential looks" if looks > 1 else ""
        out.append(f"{flagged} of {len(tests)} card tests flagged: effect beyond +-{100 * figures.get('margin', 0):.0f} "
                   f"points at a {100 * figures.get('fdr', 0.05):.0f}% false discovery rate (Benjamini-Hochberg{how}).")
    first, even = figures["first_player_wins_of_decided"], 1 / figures.get("players", 2)  # of decided games: no draws
    if first["n"]:
        if first["low"] > even or first["high"] < even:
            word = "an advantage" if first["low"] > even else "a disadvantage"
            out.append(f"Going first is {word}: the first player wins {_pct(first)} of decided games.")
        else:
            out.append(f"Going first: no measurable advantage ({_pct(first)} of decided games).")
    capped = figures["capped"]
    trust = not capped["n"] or capped["rate"] <= CAP_WARNING
    if trust:
        out.append(f"Games end: {100 * capped['rate']:.1f}% were stopped by a cap (agent {figures['agent']}).")
    else:
        out.append(f"Do not trust these numbers: {100 * capped['rate']:.1f}% of games were stopped by a cap "
                   f"(agent {figures['agent']}), so they measure stalling, not play.")
    player = figures.get("player")
    reason = None
    if player is not None:
        from cardsmith.simulation._players import player_line

        out.append(f"Played by {player_line(player)}.")
        if not player["trusted"]:
            trust, reason = False, player["reason"]
            out.insert(0, f"UNTRUSTED: {reason}{_where_capped(figures, player)}, so these figures describe "
                          f"that play, not the game; {_remedy(player)}.")
    return {"sentences": out, "untrusted_reason": reason, "strong_decks": [d["deck"] for d in strong], "weak_decks": [d["deck"] for d in weak],
            "causes": [{"deck": r["deck"], "card": r["card"], "flag": r["flag"]} for r in causes], "trusted": trust}
