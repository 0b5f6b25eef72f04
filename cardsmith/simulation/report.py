"""The balance report: one self-contained HTML file (plots as inline SVG) and a JSON file of every
figure, written atomically into output/<set>/balance/. Also the build's short balance stage.

The plots are drawn as plain SVG here: five simple charts do not justify a plotting library, and
inline SVG keeps the page self-contained, sharp at any zoom and small.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Sequence

from cardsmith.base.atomic import write_text
from cardsmith.sets.model import CardSet, Deck
from cardsmith.simulation._common_deck_report import render_common
from cardsmith.simulation._report_cards import (CSS as CARDS_CSS, agents_html, comparison_html, observed_html, players_html,
                                               tests_html,
                                               verdict_html)

FONT = "font-family='system-ui, sans-serif'"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.0f}%"


def _rate_text(r: dict | None) -> str:
    if not r or not r["n"]:
        return "n/a"
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}-{100 * r['high']:.1f}] ({r['k']}/{r['n']})"


def _colour(v: float) -> str:
    """0 -> red, 0.5 -> white, 1 -> blue (the row deck's win rate)."""
    v = min(1.0, max(0.0, v))
    if v < 0.5:
        t = v / 0.5
        r, g, b = 214 + (255 - 214) * t, 96 + (255 - 96) * t, 77 + (255 - 77) * t
    else:
        t = (v - 0.5) / 0.5
        r, g, b = 255 + (47 - 255) * t, 255 + (109 - 255) * t, 255 + (181 - 255) * t
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


# Labels are sized to the names rather than cut at a fixed width: "Dolash's Azguard Fle" does not say
# which deck it is. Only a name longer than LABEL_MOST characters is shortened (with an ellipsis; the
# cell's tooltip keeps the whole name).
LABEL_MOST = 48
_SLANT_COS, _SLANT_SIN = 0.819, 0.574  # cos and sin of the column labels' 35 degrees


def _label(name: str, most: int = LABEL_MOST) -> str:
    return name if len(name) <= most else name[:most - 1] + "\u2026"


def _text_w(text: str, size: int = 12) -> float:
    """A generous estimate of the text's width in px (system-ui averages under 0.6 em a character)."""
    return 0.62 * size * len(text)


def heatmap_svg(names: Sequence[str], matrix: list[list[dict | None]]) -> str:
    """Matchup heatmap: cell (row, col) is the row deck's win rate against the column deck."""
    k = len(names)
    labels = [_label(n) for n in names]
    widest = max((_text_w(x) for x in labels), default=0.0)
    cell = 78
    label_w, top = int(max(80.0, widest + 16)), int(max(60.0, _SLANT_SIN * widest + 20))
    # (a slanted column label reaches right of its cell: the picture is as wide as the furthest one)
    right = max((label_w + cell * j + cell / 2 + _SLANT_COS * _text_w(x) for j, x in enumerate(labels)), default=0.0)
    w, h = int(max(label_w + cell * k + 10, right + 10)), top + cell * k + 10
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' viewBox='0 0 {w} {h}' {FONT} role='img' aria-label='matchup heatmap'>"]
    for j, n in enumerate(labels):
        x = label_w + cell * j + cell / 2
        # Slanted column labels: deck names are often longer than a cell is wide.
        out.append(f"<text x='{x}' y='{top - 8}' font-size='12' transform='rotate(-35 {x} {top - 8})'>{_e(n)}</text>")
    for i, n in enumerate(labels):
        y = top + cell * i
        out.append(f"<text x='{label_w - 8}' y='{y + cell / 2 + 4}' font-size='12' text-anchor='end'>{_e(n)}</text>")
        for j in range(k):
            x = label_w + cell * j
            c = matrix[i][j]
            if c is None:
                out.append(f"<rect x='{x}' y='{y}' width='{cell - 2}' height='{cell - 2}' fill='#eee'/>")
                out.append(f"<text x='{x + cell / 2}' y='{y + cell / 2 + 4}' font-size='12' text-anchor='middle' fill='#999'>-</text>")
                continue
            out.append(f"<rect x='{x}' y='{y}' width='{cell - 2}' height='{cell - 2}' fill='{_colour(c['rate'])}'>"
                       f"<title>{_e(names[i])} vs {_e(names[j])}: {_e(_rate_text(c))}</title></rect>")
            out.append(f"<text x='{x + cell / 2}' y='{y + cell / 2}' font-size='15' font-weight='bold' text-anchor='middle'>{_pct(c['rate'])}</text>")
            out.append(f"<text x='{x + cell / 2}' y='{y + cell / 2 + 16}' font-size='10' text-anchor='middle'>{_pct(c['low'])}-{_pct(c['high'])}</text>")
    out.append("</svg>")
    return "".join(out)


def intervals_svg(rows: Sequence[tuple[str, dict]], reference: float = 0.5) -> str:
    """One row per label: the rate as a dot with its 95% interval as a line, on a 0-100% axis."""
    plot_w, row_h = 420, 26
    most = 2 * LABEL_MOST + 4  # (room for "deck vs deck")
    label_w = int(max(120.0, max((_text_w(_label(label, most)) for label, _ in rows), default=0.0) + 16))
    w, h = label_w + plot_w + 120, 30 + row_h * len(rows) + 24
    x = lambda v: label_w + plot_w * v  # noqa: E731
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' viewBox='0 0 {w} {h}' {FONT} role='img'>"]
    for t in (0, 0.25, 0.5, 0.75, 1):
        out.append(f"<line x1='{x(t)}' y1='20' x2='{x(t)}' y2='{h - 20}' stroke='#ddd'/>"
                   f"<text x='{x(t)}' y='{h - 6}' font-size='10' text-anchor='middle'>{int(t * 100)}%</text>")
    out.append(f"<line x1='{x(reference)}' y1='20' x2='{x(reference)}' y2='{h - 20}' stroke='#888' stroke-dasharray='4 3'/>")
    for i, (label, r) in enumerate(rows):
        y = 30 + row_h * i + row_h / 2
        out.append(f"<text x='{label_w - 8}' y='{y + 4}' font-size='12' text-anchor='end'>{_e(_label(label, most))}</text>")
        if not r or not r["n"]:
            out.append(f"<text x='{x(0)}' y='{y + 4}' font-size='11' fill='#999'>no games</text>")
            continue
        out.append(f"<line x1='{x(r['low'])}' y1='{y}' x2='{x(r['high'])}' y2='{y}' stroke='#2f6db5' stroke-width='3'/>"
                   f"<circle cx='{x(r['rate'])}' cy='{y}' r='5' fill='#1b3f6b'><title>{_e(label)}: {_e(_rate_text(r))}</title></circle>"
                   f"<text x='{label_w + plot_w + 10}' y='{y + 4}' font-size='11'>{100 * r['rate']:.1f}% (n={r['n']})</text>")
    out.append("</svg>")
    return "".join(out)


def histogram_svg(histogram: dict[str, int], label: str = "turns") -> str:
    """Bars of how many games lasted each number of turns."""
    if not histogram:
        return "<p>No games.</p>"
    items = sorted((int(k), v) for k, v in histogram.items())
    lo, hi = items[0][0], items[-1][0]
    counts = dict(items)
    top = max(counts.values())
    n_bins = hi - lo + 1
    plot_w, plot_h = 600, 200
    bw = plot_w / n_bins
    w, h = plot_w + 70, plot_h + 50
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' viewBox='0 0 {w} {h}' {FONT} role='img' aria-label='game length histogram'>"]
    out.append(f"<line x1='50' y1='{plot_h + 10}' x2='{50 + plot_w}' y2='{plot_h + 10}' stroke='#444'/>")
    out.append(f"<text x='45' y='18' font-size='10' text-anchor='end'>{top}</text><text x='45' y='{plot_h + 12}' font-size='10' text-anchor='end'>0</text>")
    step = max(1, n_bins // 15)
    for b in range(n_bins):
        t = lo + b
        v = counts.get(t, 0)
        bh = plot_h * v / top
        x = 50 + b * bw
        if v:
            out.append(f"<rect x='{x + 1}' y='{plot_h + 10 - bh}' width='{max(1, bw - 2)}' height='{bh}' fill='#2f6db5'><title>{t} {label}: {v} games</title></rect>")
        if b % step == 0:
            out.append(f"<text x='{x + bw / 2}' y='{plot_h + 26}' font-size='10' text-anchor='middle'>{t}</text>")
    out.append(f"<text x='{50 + plot_w / 2}' y='{plot_h + 44}' font-size='11' text-anchor='middle'>game length ({_e(label)})</text></svg>")
    return "".join(out)


def _p(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.3g}"


def _pts(d: float | None) -> str:
    return "n/a" if d is None else f"{100 * d:+.1f} pts"


def impact_table(rows: Sequence[dict], card_names: dict[str, str]) -> str:
    """Per-card impact: win rate when played vs not, intervals, sample sizes, significance."""
    head = ("<table class='impact'><thead><tr><th>card</th><th>won when played</th><th>won when not played</th>"
            "<th>difference</th><th>in games of similar length</th><th>p (adjusted)</th><th></th></tr></thead><tbody>")
    body = []
    for r in rows:
        cls = " class='sig'" if r["significant"] else ""
        few = min(r["played"]["n"], r["not_played"]["n"]) < 10
        flag = "significant" if r["significant"] else ("too few games" if few else "")
        body.append(f"<tr{cls}><td>{_e(card_names.get(r['card'], r['card']))}</td><td>{_e(_rate_text(r['played']))}</td>"
                    f"<td>{_e(_rate_text(r['not_played']))}</td><td>{_pts(r['difference'])}</td>"
                    f"<td>{_pts(r['length_adjusted_difference'])}</td><td>{_p(r['length_adjusted_p_value'])}</td><td>{flag}</td></tr>")
    return head + "".join(body) + "</tbody></table>"


CSS = """
body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
h1{margin-bottom:.2em} .meta{color:#666} h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px} td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}
tr.sig{background:#fff3c4} .note{color:#555;font-size:13px} .figures td:first-child{font-weight:600}
pre.game-figures{overflow-x:auto;font-size:12px;background:#f7f7f7;padding:.6em}
"""


def _table_label(names: Sequence[str]) -> str:
    return " vs ".join(names)


def game_section(title: str, game_text: str | None) -> str:
    """The rules module's own figures (in balance.json under `game_figures`), as it words them."""
    if not game_text:
        return ""
    return (f"<h2>{_e(title)}: the game's own figures</h2><p class='note'>Figures the rules module adds "
            "for this game (also in balance.json under <code>game_figures</code>), in its own words.</p>"
            f"<pre class='game-figures'>{_e(game_text)}</pre>")


def run_section(run: Any) -> str:
    """Where the run went (machine-dependent, so kept out of balance.json)."""
    dash = f", Dask dashboard was {_e(run.dashboard)}" if run.dashboard else ""
    resumed = f"; {run.resumed:,} games read back from an earlier run" if run.resumed else ""
    start = f", of which {run.startup_seconds:.1f} s starting or reaching the cluster" if run.startup_seconds else ""
    return (f"<h2>Where it ran</h2><p class='note'>{_e(run.where)}: {run.worker_text}, {run.games:,} games in "
            f"{run.wall_seconds:.1f} s{start} ({run.games_per_second:.1f} games/s once it was up){resumed}{dash}. Nothing above "
            "depends on where or how fast the games were played.</p>")


def render_html(figures: dict[str, Any], cardset: CardSet, run: Any = None, game_text: str | None = None) -> str:
    """The balance report page; `game_text` (the rules module's own figures, e.g. Alien Empires' win
    rates per Race power) gets a section of its own."""
    if "common_deck" in figures:  # one deck in every seat: no deck standing (simulation/_common_deck.py)
        return render_common(figures, cardset.name, run_section(run) if run is not None else "")
    names = figures["decks"]
    players = figures.get("players", 2)
    fair = 1 / players  # a deck's fair share of wins at a table of `players`
    card_names = {c.id: c.name for c in cardset.cards}
    first_rows = [("all games (decided)", figures["first_player_wins_of_decided"])]
    first_rows += [(_table_label(t["table"]), t["first_player_wins_of_decided"]) for t in figures["tables"]]
    length = figures["length"]
    hits = figures["search_ceiling_hits"]
    seating = "seats alternating" if players == 2 else f"{players} seats, rotating so every deck sits in every seat"
    parts = [
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'><title>{_e(cardset.name)} balance</title><style>{CSS}{CARDS_CSS}</style></head><body>",
        f"<h1>{_e(cardset.name)}: balance report</h1>",
        verdict_html(figures["verdict"]) if figures.get("verdict") else "",
        f"<p class='meta'>{figures['games']} games ({figures['games_per_pairing']} per table, {seating}), "
        f"agent <b>{_e(figures['agent'])}</b> for every deck, rules <b>{_e(figures['game'])}</b>, seed {figures['seed']}"
        f"{', random legal decks (one per faction)' if figures['random_decks'] else ''}. "
        "Intervals are 95% Wilson intervals; a win is a first place, and draws count as games not won.</p>",
        "<table class='figures'>",
        f"<tr><td>first player wins</td><td>{_e(_rate_text(figures['first_player_wins']))} of all games; "
        f"{_e(_rate_text(figures['first_player_wins_of_decided']))} of decided games (the seat that actually acted first)</td></tr>",
        f"<tr><td>draws</td><td>{_e(_rate_text(figures['draws']))}</td></tr>",
        f"<tr><td>capped games</td><td>{_e(_rate_text(figures['capped']))} (stopped by the turn cap, counted as draws)</td></tr>",
        f"<tr><td>game length</td><td>mean {length.get('mean', 'n/a')} turns, median {length.get('median', 'n/a')}, "
        f"10-90%: {length.get('p10', 'n/a')}-{length.get('p90', 'n/a')}, range {length.get('min', 'n/a')}-{length.get('max', 'n/a')}</td></tr>",
        f"<tr><td>how games ended</td><td>{_e(', '.join(f'{k or chr(63)}: {v}' for k, v in figures['end_reasons'].items()))}</td></tr>",
        "</table>",
    ]
    if hits:
        parts.append(f"<p class='note'>{hits} search decisions hit the time ceiling: those games depend on the machine's speed.</p>")
    matchup_note = ("Each cell: the row deck's win rate against the column deck, with its interval." if players == 2 else
                    "Each cell: how often the row deck finished ahead of the column deck in games where both played.")
    parts += [
        f"<h2>Matchups</h2><p class='note'>{matchup_note}</p>",
        heatmap_svg(names, figures["matchups"]),
        f"<h2>Win rate per deck</h2><p class='note'>Over all its games against other decks; the dashed line is a fair share ({100 * fair:.0f}%).</p>",
        intervals_svg([(d["deck"], d["wins"]) for d in figures["deck_win_rates"]], fair),
        f"<h2>Win rate per seat</h2><p class='note'>Seat numbers as dealt; who acts first is the rules' business (see below). Dashed: {100 * fair:.0f}%.</p>",
        intervals_svg([(f"seat {r['seat']} (acted first in {r['acted_first']} games)", r["wins"]) for r in figures["seat_wins"]], fair),
    ]
    if figures.get("group_wins"):
        parts += ["<h2>Win rate per faction</h2><p class='note'>Seats whose deck holds one race or faction only.</p>",
                  intervals_svg([(g["group"], g["wins"]) for g in figures["group_wins"]], fair)]
    parts += [
        "<h2>First-player advantage</h2><p class='note'>Share of decided games won by the player who actually acted first; "
        f"an interval that misses the dashed {100 * fair:.0f}% line means going first matters.</p>",
        intervals_svg(first_rows, fair),
        "<h2>Game length</h2>",
        histogram_svg(length.get("histogram", {})),
        game_section(cardset.name, game_text),
        players_html(figures), tests_html(figures), agents_html(figures), comparison_html(figures), observed_html(figures),
        "<h2>Per-card impact, observational: win rate when played</h2><p class='note'>Observational, not causal"
        + (" (the card tests above are)" if figures.get("card_tests") else " (this run has no card tests: see above)")
        + ". For each card, over every game of a deck that holds it: the deck's win "
        "rate when the card was played against when it was not, with intervals and sample sizes. Cards come out more "
        "often in long games, so the raw difference flatters nearly every card; the adjusted column compares only games "
        "of similar length (Mantel-Haenszel over game-length quartiles), and highlighted rows are those where that "
        "adjusted difference is significant (p &lt; 0.05). Even so this is a correlation, not a cause: a card played "
        "only when already ahead shows up too; and with many cards, about one in twenty is flagged by chance alone.</p>",
        impact_table(figures["card_impact"], card_names),
        run_section(run) if run is not None else "",
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(out_dir: Path, figures: dict[str, Any], cardset: CardSet, run: Any = None,
                 game_text: str | None = None) -> tuple[Path, Path]:
    """Write balance/report.html and balance/balance.json (each atomically); return their paths.
    `game_text`: the game's own figures in its own words (`match.game_figures_text`), shown on the page.

    `run` (a `RunInfo`: where it ran, workers, wall time, games per second) goes into the page and
    run.json, never into balance.json, which is the same wherever the games were played."""
    out_dir = Path(out_dir)
    html_path = write_text(out_dir / "report.html", render_html(figures, cardset, run, game_text))
    json_path = write_text(out_dir / "balance.json", json.dumps(figures, indent=2) + "\n")
    if run is not None:
        write_text(out_dir / "run.json", json.dumps(run.to_dict(), indent=2) + "\n")
    return html_path, json_path


def _richer_report(folder: Path) -> dict[str, Any] | None:
    """The figures of the balance report in `folder` when it is richer than the build's own run (a
    stronger agent than random, or card tests); None when there is none, or it is the build's kind."""
    try:
        old = json.loads((folder / "balance" / "balance.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(old, dict) or (old.get("agent", "random") == "random" and not old.get("card_tests")):
        return None
    return old


def _keep_richer_report(ctx: Any, games: int) -> bool:
    """True when a richer, up-to-date balance report (from `cardsmith balance`; written after the last
    change to any file of the set) is kept instead of the build's short run; a stale one is
    replaced. The build's summary says which, and what the richer report was."""
    old = _richer_report(ctx.out)
    if old is None:
        return False
    report = ctx.out / "balance" / "report.html"
    written = (ctx.out / "balance" / "balance.json").stat().st_mtime
    fresh = all(p.stat().st_mtime <= written for p in Path(ctx.cardset.path).rglob("*") if p.is_file())
    what = (f"balance --agents {old.get('agent')}: {old.get('games', '?')} games, "
            f"{len(old.get('card_tests') or [])} card tests")
    if fresh:
        ctx.wrote(f"balance report kept ({what}; up to date, richer than the build's {games}-game run)", report)
        return True
    ctx.wrote(f"balance report replaced ({what}, older than the set's last change; `cardsmith balance` writes it again)",
              report)
    return False


def build_stage(ctx: Any) -> None:
    """`cardsmith build`: a short balance run (the game's competent player, a few games per table) for a set with rules."""
    from cardsmith.engine.registry import has_rules, load_game, unknown_rules_hint
    from cardsmith.simulation.match import run_balance
    from cardsmith.simulation.sets import SetGameFactory, deck_files, load_checked_deck, random_decks

    cardset = ctx.cardset
    if not cardset.rules:
        return
    if not has_rules(cardset):
        from cardsmith.base.diagnostics import Diagnostic

        where = cardset.source.file if cardset.source else cardset.path / "set.yaml"
        ctx.diagnostics.append(Diagnostic(
            "warning", where, cardset.source.line if cardset.source else 0, 0,
            f"balance: rules '{cardset.rules}' are not known to this cardsmith, so the set is not played",
            hint=unknown_rules_hint(cardset.rules)))
        return
    game = load_game(cardset)
    players = game.rules.players[0]
    decks: list[Deck] = [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]
    use_random = not decks or (len(decks) < 2 and players == 2)
    if use_random:
        decks = random_decks(cardset, seed=1)
    games = int(ctx.options.get("balance_games", 20))
    if _keep_richer_report(ctx, games):
        return
    # The game's competent player, as `balance` plays by default: a verdict on random play would
    # describe random play, not the game. Too few games here to measure it; the verdict says so.
    player = game.rules.competent_player()
    ctx.progress(f"balance: {games} games per table of {players} from {len(decks)} decks, played by {player}")
    result = run_balance(cardset, game, SetGameFactory(cardset.path), decks, player, games=games, seed=1,
                         jobs=1, random=use_random, players=players)
    from cardsmith.simulation.match import add_game_figures, game_figures_text
    from cardsmith.simulation._verdict import verdict

    figures = add_game_figures(result.figures(decks), game, result.records)
    figures["card_tests_note"] = "No card tests in the build's short run: `cardsmith balance SET` runs them."
    figures["verdict"] = verdict(figures)
    figures["verdict"]["sentences"].insert(0, (
        f"A short build run: {games} games per table by {player}, the game's competent player, not measured "
        f"against random here and with no card tests; `cardsmith balance {cardset.id}` gives a verdict you can act on."))
    html_path, json_path = write_report(ctx.out / "balance", figures, cardset, game_text=game_figures_text(game, figures))
    ctx.wrote("balance report", html_path)
    ctx.wrote("balance figures", json_path)
