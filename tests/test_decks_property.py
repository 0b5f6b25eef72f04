"""Property tests: random legal decks always pass, and breaking one rule is reported as exactly that rule."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardsmith.decks import check_deck, parse_rules, play_terms, random_deck
from cardsmith.sets.model import Deck, frozen_map
from cardsmith.sets.validate import load_set

FIX = Path(__file__).parent / "fixtures" / "decks" / "cards"
SPACE = load_set(FIX / "space")
TRF = load_set(FIX / "trf")
RULES = {"space": parse_rules(SPACE), "trf": parse_rules(TRF)}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def zones_of(deck: Deck) -> dict[str, Counter]:
    return {z: Counter(dict(e)) for z, e in deck.zones.items()}


def as_deck(zones: dict[str, Counter], set_id: str) -> Deck:
    return Deck("mutant", set_id, frozen_map({z: frozen_map({c: n for c, n in cnt.items() if n > 0}) for z, cnt in zones.items()}))


def take(zone: Counter, n: int, keep=lambda cid: True) -> bool:
    """Remove `n` copies from `zone`, only of cards `keep` allows; False if there are not enough."""
    for cid in sorted(zone):
        while n and zone[cid] > 0 and keep(cid):
            zone[cid] -= 1
            n -= 1
    return n == 0


def race_of(cs, deck_zones) -> str | None:
    races = {cs.card(c).race for z in deck_zones.values() for c, n in z.items() if n} - {None}
    return races.pop() if len(races) == 1 else None


# Each mutation takes a legal deck's zones and breaks one rule of the `space` or `trf` fixture set,
# returning False when this deck cannot be mutated that way (hypothesis then draws another).

def m_fleet_size(cs, z):
    return take(z["fleet"], sum(z["fleet"].values()) - 11)


def m_fleet_cards(cs, z):
    if not take(z["fleet"], 1):
        return False
    z["fleet"]["quark-star"] += 1
    return True


def m_copies(cs, z):
    fleet = z["fleet"]
    pick = next((c for c in sorted(fleet) if not cs.card(c).has_keyword("legendary") and cs.card(c).get("class") != "battleship"), None)
    if pick is None:
        return False
    need = 4 - fleet[pick]
    fleet[pick] = 4
    return take(fleet, need, lambda c: c != pick)


def m_same_race(cs, z):
    race = race_of(cs, z)
    if race is None:
        return False
    other = "infected-rapier" if race != "shadow" else "rapier"  # never a Chain card: that may switch on the spell rule
    if not take(z["fleet"], 1):
        return False
    z["fleet"][other] += 1
    return True


def m_legendary(cs, z):
    legendary = sum(n for zone in z.values() for c, n in zone.items() if cs.card(c).has_keyword("legendary"))
    add = 2 - legendary
    bodies = z["solar_bodies"]
    if not take(bodies, add, lambda c: cs.card(c).type == "solar_body" and c != "forge-world"):
        return False
    bodies["forge-world"] += add
    return True


def m_chain_spell(cs, z):
    if race_of(cs, z) != "chain" or not take(z["fleet"], 1):
        return False
    z["fleet"]["psychic-storm"] += 1
    return True


def m_battleships(cs, z):
    race = race_of(cs, z)
    ship = {"terracorp": "battleaxe", "chain": "mothership", "shadow": "hive-ship"}.get(race)
    fleet = z["fleet"]
    have = sum(n for c, n in fleet.items() if cs.card(c).get("class") == "battleship")
    if ship is None or fleet[ship] + 3 - have > 3:
        return False
    add = 3 - have
    if not take(fleet, add, lambda c: cs.card(c).get("class") != "battleship"):
        return False
    fleet[ship] += add
    return True


def _not_homeworld(z):
    hw = set(z["homeworld"])
    return lambda c: c not in hw or z["assets"][c] > 1


def raise_to(z, pick: str, n: int) -> bool:
    """`pick` to `n` copies in the assets, the extra copies taken out of other cards (never the homeworld's)."""
    a = z["assets"]
    need = n - a[pick]
    a[pick] = n
    return take(a, need, lambda c: c != pick and _not_homeworld(z)(c))


def refused_by(cs, z, cid) -> str | None:
    """The played_by rule that refuses `cid` to the deck's account, or None if it may play it."""
    t = play_terms(cs.card(cid), cs.card(next(iter(z["account"]))), RULES["trf"], cs).refused_by
    return t.id if t else None


def m_unique(cs, z):
    a = z["assets"]
    pick = next((c.id for c in cs.cards if "unique" in c.tags and a[c.id] <= 1 and not refused_by(cs, z, c.id)), None)
    if pick is None:
        return False
    return raise_to(z, pick, 2)


def m_other_alignment(cs, z):
    """A cheap, common character of an alignment the account may not play."""
    a = z["assets"]
    pick = next((c.id for c in cs.of_type("character") if a[c.id] < 2 and "unique" not in c.tags and c["cost"] < 500
                 and refused_by(cs, z, c.id) == "other-alignment"), None)
    if pick is None or not take(a, 1, lambda c: c != pick and _not_homeworld(z)(c)):
        return False
    a[pick] += 1
    return True


def m_off_alignment(cs, z):
    """Gash, a darkside Jedi, under an account that is neither Jedi nor Universal."""
    a = z["assets"]
    if a["gash"] or refused_by(cs, z, "gash") != "off-alignment-character" or not take(a, 1, _not_homeworld(z)):
        return False
    a["gash"] += 1
    return True


def m_planets(cs, z):
    a = z["assets"]
    planets = [c.id for c in cs.of_type("planet")]
    have = sum(a[p] for p in planets)
    add = 10 - have
    room = [p for p in planets for _ in range(2 - a[p])]
    if len(room) < add or not take(a, add, lambda c: cs.card(c).type != "planet"):
        return False
    for p in room[:add]:
        a[p] += 1
    return True


def m_homeworld(cs, z):
    chars = [c for c in z["assets"] if cs.card(c).type == "character" and z["assets"][c] and "unique" not in cs.card(c).tags]
    if not chars:
        return False
    z["homeworld"] = Counter({chars[0]: 1})
    return True


def m_account(cs, z):
    z["account"] = Counter({"vela": 1})
    return True


def m_trf_copies(cs, z):
    a = z["assets"]
    pick = next((c for c in ("5000-words", "back-from-vacation") if a[c]), None)
    if pick is None:
        return False
    return raise_to(z, pick, 3)


# The same kinds of mutation on the real Solar Empires set (fleet 40-60, four copies, one race).

def se_fleet_size(cs, z):
    return take(z["fleet"], sum(z["fleet"].values()) - 39)


def se_fleet_cards(cs, z):
    if not take(z["fleet"], 1):
        return False
    z["fleet"]["sol-like-star"] += 1
    return True


def se_copies(cs, z):
    fleet = z["fleet"]
    pick = next((c for c in sorted(fleet) if not cs.card(c).has_keyword("legendary")), None)
    need = 5 - fleet[pick]
    fleet[pick] = 5
    return take(fleet, need, lambda c: c != pick)


def se_same_race(cs, z):
    race = race_of(cs, z)
    if race is None or not take(z["fleet"], 1):
        return False
    z["fleet"]["infected-rapier" if race != "shadow" else "tcs-13-rapier"] += 1
    return True


def se_legendary(cs, z):
    legendary = sum(n for zone in z.values() for c, n in zone.items() if cs.card(c).has_keyword("legendary"))
    bodies = z["solar_bodies"]
    add = 2 - legendary
    if not take(bodies, add, lambda c: cs.card(c).type == "solar_body" and not cs.card(c).has_keyword("legendary")):
        return False
    bodies["terracorp-colony"] += add
    return True


MUTATIONS = [
    ("space", "fleet-size", m_fleet_size), ("space", "fleet-cards", m_fleet_cards), ("space", "copies", m_copies),
    ("space", "same-race", m_same_race), ("space", "no-more-than-one-legendary-card", m_legendary),
    ("space", "a-chain-deck-holds-no-spells", m_chain_spell), ("space", "at-most-two-battleships", m_battleships),
    ("trf", "unique", m_unique), ("trf", "no-more-than-nine-planet-cards", m_planets),
    ("trf", "the-homeworld-is-a-planet-of-your-asset-deck", m_homeworld), ("trf", "account-cards", m_account),
    ("trf", "copies", m_trf_copies), ("trf", "other-alignment", m_other_alignment),
    ("trf", "off-alignment-character", m_off_alignment),
    ("solar-empires", "fleet-size", se_fleet_size), ("solar-empires", "fleet-cards", se_fleet_cards),
    ("solar-empires", "copies", se_copies), ("solar-empires", "same-race", se_same_race),
    ("solar-empires", "no-more-than-one-legendary-card", se_legendary),
]
SOLAR = load_set(Path(__file__).resolve().parent.parent / "cards" / "solar-empires")
RULES["solar-empires"] = parse_rules(SOLAR)
SETS = {"space": SPACE, "trf": TRF, "solar-empires": SOLAR}
FACTIONS = {"space": [None, "terracorp", "chain", "shadow"], "trf": [None, "coalition", "jedi", "sith", "universal"],
            "solar-empires": [None, "terracorp", "chain", "shadow"]}


@SETTINGS
@given(set_id=st.sampled_from(["space", "trf", "solar-empires"]), seed=st.integers(0, 10**6), pick=st.integers(0, 4))
def test_random_decks_are_always_legal(set_id, seed, pick):
    cs = SETS[set_id]
    factions = FACTIONS[set_id]
    deck = random_deck(cs, seed=seed, faction=factions[pick % len(factions)], rules=RULES[set_id])
    assert check_deck(deck, cs, RULES[set_id]) == []


@SETTINGS
@given(mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 10**6), pick=st.integers(0, 4))
def test_breaking_one_rule_is_reported_as_exactly_that_rule(mutation, seed, pick):
    set_id, rule, mutate = mutation
    cs = SETS[set_id]
    factions = FACTIONS[set_id]
    legal = random_deck(cs, seed=seed, faction=factions[pick % len(factions)], rules=RULES[set_id])
    zones = zones_of(legal)
    assume(mutate(cs, zones))
    violations = check_deck(as_deck(zones, cs.id), cs, RULES[set_id])
    assert {v.rule for v in violations} == {rule}, [v.message for v in violations]


def test_every_mutation_is_reachable():
    """Each mutation applies to some early seed, so the property above really exercises every rule."""
    for set_id, rule, mutate in MUTATIONS:
        cs = SETS[set_id]
        assert any(mutate(cs, zones_of(random_deck(cs, seed=s, faction=f, rules=RULES[set_id])))
                   for s in range(10) for f in FACTIONS[set_id]), rule
