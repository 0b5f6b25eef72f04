"""The balance page's verdict and card-test sections (HTML), beside `report`'s plots."""

from __future__ import annotations

import html
from typing import Any, Sequence

CSS = """
.verdict{background:#f6f8fa;border-left:4px solid #2f6db5;padding:.6em 1em;font-size:15px}
.verdict.untrusted{border-left-color:#c62828} .verdict li{margin:.3em 0}
tr.strong{background:#fde2e0} tr.weak{background:#dde9fb} .tests td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
"""


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def verdict_html(verdict: dict[str, Any]) -> str:
    cls = "verdict" if verdict.get("trusted", True) else "verdict untrusted"
    items = "".join(f"<li>{_e(s)}</li>" for s in verdict["sentences"])
    return f"<h2>Verdict</h2><div class='{cls}'><ul>{items}</ul></div>"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def tests_html(figures: dict[str, Any]) -> str:
    """The card tests, ranked by the interval's bound; too strong in red, too weak in blue."""
    rows: Sequence[dict[str, Any]] = figures.get("card_tests", [])
    if not rows:
        why = figures.get("card_tests_note")
        return f"<h2>Card tests</h2><p class='note'>{_e(why)}</p>" if why else ""
    looks = figures.get("looks", 1)
    note = (f"<p class='note'>Each row: one card in one deck. <b>Intervention</b>: the same seeds played with the card and "
            f"with the rules' neutral filler in its place: a card of the same type and cost whose numbers are what the "
            f"set's comparable cards typically have, so a card of average strength for its cost reads about 0 (the "
            f"game's rule is below; the 'how' column names each card's filler). The effect is the holder's win rate "
            f"with the card minus without, a draw counting half, in points, with an interval from the paired "
            f"differences. <b>Dealt by the game</b>: cards the game deals at random (a star, planets, a common deck's "
            f"opening hand), the holder's result when dealt minus when not, over {figures.get('dealt_games', 0)} games "
            f"played with the decks as they are (a fixed number). "
            f"Flags: an effect shown to lie beyond +-{100 * figures.get('margin', 0):.0f} points (the smallest that matters; "
            f"one card alone: its 95% interval wholly beyond it), by Benjamini-Hochberg over all {len(rows)} tests at a "
            f"{100 * figures['fdr']:.0f}% false discovery rate; "
            f"<span style='background:#fde2e0'>too strong</span> and <span style='background:#dde9fb'>too weak</span> "
            f"are ranked by the interval's bound nearest zero. An interval can miss zero without a flag: a "
            f"small effect is not flagged, and the flags allow for testing {len(rows)} cards at once. {figures['study_games']} games in all, within a budget "
            f"of {figures['budget']}. <b>Adaptive budget</b>: every card got {figures.get('first_look', 0)} games per "
            f"table, then the cards not yet settled (p above FDR/m) doubled their games, up to {looks} looks. Choosing "
            f"from the results which cards get more games is optional stopping, so every intervention interval and "
            f"p-value is corrected for {looks} looks (Bonferroni: a {100 * (1 - 0.05 / looks):.2f}% interval at each "
            f"look, 95% over all of them, taken or not). Draw columns count draws among the games with and without "
            f"the card.</p>")
    rule = figures.get("filler_rule")
    if rule:
        note += f"<details><summary>The filler rule of this game</summary><pre class='note'>{_e(rule)}</pre></details>"
    head = ("<table class='tests'><thead><tr><th>card</th><th>deck</th><th>how</th><th>effect</th><th>95% interval</th>"
            "<th title='p-value of &quot;the effect is within the margin&quot;, which the flags test'>p (beyond margin)</th>"
            "<th>games</th><th>draws with / without</th><th>flag</th></tr></thead><tbody>")
    body = []
    for r in rows:
        cls = {"too strong": " class='strong'", "too weak": " class='weak'"}.get(r["flag"] or "", "")
        how = r["method"] if not r.get("filler") else f"{r['method']}: {r['filler'].split(' for ')[0]}"
        body.append(f"<tr{cls}><td>{_e(r['name'])}</td><td>{_e(r['deck'])}</td><td>{_e(how)}</td>"
                    f"<td class='num'>{_pts(r['effect'])}</td><td class='num'>[{_pts(r['low'])}, {_pts(r['high'])}]</td>"
                    f"<td class='num'>{r.get('p_margin', r['p_value']):.2g}</td><td class='num'>{r['games']}</td>"
                    f"<td class='num'>{r['draws_with']} / {r['draws_without']}</td><td>{_e(r['flag'] or '')}</td></tr>")
    untested = figures.get("untested_cards") or []
    tail = ""
    if untested:
        tail = ("<p class='note'>Not tested (no filler, and never dealt at random): "
                + _e(", ".join(c["name"] for c in untested)) + ".</p>")
    return "<h2>Card tests</h2>" + note + head + "".join(body) + "</tbody></table>" + tail


