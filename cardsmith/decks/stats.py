"""Deck statistics: counts per zone, type, race/faction and keyword, and the cost curve; a PNG chart."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.decks.rules import DeckRules, parse_rules
from cardsmith.model import CardSet, Deck


@dataclass(frozen=True)
class DeckStats:
    """What `cardsmith deck stats` prints. `curve` maps a cost to the number of cards of that cost
    (cards with a cost only); `cost_fields` says which fields make up the cost."""

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

    def to_json(self) -> dict[str, Any]:
        return {"deck": self.deck, "set": self.set_id, "total": self.total, "zones": self.zones,
                "types": self.types, "groups": self.groups, "keywords": self.keywords,
                "cost_fields": list(self.cost_fields), "curve": {str(k): v for k, v in self.curve.items()},
                "average_cost": self.average_cost,
                "per_zone": {z: {k: {str(a): b for a, b in d.items()} for k, d in v.items()} for z, v in self.per_zone.items()}}


def card_cost(card, cost_fields: tuple[str, ...]) -> int | None:
    """The sum of the card's cost fields, or None if it has none of them."""
    values = [card.fields.get(f) for f in cost_fields]
    values = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    return sum(values) if values else None


def deck_stats(deck: Deck, cardset: CardSet, rules: DeckRules | None = None) -> DeckStats:
    """Counts for a deck; unknown card ids are counted under type '?'."""
    rules = rules or parse_rules(cardset)
    cards = cardset.by_id()
    types: Counter = Counter()
    groups: Counter = Counter()
    keywords: Counter = Counter()
    curve: Counter = Counter()
    per_zone: dict[str, dict[str, Counter]] = {}
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
            group = cardset.group_of(card)
            groups[group.name if group else "none"] += n
            for k in card.keywords:
                keywords[cardset.keywords[k.id].name if k.id in cardset.keywords else k.id] += n
            cost = card_cost(card, rules.cost_fields)
            if cost is not None:
                curve[cost] += n
                pz["curve"][cost] += n
    costed = sum(curve.values())
    return DeckStats(
        deck.name, deck.set_id, deck.count(),
        {rules.zone_name(z): deck.count(z) for z in deck.zones},
        dict(types.most_common()), dict(groups.most_common()), dict(sorted(keywords.items(), key=lambda kv: (-kv[1], kv[0]))),
        dict(sorted(curve.items())), rules.cost_fields,
        round(sum(k * v for k, v in curve.items()) / costed, 2) if costed else None,
        {z: {k: dict(sorted(v.items(), key=lambda kv: str(kv[0]))) for k, v in d.items()} for z, d in per_zone.items()})


def write_chart(stats: DeckStats, target: Path | str) -> Path:
    """A PNG with the cost curve, the card types and the keywords of a deck (matplotlib, Agg backend)."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display: write files only, and never open a window
        import matplotlib.pyplot as plt
    except ImportError as e:
        from cardsmith.errors import CardsmithError
        raise CardsmithError("deck charts need matplotlib, which is not installed",
                             hint="pip install matplotlib") from e
    from cardsmith.atomic import atomic_path

    from matplotlib.ticker import MaxNLocator

    # Every cost from the cheapest to the dearest, so gaps in the curve show as gaps.
    curve = {str(k): stats.curve.get(k, 0) for k in range(min(stats.curve), max(stats.curve) + 1)} if stats.curve else {}
    panels = [("Cost curve" + (f" ({' + '.join(stats.cost_fields)})" if stats.cost_fields else ""), curve, "cost", True),
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
