"""Check a deck against its set's rules and report every violation, not just the first."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from cardsmith.decks.plays import chosen_card, describe, play_terms, zone_cards
from cardsmith.decks.predicates import run_predicate
from cardsmith.decks.rules import Count, DeckRules, Rule, parse_rules
from cardsmith.sets.model import Card, CardSet, Deck


@dataclass(frozen=True)
class Violation:
    """One broken rule: the rule's id, a sentence for people, the card ids involved and the numbers.

    `rule` is the id of the rule in the set's deck rules (e.g. `fleet-size`, `copies`,
    `no-more-than-one-legendary-card`), or `unknown-zone` / `unknown-card` for a deck that names
    things the set does not have. `counts` holds what was found and the bounds (`{"found": 62, "max": 60}`,
    or per card / per race). `zone` is the zone concerned, if one is.
    """

    rule: str
    message: str
    cards: tuple[str, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)
    zone: str | None = None
    kind: str = ""
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "name": self.name, "kind": self.kind, "zone": self.zone,
                "message": self.message, "cards": list(self.cards), "counts": dict(self.counts)}


def counter(deck: Deck, zones: tuple[str, ...] = ()) -> Counter:
    """Copies per card id over `zones` (all zones if empty)."""
    total: Counter = Counter()
    for z in zones or tuple(deck.zones):
        for cid, n in deck.zones.get(z, {}).items():
            total[cid] += n
    return total


def count_matching(deck: Deck, cards: Mapping[str, Card], count: Count) -> tuple[int, list[str]]:
    """How many cards of `count.zones` match its filter, and which card ids they are."""
    n, ids = 0, []
    for cid, k in counter(deck, count.zones).items():
        card = cards.get(cid)
        if card is not None and k > 0 and count.cards(card):
            n += k
            ids.append(cid)
    return n, ids


def check_deck(deck: Deck, cardset: CardSet, rules: DeckRules | None = None) -> list[Violation]:
    """Every rule `deck` breaks, in the order the set lists its rules (empty list: the deck is legal).

    Raises `RulesInvalid` if the set's deck rules themselves are wrong.
    """
    rules = rules or parse_rules(cardset)
    cards = cardset.by_id()
    out: list[Violation] = []

    if rules.zones:
        for z in deck.zones:
            if z not in rules.zones and sum(deck.zones[z].values()) != 0:
                out.append(Violation("unknown-zone", f"the set has no zone '{z}' (zones: {', '.join(rules.zones)})",
                                     tuple(deck.zones[z]), {"found": sum(deck.zones[z].values())}, z, "unknown-zone"))
    for z, entries in deck.zones.items():
        unknown = [cid for cid, n in entries.items() if cid not in cards and n]
        if unknown:
            out.append(Violation("unknown-card", f"{', '.join(unknown)}: not a card of set {cardset.id}",
                                 tuple(unknown), {cid: entries[cid] for cid in unknown}, z, "unknown-card"))
    refused = _refusals(deck, cardset, cards, rules)
    for rule in rules.rules:
        out.extend(refused.get(rule.id, []) if rule.kind == "played-by" else _check_rule(rule, deck, cardset, cards, rules))
    return out


def _refusals(deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> dict[str, list[Violation]]:
    """Per refusing term of `played_by`, a violation for each card the chosen card cannot play."""
    pb = rules.played_by
    chosen = chosen_card(deck, rules, cards)
    if pb is None or chosen is None:
        return {}
    out: dict[str, list[Violation]] = {}
    who = describe(chosen, cardset)
    others = zone_cards(deck, rules, cards)
    for zone, entries in deck.zones.items():
        if not pb.checks(zone):
            continue
        for cid, n in entries.items():
            if not n or cid not in cards:
                continue
            terms = play_terms(cards[cid], chosen, rules, cardset, others)
            t = terms.refused_by
            if t is not None:
                out.setdefault(t.id, []).append(Violation(
                    t.id, f"{who} cannot play {describe(cards[cid], cardset)}: {t.name}", (cid,), {cid: n}, zone, "played-by", t.name))
    return out


def _v(rule: Rule, message: str, cards=(), counts=None, zone=None) -> Violation:
    return Violation(rule.id, message, tuple(cards), dict(counts or {}), zone, rule.kind, rule.name)


def _check_rule(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    """The violations of one rule, by its kind's checker (`same-<dimension>` kinds share one)."""
    check = _CHECKS.get("same-" if rule.kind.startswith("same-") else rule.kind)
    if check is None:
        raise AssertionError(f"unknown rule kind {rule.kind}")
    return check(rule, deck, cardset, cards, rules)