def _obs(cell: dict[str, Any]) -> str:
    if not cell["games"]:
        return "<td class='num'>&ndash;</td><td class='num'>0</td>"
    return (f"<td class='num'>{100 * cell['rate']:.1f}% [{100 * cell['low']:.0f}&ndash;{100 * cell['high']:.0f}]</td>"
            f"<td class='num'>{cell['games']}</td>")


def observed_html(figures: dict[str, Any]) -> str:
    """Win rate when drawn, in the opening hand and never seen: observational, labelled so."""
    obs = figures.get("observed_cards")
    if not obs:
        return ""
    head = "<h2>Per-card figures, observational: when drawn, in the opening hand, never seen</h2>"
    if not obs["available"]:
        return head + f"<p class='note'>{_e(obs['note'])}</p>"
    body = "".join(f"<tr><td>{_e(r['name'])}</td><td>{_e(r['deck'])}</td>{_obs(r['drawn'])}{_obs(r['opening'])}"
                   f"{_obs(r['not_seen'])}</tr>" for r in obs["rows"])
    return (head + f"<p class='note'>{_e(obs['note'])} {obs['games']} games.</p>"
            "<table class='tests'><thead><tr><th>card</th><th>deck</th><th>win rate when drawn</th><th>games</th>"
            "<th>in opening hand</th><th>games</th><th>never seen</th><th>games</th></tr></thead><tbody>"
            + body + "</tbody></table>")


def players_html(figures: dict[str, Any]) -> str:
    """Who played, how strong it measured, and how many games the run played and why."""
    from cardsmith.simulation._players import player_line

    player, sizing = figures.get("player"), figures.get("sizing")
    if not player:
        return ""
    trust = "trusted" if player["trusted"] else "UNTRUSTED"
    items = [f"<li>{_e(player_line(player))}; verdict {trust}: {_e(player['reason'])}.</li>"]
    if sizing:
        items.append(f"<li>calibration: {sizing['calibration_games']} games against random.</li>")
        items += [f"<li>round robin, {_e(sizing[k])}.</li>" for k in ("games_why", "second_games_why") if k in sizing]
        items += [f"<li>card tests, {_e(sizing[k])}.</li>" for k in ("budget_why", "second_budget_why") if k in sizing]
    return ("<h2>Players and games</h2><p class='note'>A verdict is trusted when its player beats random at least "
            f"{100 * player['competent_bar']:.0f}% of the time and at most 2% of its games are stopped by a cap. "
            f"A default run is sized to finish within {sizing['target_seconds'] / 60 if sizing else 10:.0f} minutes "
            "from the measured cost of a game.</p><ul>" + "".join(items) + "</ul>")


