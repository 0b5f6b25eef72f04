"""A common-deck game's balance report (HTML) and terminal text: the verdict, per-seat results per
table size, and per-card effects with their intervals per size. No deck standing: every seat plays
the same deck. The game's own figures are in the verdict's sentences (and in balance.json under
`common_deck.by_size[].game_figures`), not in a table of their own."""

from __future__ import annotations

import html
from typing import Any

from cardsmith.simulation._inference import MARGIN
from cardsmith.simulation._report_cards import CSS as CARDS_CSS, agents_html, verdict_html

CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h2{margin-top:1.6em;border-bottom:1px solid #ddd} .meta,.note{color:#555;font-size:13px}
table{border-collapse:collapse;font-size:13px} td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
"""


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _rate(r: dict[str, Any] | None) -> str:
    if not r or not r.get("n"):
        return "n/a"
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}-{100 * r['high']:.1f}] ({r['k']}/{r['n']})"


def _effect(e: dict[str, Any] | None) -> str:
    if e is None:
        return "too few dealt"
    return f"{100 * e['effect']:+.1f} [{100 * e['low']:+.1f}, {100 * e['high']:+.1f}]"


def _num(x: Any) -> str:
    return f"{x:.1f}" if isinstance(x, float) else str(x)


def seats_html(cd: dict[str, Any]) -> str:
    """Per table size: each seat's wins, who went first, draws, capped share and game length."""
    rows = []
    for s in cd["by_size"]:
        seats = "<br>".join(f"seat {r['seat']}: {_e(_rate(r['wins']))}" for r in s["seat_wins"])
        n = s["length"]
        rows.append(f"<tr><td>{s['players']}</td><td class='num'>{s['games']:,}</td><td>{seats}</td>"
                    f"<td>{_e(_rate(s['first_player_wins_of_decided']))}</td><td>{_e(_rate(s['draws']))}</td>"
                    f"<td>{_e(_rate(s['capped']))}</td><td>mean {_num(n.get('mean', 'n/a'))}, 10-90%: "
                    f"{_num(n.get('p10', 'n/a'))}-{_num(n.get('p90', 'n/a'))}</td></tr>")
    return ("<h2>Per seat, per table size</h2><p class='note'>Wins are first places (fair share: one over the "
            "seats); the first player is the seat that acted first, over decided games.</p><table><thead><tr>"
            "<th>players</th><th>games</th><th>wins by seat</th><th>first player</th><th>draws</th><th>capped</th>"
            "<th>length (turns)</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def cards_html(figures: dict[str, Any]) -> str:
    """Every card: its pooled effect with interval, its flag, and its effect at each size."""
    cd = figures["common_deck"]
    sizes = [str(k) for k in cd["sizes"]]
    head = "".join(f"<th>{k} players</th>" for k in sizes)
    body = []
    for r in figures["card_tests"]:
        cls = " class='strong'" if r["flag"] == "too strong" else (" class='weak'" if r["flag"] == "too weak" else "")
        per = "".join(f"<td class='num'>{_e(_effect(r['by_size'].get(k)))}</td>" for k in sizes)
        body.append(f"<tr{cls}><td>{_e(r['name'])}</td><td>{_e(r['kind'])}</td><td class='num'>{_e(_effect(r))}</td>"
                    f"<td class='num'>{r['holders']:,}</td><td class='num'>{r.get('p_margin', r['p_value']):.3g}</td>"
                    f"<td>{_e(r['flag'] or '')}</td>{per}</tr>")
    untested = "".join(f"<li>{_e(u['name'])} ({_e(u['kind'])}): {_e(u['reason'])}</li>" for u in figures["untested_cards"])
    return ("<h2>Per card: the seats dealt it against the others</h2><p class='note'>The opening hands are dealt at "
            "random, so this is a randomised experiment: the effect is the return of the seats dealt the card in "
            "their starting hand minus that of the seats not dealt it (points; a seat's return is the share of the "
            "other seats it finished ahead of, a draw counting half; 95% intervals, table sizes pooled by inverse "
            f"variance; flagged when the effect is shown to lie beyond +-{100 * MARGIN:.0f} points, the smallest that "
            "matters, by Benjamini-Hochberg at a 5% false discovery rate over every card). It measures being "
            "dealt the card, whether or not it was then played.</p><table class='tests'><thead><tr><th>card</th>"
            f"<th>kind</th><th>effect</th><th>seats dealt it</th><th>p (beyond margin)</th><th>flag</th>{head}</tr></thead><tbody>"
            + "".join(body) + "</tbody></table>" + (f"<p>Untested:</p><ul>{untested}</ul>" if untested else ""))


def render_common(figures: dict[str, Any], set_name: str, run_html: str = "") -> str:
    """The whole page of a common-deck run."""
    cd = figures["common_deck"]
    return "\n".join([
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{_e(set_name)} balance</title>"
        f"<style>{CSS}{CARDS_CSS}</style></head><body><h1>{_e(set_name)}: balance report</h1>",
        verdict_html(figures["verdict"]),
        f"<p class='meta'>{figures['games']:,} games of the common deck {_e(cd['deck'])} at "
        f"{', '.join(str(k) for k in cd['sizes'])} players ({', '.join(f'{k}: {v:,}' for k, v in cd['games_by_size'].items())}), "
        f"{cd['rounds']} rounds, stopped: {_e(cd['stopped'])}; agent <b>{_e(figures['agent'])}</b> in every seat, "
        f"seed {figures['seed']}.</p>",
        seats_html(cd), cards_html(figures), agents_html(figures), run_html, "</body></html>"])


def common_text(figures: dict[str, Any], set_name: str, shown: int = 12) -> str:
    """The terminal text: verdict, then the cards nearest to a flag."""
    cd = figures["common_deck"]
    lines = [f"{set_name}: common deck {cd['deck']}, {figures['games']:,} games at "
             f"{', '.join(f'{k} players: {v:,}' for k, v in cd['games_by_size'].items())}; agent {figures['agent']}",
             "", "Verdict:"]
    lines += [f"  {s}" for s in figures["verdict"]["sentences"]]
    lines += ["", "Cards (effect of being dealt it, points, 95% interval, pooled over sizes; then per size):"]
    for r in figures["card_tests"][:shown]:
        flag = f"  ** {r['flag'].upper()} **" if r["flag"] else ""
        per = "  ".join(f"{k}p {_effect(e)}" for k, e in r["by_size"].items())
        lines.append(f"  {r['name'][:22]:<22} {_effect(r):<22} {per}{flag}")
    if len(figures["card_tests"]) > shown:
        lines.append(f"  ... {len(figures['card_tests']) - shown} more in the report")
    return "\n".join(lines)
