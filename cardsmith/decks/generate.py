"""Random legal decks from a set's deck rules, reproducible for a seed (simulations need many decks).

The generator fills zones card by card, never adding a card that would break an upper bound (zone
size, copies, unique, a limit's max), first meeting each limit's minimum, then filling to a size
drawn from the zone's range. Whatever it builds is checked with `check_deck`; a deck that still
breaks a rule (a named predicate, say) is thrown away and another is drawn, so only legal decks
come out.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Mapping, Sequence

from cardsmith.decks.check import check_deck
from cardsmith.decks.plays import chosen_card, play_terms, zone_cards
from cardsmith.decks.rules import Count, DeckRules, Rule, parse_rules
from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Card, CardSet, Deck, frozen_map

ATTEMPTS = 60
OPEN_SIZE = 20  # a zone with a minimum but no maximum is filled up to minimum + this, at most


def _resolve_group(cardset: CardSet, rules: DeckRules, faction: str | None, rng: random.Random) -> tuple[str | None, str | None]:
    """(dimension id, group id): which group (race, faction...) the deck is of, if any."""
    if faction is not None:
        for dim in cardset.dimensions.values():
            group = dim.group(faction)
            if group is not None:
                return dim.id, group.id
        known = [gid for dim in cardset.dimensions.values() for gid in dim.groups]
        what = " or ".join(d.name.lower() for d in cardset.dimensions.values()) or "race or faction"
        raise CardsmithError(f"set {cardset.id} has no {what} '{faction}'",
                             hint=did_you_mean(faction, known) or (f"choose one of: {', '.join(known)}" if known else "the set has none"))
    dims = [r.check for r in rules.rules if r.kind.startswith("same-") and r.check]
    if not dims:
        return None, None
    attr = dims[0]
    order = list(cardset.dimensions[attr].groups) if attr in cardset.dimensions else []
    present = sorted({c.groups[attr] for c in cardset.cards if c.groups.get(attr)},
                     key=lambda g: order.index(g) if g in order else 0)
    return (attr, rng.choice(present)) if present else (None, None)


class _Builder:
    def __init__(self, cardset: CardSet, rules: DeckRules, attr: str | None, group: str | None, rng: random.Random):
        self.cardset, self.rules, self.rng = cardset, rules, rng
        self.attr, self.group = attr, group
        self.cards: Mapping[str, Card] = cardset.by_id()
        self.zones: dict[str, Counter] = {z: Counter() for z in rules.zones}
        self.pool = [c for c in cardset.cards if attr is None or c.groups.get(attr) in (None, group)]
        self.limits = [r for r in rules.rules if r.kind == "limit"]
        self.copies = rules.of_kind("copies")
        self.unique = rules.of_kind("unique")

    def count(self, count: Count) -> int:
        zones = count.zones or tuple(self.zones)
        return sum(n for z in zones for cid, n in self.zones[z].items() if count.cards(self.cards[cid]))

    def total(self, cid: str, zones: tuple[str, ...] = ()) -> int:
        return sum(self.zones[z][cid] for z in zones or tuple(self.zones))

    def fits(self, zone: str, cid: str) -> bool:
        """Can one more copy of `cid` go into `zone` without breaking an upper bound?"""
        z = self.rules.zones[zone]
        if z.max is not None and sum(self.zones[zone].values()) + 1 > z.max:
            return False
        self.zones[zone][cid] += 1
        try:
            for r in self.copies:
                if (not r.zones or zone in r.zones) and self.total(cid, r.zones) > r.copy_limit(cid):
                    return False
            for r in self.unique:
                assert r.cards is not None  # parse_rules gives every unique rule its filter
                if r.cards(self.cards[cid]) and self.total(cid) > 1:
                    return False
            for r in self.limits:
                assert r.count is not None
                # Evaluated after the tentative add, so a card that switches on a conditional limit
                # the deck would then break (a Chain card in a deck with spells) is refused too.
                if r.count.max is not None and (r.when is None or r.when.ok(self.count(r.when))) \
                        and self.count(r.count) > r.count.max:
                    return False
            return True
        finally:
            self.zones[zone][cid] -= 1
            if not self.zones[zone][cid]:
                del self.zones[zone][cid]

    def candidates(self, zone: str, extra: Count | None = None, requires: Sequence[Rule] = ()) -> list[str]:
        z = self.rules.zones[zone]
        out = []
        for c in self.pool:
            if not z.accepts(c) or (extra is not None and not extra.cards(c)):
                continue
            if any(r.cards is not None and not r.cards(c) for r in requires):
                continue
            if any(r.also_in and self.zones[r.also_in][c.id] < 1 for r in requires):
                continue
            out.append(c.id)
        return out

    def add_some(self, zone: str, ids: list[str], want: int) -> int:
        """Add up to `want` cards drawn from `ids`, a few copies at a time; how many were added."""
        added = 0
        ids = list(ids)
        while added < want and ids:
            # The chosen race's or faction's own cards come up three times as often as neutral ones,
            # so a "Chain deck" is mostly Chain cards rather than whatever is neutral.
            cid = self.rng.choices(ids, weights=[3 if self.attr and self.cards[c].groups.get(self.attr) == self.group else 1
                                                 for c in ids])[0]
            if not self.fits(zone, cid):
                ids.remove(cid)
                continue
            for _ in range(self.rng.randint(1, max(1, min(4, want - added)))):
                if added >= want or not self.fits(zone, cid):
                    break
                self.zones[zone][cid] += 1
                added += 1
        return added

    def fill(self) -> None:
        requires = self.rules.of_kind("requires")
        # Zones that must repeat cards of another zone (homeworld also in assets) come last.
        # The zone of the chosen card (the account) comes first: the others hold only what it may play.
        chooser = self.rules.played_by.zone if self.rules.played_by else None
        order = sorted(self.rules.zones, key=lambda zid: (zid != chooser, any(r.zones[0] == zid and r.also_in for r in requires)))
        for i, zid in enumerate(order):
            if i == 1 and order[0] == chooser:
                self.keep_playable()
            z = self.rules.zones[zid]
            reqs = [r for r in requires if r.zones[0] == zid]
            lo = z.min or 0
            hi = z.max if z.max is not None else lo + (OPEN_SIZE if lo else 1 + self.rng.randrange(OPEN_SIZE))
            target = self.rng.randint(lo, hi)
            for r in self.limits:
                assert r.count is not None
                if r.count.min and (not r.count.zones or zid in r.count.zones) and \
                        (r.when is None or r.when.ok(self.count(r.when))):
                    need = r.count.min - self.count(r.count)
                    if need > 0:
                        self.add_some(zid, self.candidates(zid, r.count, reqs), need)
            have = sum(self.zones[zid].values())
            if have < target:
                self.add_some(zid, self.candidates(zid, None, reqs), target - have)

    def keep_playable(self) -> None:
        """Drop from the pool the cards the chosen card (once there is one) may not play."""
        deck = self.deck("")
        chosen = chosen_card(deck, self.rules, self.cards)
        if chosen is not None:
            others = zone_cards(deck, self.rules, self.cards)  # zones not filled yet hold None
            self.pool = [c for c in self.pool if play_terms(c, chosen, self.rules, self.cardset, others).playable]

    def deck(self, name: str) -> Deck:
        order = {c.id: i for i, c in enumerate(self.cardset.cards)}
        zones = {z: frozen_map({cid: n for cid, n in sorted(cnt.items(), key=lambda kv: order[kv[0]]) if n})
                 for z, cnt in self.zones.items()}
        return Deck(name, self.cardset.id, frozen_map(zones))


def random_deck(cardset: CardSet, seed: int = 0, faction: str | None = None, rules: DeckRules | None = None) -> Deck:
    """A random deck that passes `check_deck`, the same for the same set, seed and faction.

    `faction` names a race or faction (id or name, any case): the deck holds only its cards and
    cards of no race/faction. Raises CardsmithError if no legal deck can be found.
    """
    rules = rules or parse_rules(cardset)
    if not rules.zones:
        raise CardsmithError(f"set {cardset.id} declares no deck zones, so there is nothing to build",
                             hint="add deck_rules: {zones: ...} to its set.yaml (see docs/decks.md)")
    rng = random.Random(f"{cardset.id}:{seed}:{faction or ''}")
    last: list = []
    for _ in range(ATTEMPTS):
        attr, group = _resolve_group(cardset, rules, faction, rng)
        b = _Builder(cardset, rules, attr, group, rng)
        b.fill()
        label = f" ({cardset.dimensions[attr].groups[group].name})" if attr and group and attr in cardset.dimensions else ""
        deck = b.deck(f"Random {cardset.name}{label} deck, seed {seed}")
        last = check_deck(deck, cardset, rules)
        if not last:
            return deck
    detail = "; ".join(v.message for v in last[:5])
    raise CardsmithError(f"could not build a legal deck of set {cardset.id} in {ATTEMPTS} tries; the last one broke: {detail}",
                         hint="the deck rules may contradict each other, or the set has too few cards for them"
                              + (f" (for {faction})" if faction else ""))
