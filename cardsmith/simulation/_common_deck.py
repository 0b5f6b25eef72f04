"""Balance for common-deck games (TransWar, Alien Empires): every seat draws from one shared deck,
so there is no deck standing to report; what a designer asks is which cards (Forms, Race powers)
help whoever gets them, and whether that holds at every table size.

**The experiment.** The shuffle deals each seat its starting hand at random (the state's
`cards_dealt`, read straight after setup; not the hand once the first player is known, which in
Alien Empires has already lost the Race cards chosen for the Racial Destiny), so "the seats dealt the
card against the seats not dealt it" is a randomised experiment: the difference is causal (the
effect of being dealt the card, whether or not it is then played). Every game measures every card
at once, so one set of games answers for the whole deck; an intervention (a filler in the card's
place, paired seeds) would need a set of games per card, and is kept for the games whose cards the
deal cannot reach (see docs/simulation.md, "Common-deck games").

**The estimate.** In every game the seats' returns (`Outcome.returns()`: share of the other seats
finished ahead of, draws half) average exactly 0.5, so with `m` the mean return of the seats dealt
the card and `p` the share of seats dealt it, the holders-minus-others difference is
`(m - 0.5) / (1 - p)`. Its standard error treats each game as one unit (a card with several copies
may be dealt to two seats of one game, whose returns are not independent). Table sizes are
estimated apart and pooled by inverse variance (returns are on the same 0-1 scale at every size).

**The size of the run.** Games are played in rounds (a batch at every table size) until every
card's pooled 95% interval is at most +-TARGET wide, or the budget (games, or seconds: stopping
only between rounds) is spent; then the cards still wider are listed with the games they would
need. Stopping on the intervals' width, not on their position, needs no correction for looking.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from cardsmith.engine.chance import game_seed
from cardsmith.engine.contract import Game, balance_figures, balance_sentences, cards_dealt
from cardsmith.engine.runner import GameRecord, GameTask
from cardsmith.engine.stats import Z95
from cardsmith.sets.model import CardSet, Deck
from cardsmith.simulation._inference import FDR, MARGIN, flag_rows, two_sided

TARGET = 0.10          # the interval every card's effect is sized to: +-10 points
SIZES = (2, 3, 4)      # table sizes a default run plays (those the rules allow); --all-sizes: every one
BATCH = 120            # games per table size per round: a multiple of 2, 3, 4, 5 and 6 (seats rotate)
SECONDS = 480.0        # default time budget: rounds stop starting after 8 minutes (a run ends within 10)
MIN_HOLDERS = 10       # fewer seats dealt a card than this at a size say too little to estimate it
KINDS = {"form": "Form", "race": "Race power"}


def is_common_deck(game: Game, decks: Sequence[Deck]) -> bool:
    """One deck that every seat draws from, and rules that can say what each seat was dealt."""
    return len(decks) == 1 and getattr(game.rules, "cards_in_hand", None) is not None


def table_sizes(rules: Any, players: int | None = None, all_sizes: bool = False) -> tuple[int, ...]:
    """The sizes a run plays: `players` alone, every size the rules allow, or SIZES within them."""
    lo, hi = rules.players
    if players is not None:
        return (players,)
    if all_sizes:
        return tuple(range(lo, hi + 1))
    return tuple(s for s in SIZES if lo <= s <= hi) or (lo,)


@dataclass
class Tally:
    """Per (size, card): per game with a holder, (holders' summed return, holders, draws), and the
    seats counted at that size."""

    games: dict[tuple[int, str], list[tuple[float, int, int]]] = field(default_factory=dict)
    seats: dict[int, int] = field(default_factory=dict)
    records: dict[int, list[GameRecord]] = field(default_factory=dict)

    def add(self, record: GameRecord, opening: Sequence[frozenset[str]], cards: Sequence[str]) -> None:
        n = record.seats
        self.seats[n] = self.seats.get(n, 0) + n
        self.records.setdefault(n, []).append(record)
        returns = record.returns()
        draw = int(record.is_draw)
        for card in cards:
            holders = [s for s in range(n) if card in opening[s]]
            if holders:
                self.games.setdefault((n, card), []).append((sum(returns[s] for s in holders), len(holders), draw))

    def effect(self, size: int, card: str) -> dict[str, Any] | None:
        """The card's effect at one size (None: too few holders to say)."""
        rows = self.games.get((size, card), [])
        held = sum(r[1] for r in rows)
        if held < MIN_HOLDERS or len(rows) < 2:
            return None
        m = sum(r[0] for r in rows) / held
        p = held / self.seats[size]
        g = len(rows)
        # Ratio estimator with games as clusters: the holders of one game share its fate.
        var = sum((r[0] - m * r[1]) ** 2 for r in rows) / held ** 2 * g / (g - 1)
        se = max(math.sqrt(var), 0.5 / held) / (1 - p)
        return {"effect": (m - 0.5) / (1 - p), "se": se, "holders": held, "games": len(self.records[size]),
                "draws_with": sum(r[2] * r[1] for r in rows)}


def pooled(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Inverse-variance pooling of the sizes' effects, with a 95% normal interval and p-value."""
    w = [1 / (p["se"] ** 2) for p in parts]
    mean = sum(wi * p["effect"] for wi, p in zip(w, parts)) / sum(w)
    se = 1 / math.sqrt(sum(w))
    return {"effect": mean, "se": se, "low": mean - Z95 * se, "high": mean + Z95 * se,
            "p_value": two_sided(mean / se, math.inf) if se > 0 else 1.0}


def card_rows(tally: Tally, cardset: CardSet, deck: Deck, sizes: Sequence[int]) -> tuple[list[dict], list[dict]]:
    """One row per card of the deck (as `card_tests` rows), and the cards no size could estimate."""
    by_id = {c.id: c for c in cardset.cards}
    rows, untested = [], []
    for card in dict.fromkeys(deck.cards()):
        c = by_id.get(card)
        name, kind = (c.name, c.type) if c is not None else (card, "")
        per = {k: tally.effect(k, card) for k in sizes}
        parts = [e for e in per.values() if e is not None]
        if not parts:
            dealt = sum(r[1] for k in sizes for r in tally.games.get((k, card), []))
            why = ("never dealt in an opening hand: the rules leave it out of the deck, or it is never in a hand at "
                   "setup" if not dealt else f"dealt to only {dealt} seats; a size needs {MIN_HOLDERS}")
            untested.append({"card": card, "name": name, "kind": KINDS.get(kind, kind), "reason": why})
            continue
        pool = pooled(parts)
        rows.append({
            "deck": deck.name, "card": card, "name": name, "kind": KINDS.get(kind, kind or "card"),
            "method": "dealt by the game", "filler": None,
            "effect": round(pool["effect"], 6), "low": round(pool["low"], 6), "high": round(pool["high"], 6),
            "se": round(pool["se"], 6), "looks": 1, "p_value": round(pool["p_value"], 8),
            "games": sum(e["games"] for e in parts), "holders": sum(e["holders"] for e in parts),
            "draws_with": sum(e["draws_with"] for e in parts), "draws_without": 0,
            "by_size": {str(k): (None if e is None else _size_row(e)) for k, e in per.items()},
        })
    flag_rows(rows)
    rows.sort(key=lambda r: (r["flag"] is None, r["flag"] or "", -abs(r["effect"]) if r["flag"] else -max(r["low"], -r["high"])))
    return rows, untested


def _size_row(e: dict[str, Any]) -> dict[str, Any]:
    low, high = e["effect"] - Z95 * e["se"], e["effect"] + Z95 * e["se"]
    return {"effect": round(e["effect"], 6), "low": round(low, 6), "high": round(high, 6), "holders": e["holders"],
            "games": e["games"], "sign": 1 if low > 0 else (-1 if high < 0 else 0)}


def unresolved(rows: Sequence[dict[str, Any]], games: int, target: float = TARGET) -> list[dict[str, Any]]:
    """Cards whose interval is wider than +-target, with the games (all sizes) a run would need:
    an interval narrows as one over the square root of the games."""
    out = []
    for r in rows:
        half = (r["high"] - r["low"]) / 2
        if half > target:
            out.append({"card": r["card"], "name": r["name"], "half_width": round(half, 6),
                        "games_needed": int(math.ceil(games * (half / target) ** 2))})
    return sorted(out, key=lambda u: -u["half_width"])


class Deal:
    """What each seat of a recorded game was dealt: the state's `cards_dealt` straight after setup
    (the game set up again from the record's seed), or else the opening hand the rules'
    `cards_in_hand` reads then."""

    def __init__(self, game: Game, deck: Deck):
        self.game, self.deck = game, deck
        self.hand = game.rules.cards_in_hand

    def of(self, record: GameRecord) -> list[frozenset[str]]:
        state = self.game.new_game([self.deck] * record.seats, record.seed)
        seats = range(record.seats)
        if cards_dealt(state, 0) is not None:
            return [cards_dealt(state, s) or frozenset() for s in seats]
        hand = self.hand
        assert hand is not None  # is_common_deck asked for it
        return [frozenset(hand(state, s)) for s in seats]


@dataclass
class Plan:
    """What a common-deck run may spend: `budget` games in all, `seconds` of wall time (None: no
    limit), `target` the interval half-width it plays for."""

    sizes: tuple[int, ...]
    budget: int
    seconds: float | None = SECONDS
    target: float = TARGET
    batch: int = BATCH


def round_tasks(plan: Plan, agent: str, seed: int, done: dict[int, int], batch: int) -> list[GameTask]:
    """The next `batch` games at every size; game i at size k has seed game_seed(game_seed(seed, k), i)
    and seats rotating (one deck, so rotation only moves who sits where in the run's order)."""
    tasks, index = [], sum(done.values())
    for k in plan.sizes:
        for i in range(done.get(k, 0), done.get(k, 0) + batch):
            tasks.append(GameTask(index, game_seed(game_seed(seed, k), i), (0,) * k, (agent,) * k))
            index += 1
    return tasks


def play_sized(game: Game, factory: Callable[[], Game] | None, deck: Deck, agent: str, plan: Plan, *, seed: int,
               play: Callable[[list[GameTask]], list[GameRecord]], clock: Callable[[], float] = time.monotonic,
               ) -> tuple[Tally, dict[str, Any]]:
    """Rounds of games until every card is resolved or the plan's budget is spent (module notes)."""
    deal = Deal(game, deck)
    cards = list(dict.fromkeys(deck.cards()))
    tally, done = Tally(), {k: 0 for k in plan.sizes}
    start, rounds, stop = clock(), 0, "every card's interval within the target"
    while True:
        left = plan.budget - sum(done.values())
        batch = min(plan.batch, left // len(plan.sizes))
        batch -= batch % math.lcm(*plan.sizes) if batch >= math.lcm(*plan.sizes) else 0
        if batch < 1:
            stop = "game budget spent"
            break
        for record in play(round_tasks(plan, agent, seed, done, batch)):
            tally.add(record, deal.of(record), cards)
        for k in plan.sizes:
            done[k] += batch
        rounds += 1
        if _resolved(tally, plan, cards):
            break
        if plan.seconds is not None and clock() - start >= plan.seconds:
            stop = "time budget spent"
            break
    return tally, {"rounds": rounds, "stopped": stop, "games_by_size": {str(k): v for k, v in done.items()},
                   "seconds_budget": plan.seconds, "games_budget": plan.budget, "target": plan.target}


def _resolved(tally: Tally, plan: Plan, cards: Sequence[str]) -> bool:
    """Every card dealt at all has a pooled interval within the target."""
    for c in cards:
        parts = [e for e in (tally.effect(k, c) for k in plan.sizes) if e is not None]
        dealt = any(tally.games.get((k, c)) for k in plan.sizes)
        if not parts:
            if dealt:
                return False
            continue
        if Z95 * pooled(parts)["se"] > plan.target:
            return False
    return True


def size_figures(tally: Tally, game: Game, deck: Deck, agent: str, seed: int) -> list[dict[str, Any]]:
    """Per table size: seat results, first player, draws, capped share, length, the game's own figures
    and its sentences."""
    from cardsmith.simulation.match import BalanceResult

    out = []
    for k in sorted(tally.records):
        recs = tally.records[k]
        base = BalanceResult("", "", game.name, [deck.name], agent, len(recs), seed, False, recs, k).figures([deck])
        own = balance_figures(game, recs)
        row = {"players": k, "games": len(recs), **{key: base[key] for key in (
            "seat_wins", "first_player_wins", "first_player_wins_of_decided", "draws", "capped", "end_reasons", "length")}}
        if own is not None:
            row["game_figures"] = dict(own)
            row["game_sentences"] = balance_sentences(game, own) or []
        out.append(row)
    return out


def common_deck_figures(cardset: CardSet, game: Game, factory: Callable[[], Game] | None, deck: Deck, agent: str,
                        plan: Plan, *, seed: int, play: Callable[[list[GameTask]], list[GameRecord]],
                        ) -> tuple[dict[str, Any], list[GameRecord]]:
    """Every figure of a common-deck balance run (what balance.json holds) and the smallest table's
    records (for the figures the other games also have)."""
    from cardsmith.simulation.match import BalanceResult

    tally, how = play_sized(game, factory, deck, agent, plan, seed=seed, play=play)
    rows, untested = card_rows(tally, cardset, deck, plan.sizes)
    games = sum(len(v) for v in tally.records.values())
    first = min(tally.records) if tally.records else plan.sizes[0]
    recs = tally.records.get(first, [])
    figures = BalanceResult(cardset.id, cardset.name, game.name, [deck.name], agent, len(recs), seed, False, recs,
                            first).figures([deck])
    figures.update({
        "games": games, "card_tests": rows, "fdr": FDR, "margin": MARGIN, "budget": plan.budget, "study_games": games, "looks": 1,
        "untested_cards": untested, "card_impact": [], "matchups": [], "deck_win_rates": [],
        "common_deck": {"deck": deck.name, "sizes": list(plan.sizes), **how,
                        "unresolved": unresolved(rows, games, plan.target),
                        "by_size": size_figures(tally, game, deck, agent, seed)},
    })
    figures["verdict"] = common_verdict(figures)
    return figures, recs


def _pts(r: dict[str, Any]) -> str:
    return f"{100 * r['effect']:+.1f} points [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def where_it_holds(row: dict[str, Any]) -> str:
    """'at every size', or the sizes where the card's own interval clears zero the same way."""
    sign = 1 if row["effect"] > 0 else -1
    sizes = [k for k, e in row["by_size"].items() if e is not None]
    holds = [k for k in sizes if row["by_size"][k]["sign"] == sign]
    if len(holds) == len(sizes):
        return f"at every size measured ({', '.join(sizes)} players)"
    if not holds:
        return "pooled over the sizes only (no single size clears zero on its own)"
    return (f"at {', '.join(holds)} players only (at {', '.join(k for k in sizes if k not in holds)} "
            "the interval includes zero)")


def card_sentence(r: dict[str, Any]) -> str:
    return f"{r['name']} ({r['kind']}), {_pts(r)} for the seat dealt it, {where_it_holds(r)}"


def common_verdict(figures: dict[str, Any]) -> dict[str, Any]:
    """The verdict of a common-deck run: cards flagged and where, the games' own figures, what is
    left untested or unresolved, seat advantage per size, and whether the games ended."""
    from cardsmith.simulation._verdict import CAP_WARNING

    cd, rows = figures["common_deck"], figures["card_tests"]
    out = [f"Every seat plays the common deck {cd['deck']}, so no deck stands out or falls behind: the cards do. "
           "The shuffle deals the starting hands at random, so a card's effect (the seats dealt it against the "
           "others) is causal."]
    for flag in ("too strong", "too weak"):
        flagged = [r for r in rows if r["flag"] == flag]
        if flagged:
            out.append(f"{flag.capitalize()}: " + "; ".join(card_sentence(r) for r in flagged[:5])
                       + (f"; and {len(flagged) - 5} more" if len(flagged) > 5 else "") + ".")
    total = len(rows) + len(figures["untested_cards"])
    out.append(f"{sum(1 for r in rows if r['flag'])} of {len(rows)} card tests flagged: effect beyond "
               f"+-{100 * MARGIN:.0f} points at a {100 * FDR:.0f}% false discovery rate (Benjamini-Hochberg); "
               f"{len(rows)} of {total} cards tested, "
               f"{len(figures['untested_cards'])} untested.")
    for u in figures["untested_cards"]:
        out.append(f"Untested: {u['name']} ({u['kind']}): {u['reason']}.")
    if cd["unresolved"]:
        worst = cd["unresolved"][0]
        out.append(f"Unresolved ({cd['stopped']}): {len(cd['unresolved'])} cards' intervals are wider than "
                   f"+-{100 * cd['target']:.0f} points, the widest {worst['name']} (+-{100 * worst['half_width']:.1f}); "
                   f"about {max(u['games_needed'] for u in cd['unresolved']):,} games in all would resolve them "
                   f"(this run played {figures['games']:,}).")
    else:
        out.append(f"Every tested card's interval is within +-{100 * cd['target']:.0f} points "
                   f"({figures['games']:,} games over {', '.join(str(k) for k in cd['sizes'])} players).")
    trusted = True
    for size in cd["by_size"]:
        out += _size_sentences(size)
        capped = size["capped"]
        if capped["n"] and capped["rate"] > CAP_WARNING:
            trusted = False
            out.append(f"Do not trust the {size['players']}-player figures: {100 * capped['rate']:.1f}% of games "
                       f"were stopped by a cap (agent {figures['agent']}).")
    return {"sentences": out, "strong_decks": [], "weak_decks": [], "causes": [], "trusted": trusted,
            "flagged": [{"card": r["card"], "flag": r["flag"], "holds": where_it_holds(r)} for r in rows if r["flag"]]}


def _size_sentences(size: dict[str, Any]) -> list[str]:
    """Seat advantage and length at one table size, then the game's own sentences for it."""
    k, fair = size["players"], 1 / size["players"]
    first = size["first_player_wins_of_decided"]
    pct = lambda r: f"{100 * r['rate']:.1f}% [{100 * r['low']:.0f}-{100 * r['high']:.0f}]"  # noqa: E731
    if first["n"] and (first["low"] > fair or first["high"] < fair):
        word = "an advantage" if first["low"] > fair else "a disadvantage"
        seat = f"going first is {word} ({pct(first)} of decided games; fair {100 * fair:.0f}%)"
    elif first["n"]:
        seat = f"going first: no measurable advantage ({pct(first)}, fair {100 * fair:.0f}%)"
    else:
        seat = "no decided games"
    n = {key: (f"{v:.0f}" if isinstance(v, (int, float)) else "n/a") for key, v in size["length"].items()
         if key in ("mean", "p10", "p90")}
    lines = [f"At {k} players ({size['games']:,} games): {seat}; games last {n.get('mean', 'n/a')} turns "
             f"on average (10-90%: {n.get('p10', 'n/a')}-{n.get('p90', 'n/a')})."]
    lines += [f"At {k} players: {s}" for s in size.get("game_sentences", [])]
    return lines
