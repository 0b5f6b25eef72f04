"""Deck statistics: counts per zone, type, group (of each dimension) and keyword, and the cost curve of
what the deck's chosen card (the account) actually pays, binned into readable buckets; a PNG chart."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.decks.plays import chosen_card, play_terms, zone_cards
from cardsmith.decks.costs import card_cost
from cardsmith.decks.rules import DeckRules, parse_rules
from cardsmith.sets.model import CardSet, Deck

__all__ = ["DeckStats", "card_cost", "cost_buckets", "deck_stats", "write_chart"]
BUCKET_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
MOST_BUCKETS = 12


@dataclass(frozen=True)
class DeckStats:
    """What `cardsmith deck stats` prints. `curve` maps a cost to the number of cards of that cost
    (cards with a cost only): the cost the deck's chosen card pays when the set has `played_by`
    rules, else the printed cost. `cost_fields` says which fields make up the cost. `groups` counts
    cards per group of the set's first dimension, `dimensions` per group of every dimension.
    `surcharges` lists the cards whose paid cost differs from the printed one, with the rules why."""

    deck: str
    set_id: str
    total: int
    zones: dict[str, int]
    types: dict[str, int]
    groups: dict[str, int]          # race or faction name (or "none") -> cards
    keywords: dict[str, int]
    curve: dict[int, int]
    cost_fields: tuple[str, ...]
    average_cost: float | None
    per_zone: dict[str, dict[str, dict[Any, int]]] = field(default_factory=dict)
    dimensions: dict[str, dict[str, int]] = field(default_factory=dict)
    chosen: str | None = None  # the name of the card that plays the others (the account)
    cost_label: str = ""       # "energy + minerals", or per type: "cost of Character, words of OOC"
    surcharges: list[dict[str, Any]] = field(default_factory=list)

    @property
    def buckets(self) -> list[tuple[str, int]]:
        """The cost curve as (label, cards) buckets: single costs, or ranges such as "100-199"."""
        return cost_buckets(self.curve)

    def to_json(self) -> dict[str, Any]:
        return {"deck": self.deck, "set": self.set_id, "total": self.total, "zones": self.zones,
                "types": self.types, "groups": self.groups, "keywords": self.keywords,
                "cost_fields": list(self.cost_fields), "curve": {str(k): v for k, v in self.curve.items()},
                "average_cost": self.average_cost, "buckets": [[label, n] for label, n in self.buckets],
                "dimensions": self.dimensions, "chosen": self.chosen, "surcharges": self.surcharges,
                "cost_label": self.cost_label,
                "per_zone": {z: {k: {str(a): b for a, b in d.items()} for k, d in v.items()} for z, v in self.per_zone.items()}}


def cost_buckets(curve: dict[int, int], most: int = MOST_BUCKETS) -> list[tuple[str, int]]:
    """The curve binned so it has at most `most` buckets, each as wide as a round number (1, 2, 5,
    10, 20, 25, 50, 100...) and starting at a multiple of it; empty buckets inside the range stay, so
    gaps show. Costs 0-9 stay one bar each; costs in the hundreds become "100-199", "200-299"..."""
    if not curve:
        return []
    lo, hi = min(curve), max(curve)
    width = next((w for w in BUCKET_WIDTHS if (hi // w - lo // w) < most), BUCKET_WIDTHS[-1])
    out = []
    for start in range(lo // width * width, hi + 1, width):
        n = sum(v for k, v in curve.items() if start <= k < start + width)
        out.append((str(start) if width == 1 else f"{start}-{start + width - 1}", n))
    return out


def deck_stats(deck: Deck, cardset: CardSet, rules: DeckRules | None = None) -> DeckStats:
    """Counts for a deck; unknown card ids are counted under type '?'."""
    rules = rules or parse_rules(cardset)
    cards = cardset.by_id()
    chosen = chosen_card(deck, rules, cards)
    others = zone_cards(deck, rules, cards)
    types: Counter = Counter()
    dims: dict[str, Counter] = {d.name: Counter() for d in cardset.dimensions.values()}
    keywords: Counter = Counter()
    curve: Counter = Counter()
    per_zone: dict[str, dict[str, Counter]] = {}
    surcharges: dict[str, dict[str, Any]] = {}
    for zone, entries in deck.zones.items():
        pz = per_zone.setdefault(zone, {"types": Counter(), "curve": Counter()})
        for cid, n in entries.items():
            card = cards.get(cid)
            if card is None:
                types["?"] += n
                continue
            tname = cardset.types[card.type].name if card.type in cardset.types else card.type
            types[tname] += n
            pz["types"][tname] += n
            for dim in cardset.dimensions.values():
                group = dim.groups.get(card.groups.get(dim.id, ""))
                dims[dim.name][group.name if group else "none"] += n
            for k in card.keywords:
                keywords[cardset.keywords[k.id].name if k.id in cardset.keywords else k.id] += n
            judged = rules.played_by is not None and chosen is not None and rules.played_by.checks(zone)
            terms = play_terms(card, chosen if judged else None, rules, cardset, others)
            cost = terms.paid if terms.playable else terms.printed
            if terms.paid != terms.printed and terms.printed is not None:
                s = surcharges.setdefault(cid, {"card": cid, "name": card.name, "copies": 0, "printed": terms.printed,
                                                "paid": terms.paid, "rules": terms.reasons})
                s["copies"] += n
            if cost is not None:
                curve[cost] += n
                pz["curve"][cost] += n
    costed = sum(curve.values())
    first = next(iter(dims.values()), Counter())
    return DeckStats(
        deck.name, deck.set_id, deck.count(),
        {rules.zone_name(z): deck.count(z) for z in deck.zones},
        dict(types.most_common()), dict(first.most_common()) if dims else {"none": deck.count()},
        dict(sorted(keywords.items(), key=lambda kv: (-kv[1], kv[0]))),
        dict(sorted(curve.items())), rules.cost_fields,
        round(sum(k * v for k, v in curve.items()) / costed, 2) if costed else None,
        {z: {k: dict(sorted(v.items(), key=lambda kv: str(kv[0]))) for k, v in d.items()} for z, d in per_zone.items()},
        dimensions={name: dict(c.most_common()) for name, c in dims.items()}, chosen=chosen.name if chosen else None,
        surcharges=list(surcharges.values()), cost_label=_cost_label(rules, cardset))


def _cost_label(rules: DeckRules, cardset: CardSet) -> str:
    if not rules.cost_by_type:
        return " + ".join(rules.cost_fields)
    return ", ".join(f"{' + '.join(fields)} of {cardset.types[t].name if t in cardset.types else t}"
                     for t, fields in rules.cost_by_type.items())


def write_chart(stats: DeckStats, target: Path | str) -> Path:
    """A PNG with the cost curve, the card types and the keywords of a deck (matplotlib, Agg backend)."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display: write files only, and never open a window
        import matplotlib.pyplot as plt
    except ImportError as e:
        from cardsmith.base.errors import CardsmithError
        raise CardsmithError("deck charts need matplotlib, which is not installed",
                             hint="pip install matplotlib") from e
    from cardsmith.base.atomic import atomic_path

    from matplotlib.ticker import MaxNLocator

    # Every bucket from the cheapest to the dearest, so gaps in the curve show as gaps.
    curve = dict(stats.buckets)
    title = "Cost curve" + (f" ({stats.cost_label})" if stats.cost_label else "") \
        + (f", paid by {stats.chosen}" if stats.chosen else "")
    panels = [(title, curve, "cost", True),
              ("Card types", stats.types, "", False),
              ("Keywords", stats.keywords, "", False)]
    panels = [p for p in panels if p[1]] or [("Cards per zone", stats.zones, "", False)]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), dpi=110, squeeze=False)
    colors = ["#2f6db5", "#c0392b", "#27ae60"]
    for ax, (title, data, xlabel, vertical), color in zip(axes[0], panels, colors):
        labels, values = list(data), list(data.values())
        if vertical:
            bars = ax.bar(labels, values, color=color, width=0.7)
            ax.set_xlabel(xlabel)
            if any(len(lbl) > 3 for lbl in labels):  # ranges such as "100-199" side by side would overlap
                ax.tick_params(axis="x", labelrotation=45, labelsize=8)
            ax.set_ylabel("cards")
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            bars = ax.barh(labels[::-1], values[::-1], color=color, height=0.6)
            ax.set_xlabel("cards")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_ylim(len(labels) - max(len(labels), 4) - 0.3, len(labels) - 0.3)  # one bar stays a bar, not a block
        ax.bar_label(bars, labels=[str(v) if v else "" for v in (values if vertical else values[::-1])], padding=2, fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.spines[["top", "right"]].set_visible(False)
        ax.margins(x=0.12) if not vertical else ax.margins(y=0.12)
    avg = f", average cost {stats.average_cost}" if stats.average_cost is not None else ""
    fig.suptitle(f"{stats.deck}: {stats.total} cards{avg}", fontsize=11)
    fig.tight_layout()
    target = Path(target)
    with atomic_path(target) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)
    return target