def _zone_size(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    zone = rules.zones[rule.zones[0]]
    n = deck.count(zone.id)
    if (zone.min is not None and n < zone.min) or (zone.max is not None and n > zone.max):
        counts = {"found": n} | ({"min": zone.min} if zone.min is not None else {}) | ({"max": zone.max} if zone.max is not None else {})
        return [_v(rule, f"{zone.name} holds {n} cards; it must hold {zone.size_text()}",
                   list(deck.zones.get(zone.id, {})) if zone.max is not None and n > zone.max else [], counts, zone.id)]
    return []


def _zone_accepts(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    zone = rules.zones[rule.zones[0]]
    bad = {cid: n for cid, n in deck.zones.get(zone.id, {}).items() if n and cid in cards and not zone.accepts(cards[cid])}
    if bad:
        names = ", ".join(cards[c].name for c in bad)
        return [_v(rule, f"{zone.name} may hold only cards of {zone.accepts.text}; it holds {names}", bad, bad, zone.id)]
    return []


def _copies(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    out = []
    for cid, n in counter(deck, rule.zones).items():
        limit = rule.copy_limit(cid)
        if cid in cards and n > limit:
            where = f" in {', '.join(rules.zone_name(z) for z in rule.zones)}" if rule.zones else ""
            out.append(_v(rule, f"{n} copies of {cards[cid].name}{where}; at most {limit} allowed",
                          [cid], {"found": n, "max": limit}))
    return out


def _unique(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    assert rule.cards is not None
    out = []
    for cid, n in counter(deck).items():
        if cid in cards and n > 1 and rule.cards(cards[cid]):
            out.append(_v(rule, f"{n} copies of {cards[cid].name}, a unique card; a deck may hold one",
                          [cid], {"found": n, "max": 1}))
    return out


def _same_group(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    dim_id = rule.check or rule.kind.removeprefix("same-")
    dim = cardset.dimensions.get(dim_id)
    attr = dim.name.lower() if dim else dim_id
    groups: dict[str, list[str]] = {}
    sizes: Counter = Counter()
    for cid, n in counter(deck, rule.zones).items():
        g = cards[cid].groups.get(dim_id) if cid in cards else None
        if g and n:
            groups.setdefault(g, []).append(cid)
            sizes[g] += n
    if len(groups) > 1:
        what = ", ".join(f"{sizes[g]} {g}" for g in groups)
        # The odd ones out (the smaller groups) first: they are what a designer would remove.
        order = sorted(groups, key=lambda g: sizes[g])
        return [_v(rule, f"cards of more than one {attr}: {what}; a deck holds cards of one {attr} or of none",
                   [c for g in order for c in groups[g]], dict(sizes))]
    return []


def _limit(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    assert rule.count is not None
    if rule.when is not None and not rule.when.ok(count_matching(deck, cards, rule.when)[0]):
        return []
    n, ids = count_matching(deck, cards, rule.count)
    if rule.count.ok(n):
        return []
    counts = {"found": n} | ({"min": rule.count.min} if rule.count.min is not None else {}) \
        | ({"max": rule.count.max} if rule.count.max is not None else {})
    where = f" in {', '.join(rules.zone_name(z) for z in rule.zones)}" if rule.zones else ""
    cond = f" (applies because the deck holds {rule.when.bound_text()} cards of {rule.when.cards.text})" if rule.when else ""
    return [_v(rule, f"{rule.name}: {n} cards of {rule.count.cards.text}{where}; "
                     f"{rule.count.bound_text()} allowed{cond}", ids, counts, rule.zones[0] if len(rule.zones) == 1 else None)]


def _requires(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    zone = rule.zones[0]
    out = []
    entries = deck.zones.get(zone, {})
    for cid, n in entries.items():
        if not n or cid not in cards:
            continue
        if rule.cards is not None and not rule.cards(cards[cid]):
            out.append(_v(rule, f"{rule.name}: {cards[cid].name} in {rules.zone_name(zone)} is not a card of {rule.cards.text}",
                          [cid], {cid: n}, zone))
        if rule.also_in and deck.zones.get(rule.also_in, {}).get(cid, 0) < 1:
            out.append(_v(rule, f"{rule.name}: {cards[cid].name} in {rules.zone_name(zone)} is not in "
                                f"{rules.zone_name(rule.also_in)} too", [cid], {cid: n, rule.also_in: 0}, zone))
    return out


def _predicate(rule: Rule, deck: Deck, cardset: CardSet, cards: Mapping[str, Card], rules: DeckRules) -> list[Violation]:
    assert rule.check is not None
    return [_v(rule, p.message if p.message.startswith(rule.name) else f"{rule.name}: {p.message}", p.cards, p.counts)
            for p in run_predicate(rule.check, deck, cardset, rule.params)]


_Checker = Callable[[Rule, Deck, CardSet, Mapping[str, Card], DeckRules], list[Violation]]
# Each rule kind's checker; played-by rules are answered by `_refusals` for the whole deck at once.
_CHECKS: dict[str, _Checker] = {
    "zone-size": _zone_size, "zone-accepts": _zone_accepts, "copies": _copies, "unique": _unique,
    "same-": _same_group, "limit": _limit, "requires": _requires, "predicate": _predicate,
}
