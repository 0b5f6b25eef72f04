"""The balance run as terminal text: the verdict first, then the evidence."""

from __future__ import annotations

from typing import Any

from cardsmith.engine.stats import Rate
from cardsmith.simulation._common_deck_report import common_text


def _rate(d: dict[str, Any]) -> str:
    return str(Rate(d["k"], d["n"]))


def card_line(r: dict[str, Any]) -> str:
    flag = f"  ** {r['flag'].upper()} **" if r["flag"] else ""
    return (f"    {r['name'][:28]:<28} {r['deck'][:22]:<22} {100 * r['effect']:+6.1f} "
            f"[{100 * r['low']:+6.1f}, {100 * r['high']:+6.1f}]  {r['games']:>5} games  {r['method']}{flag}")


def format_balance(figures: dict[str, Any], set_name: str, n_decks: int, shown: int = 10) -> str:
    """Verdict, deck win rates, first player, the strongest card evidence."""
    if "common_deck" in figures:  # one deck in every seat: per card and per table size instead
        return common_text(figures, set_name)
    lines = [f"{set_name}: {n_decks} decks{' (random legal decks)' if figures['random_decks'] else ''}, "
             f"{figures['games_per_pairing']} games per table of {figures['players']}, agent {figures['agent']}", "",
             "Verdict:"]
    lines += [f"  {s}" for s in figures["verdict"]["sentences"]]
    lines += sizing_lines(figures)
    lines += ["", "Evidence:"]
    width = max(len(d["deck"]) for d in figures["deck_win_rates"])
    for d in figures["deck_win_rates"]:
        lines.append(f"  {d['deck']:<{width}}  wins {_rate(d['wins'])}")
    if figures["players"] > 2:
        lines.append("  by seat: " + "; ".join(f"seat {r['seat']} {_rate(r['wins'])}" for r in figures["seat_wins"]))
    lines.append(f"  first player won {_rate(figures['first_player_wins_of_decided'])} of decided games; "
                 f"draws {_rate(figures['draws'])}; capped {_rate(figures['capped'])}")
    tests = figures.get("card_tests", [])
    if tests:
        looks = figures.get("looks", 1)
        corrected = f" corrected for {looks} sequential looks" if looks > 1 else ""
        lines.append(f"  card tests ({figures['study_games']} games played for them; effect = holder's win rate with the card minus "
                     f"without, draws half, in points, 95% interval{corrected}; flags: beyond +-{100 * figures.get('margin', 0):.0f} points at FDR {100 * figures['fdr']:.0f}%):")
        lines += [card_line(r) for r in tests[:shown]]
        if len(tests) > shown:
            lines.append(f"    ... {len(tests) - shown} more in the report")
    obs = figures.get("observed_cards")
    if obs:
        lines.append("  observational figures (when drawn, in the opening hand, never seen): "
                     + (f"{len(obs['rows'])} cards over {obs['games']} games, in the report" if obs["available"] else obs["note"]))
    return "\n".join(lines)


def sizing_lines(figures: dict[str, Any]) -> list[str]:
    """How many games the run played, and why; each conclusion under the two players."""
    out = []
    sizing = figures.get("sizing")
    if sizing:
        out += ["", "Games played:", f"  calibration: {sizing['calibration_games']} games against random",
                f"  round robin, {sizing['games_why']}"]
        out += [f"  round robin, {sizing['second_games_why']}"] if "second_games_why" in sizing else []
        out += [f"  card tests, {sizing[k]}" for k in ("budget_why", "second_budget_why") if k in sizing]
    skill = figures.get("agent_comparison")
    if skill and skill.get("conclusions") is not None:
        out += ["", f"Does skill change the answer? ({' and '.join(skill['agents'])})"]
        out += [f"  {r['conclusion']}: {r['holds']}" for r in skill["conclusions"]] or ["  no conclusion under either player"]
        if skill.get("note"):
            out.append(f"  ({skill['note']})")
    return out