def _conclusions_html(cmp: dict[str, Any]) -> str:
    decks = cmp.get("deck_agreement") or {}
    rows = "".join(f"<tr><td>{_e(r['conclusion'])}</td><td>{_e(r['holds'])}</td></tr>" for r in cmp["conclusions"])
    tau = ("no deck ranking to compare" if decks.get("tau") is None else
           f"Kendall's tau {decks['tau']:.2f} [{decks['low']:.2f}, {decks['high']:.2f}], {_e(decks['method'])}")
    return (f"<p>Deck standings: {tau}.</p><table class='figures'><tr><th>conclusion</th><th>under both players?</th></tr>"
            f"{rows or '<tr><td colspan=2>none under either player</td></tr>'}</table>"
            + (f"<p class='note'>{_e(cmp['note'])}.</p>" if cmp.get("note") else ""))


def agents_html(figures: dict[str, Any]) -> str:
    cmp = figures.get("agent_comparison")
    if not cmp:
        return ""
    if cmp.get("conclusions") is not None:
        a, b = cmp["agents"]
        return (f"<h2>Does skill change the answer? {_e(a)} and {_e(b)}</h2>" + _conclusions_html(cmp)
                + f"<p>{_e(cmp['card_sentence'])}</p>")
    rows = "".join(f"<li>{_e(k['card'])} ({_e(k['deck'])}): {_e(k['flag'])}</li>" for k in cmp["flagged_only_with_first"])
    rows2 = "".join(f"<li>{_e(k['card'])} ({_e(k['deck'])}): {_e(k['flag'])}</li>" for k in cmp["flagged_only_with_second"])
    a, b = cmp["agents"]
    return (f"<h2>Weak and strong play</h2><p>{_e(cmp['sentence'])}</p>"
            f"<p class='note'>Flagged with {_e(a)} only (a problem of weak play):</p><ul>{rows or '<li>none</li>'}</ul>"
            f"<p class='note'>Flagged with {_e(b)} only:</p><ul>{rows2 or '<li>none</li>'}</ul>")


def comparison_html(figures: dict[str, Any], shown: int = 12) -> str:
    """Matchups and cards that moved against the earlier version, with paired intervals."""
    cmp = figures.get("comparison")
    if not cmp:
        return ""
    rows = "".join(
        f"<tr{' class=strong' if m['moved'] and m['effect'] > 0 else ' class=weak' if m['moved'] else ''}><td>{_e(m['deck'])}</td>"
        f"<td>{_e(', '.join(m['against']))}</td><td class='num'>{_pts(m['effect'])}</td>"
        f"<td class='num'>[{_pts(m['low'])}, {_pts(m['high'])}]</td><td class='num'>{m['games']}</td></tr>"
        for m in cmp["matchups"])
    cards = "".join(
        f"<tr{' class=strong' if c['moved'] and c['effect'] > 0 else ' class=weak' if c['moved'] else ''}><td>{_e(c['name'])}</td>"
        f"<td>{_e(c['deck'])}</td><td class='num'>{_pts(c['old'])} &rarr; {_pts(c['new'])}</td><td class='num'>{_pts(c['effect'])}</td>"
        f"<td class='num'>[{_pts(c['low'])}, {_pts(c['high'])}]</td><td>{_e('; '.join(cmp['edited_cards'].get(c['card'], [])))}</td></tr>"
        for c in cmp["cards"][:shown])
    return (f"<h2>Against {_e(cmp['against'])}</h2><p class='note'>Both versions played on the same seeds. Matchups: the "
            "deck's result in the new version minus the old, game by game (paired), in points. Cards: the change of each "
            "card test's effect. Highlighted: intervals that exclude zero.</p>"
            "<table class='tests'><thead><tr><th>deck</th><th>against</th><th>moved</th><th>95% interval</th><th>games</th>"
            f"</tr></thead><tbody>{rows}</tbody></table><table class='tests'><thead><tr><th>card</th><th>deck</th>"
            "<th>effect before &rarr; now</th><th>moved</th><th>95% interval</th><th>edited</th></tr></thead>"
            f"<tbody>{cards}</tbody></table>")
