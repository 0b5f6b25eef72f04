"""A Solar Empires CardSet built in code from the source text (used until and beside the YAML set).

Field names follow the fixed contract in BRIEF.md (ship: class/attack/armour/energy/minerals/organics;
event: costs + keywords Spell/Legendary + text; building: costs, save, plus_*; star: position,
resource, amount; solar_body: plus_*).
"""

from __future__ import annotations

import re
from pathlib import Path

from cardsmith.sets.model import Card, CardSet, Deck, KeywordUse, frozen_map


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _kw(text: str) -> tuple[KeywordUse, ...]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.match(r"([A-Za-z]+)(?:\s+(\d+))?$", part)
        out.append(KeywordUse(m.group(1).lower(), int(m.group(2)) if m.group(2) else None))
    return tuple(out)


SHIPS = """\
terracorp|TCS-13 Rapier|fighter|2|6|1|1|1|
terracorp|TCS-15 Stilletto|fighter|3|5|1|1|1|
terracorp|TCS-17 Dagger|fighter|2|6|2|1|1|Interceptor
terracorp|TCS-19 Mace|fighter|4|4|2|1|1|Bomber
terracorp|TCS-21 Scimitar|cruiser|4|8|1|2|2|
terracorp|TCS-23 Longsword|cruiser|6|6|2|2|1|
terracorp|TCS-25 Longbow|cruiser|4|8|2|3|2|Interceptor
terracorp|TCS-27 Catapult|cruiser|6|6|3|3|2|Accurate
terracorp|TCS-35 Broadsword|battleship|6|10|2|3|2|
terracorp|TCS-37 Battleaxe|battleship|8|8|3|2|2|
terracorp|TCS-39 Defender|battleship|6|10|3|4|3|Shield 3
terracorp|TCS-391 Trebuchet|battleship|10|6|4|3|3|Accurate
chain|Drone|fighter|1|6|1|1|0|
chain|Missile Drone|fighter|3|3|1|1|0|
chain|Drone Gunboat|fighter|2|5|2|1|0|Bomber
chain|"Streaker" Drone|fighter|2|5|1|2|0|Interceptor
chain|Control Cruiser|cruiser|4|7|2|2|0|
chain|"Cocoon" Cruiser|cruiser|2|9|3|3|0|Shield 2
chain|"Firestorm" Cruiser|cruiser|6|5|3|3|0|Bomber
chain|Defense Cruiser|cruiser|4|7|3|3|0|Interceptor
chain|Mothership|battleship|6|9|3|3|0|
chain|Stripminer|battleship|3|12|2|4|0|
chain|Control Ship|battleship|8|7|5|4|0|Accurate
chain|World Eater|battleship|6|9|5|5|0|Legendary
shadow|Infected Rapier|fighter|2|6|1|1|1|
shadow|Infected Shuttle|fighter|3|5|1|1|1|
shadow|Infected Dagger|fighter|2|6|1|1|2|Interceptor
shadow|Infected Freighter|fighter|2|6|1|1|2|Shield 1
shadow|Infested Scimitar|cruiser|4|8|1|2|2|
shadow|Infested Cruiser|cruiser|6|6|1|2|2|
shadow|Infested Derelict|cruiser|4|8|1|2|4|Shield 3
shadow|Infested Cargoship|cruiser|2|10|2|2|3|Shield 1
shadow|Hive Ship|battleship|6|10|2|2|3|
shadow|Defiler of Worlds|battleship|8|8|2|2|3|
shadow|Hulk|battleship|6|10|3|4|3|Shield 3
shadow|Infector|battleship|9|7|2|3|5|Accurate
"""
WORLD_EATER_TEXT = ("When you win a combat with a fleet containing world eater you may choose to destroy the planet. "
                    "Remove the planet card from the solar system and destroy any buildings on it. If you choose to "
                    "do this you may place three ship cards from the discard pile into play")

# Teleport Jump, Greater Rift and Blackest Night carry "Spell" by the designer's later word (set.yaml source_fixes).
EVENTS = """\
|Solar Flare|1|1|1||Choose two planets. No ships may be deployed to them this turn
|Asteroid Swarm|1|2|0||Choose two planets. Any fleet deployed there takes d6+3 dmg dealt before combat attacks are made.
|Spy Network|2|0|1||After all ships are deployed you may change the deployment on one of your ships.
|Battlefield Reclamation|2|1|2||Each time you capture a planet this turn draw a card.
|Sabotage|1|2|2||Each time your opponents rolls to save a building this turn, deduct one from his roll.
|Precision Bombing|3|2|0||You may re-roll failed building saves this turn
|Flack Load|2|3|2||Each enemy fighter engaged in combat with you this turn takes 4 damage before fleets attack.
|Order 101|3|3|1||If you lose control of a building this turn, you may choose to have it automatically fail its survival roll
|Mass Conscription|2|2|3||Put two ship cards from your discard into play
terracorp|Ion Storm|2|0|1|Spell|Deal 3 damage to up to three fighters
terracorp|Fusion Burst|3|1|1|Spell|Destroy one ship of cruiser or smaller.
terracorp|Shielding Gaze|3|0|2|Spell|One ship of your choice gains shield 3 until the end of combat.
terracorp|Teleport Jump|4|2|1|Spell|Search your fleet deck for any ship and put it into play
shadow|Hidden Infection|0|1|2|Spell|Deal six damage to target ship
shadow|Pillars of Flesh|2|0|3|Spell|Deal 6 damage to target ship of cruiser or smaller. If destroyed place one ship of equal size or smaller from your discard pile into play.
shadow|Greater Rift|3|0|4|Spell|Roll a building save for each building not under your control. If they fail they are destroyed.
shadow|Blackest Night|3|2|3|Spell, Legendary|The systems star becomes a black hole. All star effects end. Each cleanup step, the planet closest to the star is destroyed. When the final planet is destroyed the player with the most ships remaining wins the game.
"""

BUILDINGS = """\
|Hydrogen Power Generator|1|1|1|3|1|0|0||
|Biodome|1|1|1|3|0|0|1||
|Mines|1|1|1|3|0|1|0||
|Fusion Plant|2|2|1|4|2|0|0||
|Terraforming Centre|2|2|1|4|0|0|2||
|Deep Core Mine|2|2|1|4|0|2|0||
|Re-supply Base|2|2|2|5|1|1|1||
|Support Turrets|2|2|2|5|0|1|0||Deals 4 damage to each enemy ship deployed here before shots are fired in combat.
|Missile Silos|2|2|2|5|1|0|0||Deals 15 Damage to one enemy ship deployed here before shots are fired in combat
|Command Center|2|2|2|5|0|0|1||Attacks made by your fleets deployed here get a +3 bonus
terracorp|Pre-fab Base|1|1|2|5|1|0|1||
terracorp|Trade Outpost|2|1|1|5|1|1|0||
terracorp|Solaris Cannon|3|3|3|6|0|0|0|Legendary|Once per turn you may fire the solaris cannon in the construction phase. If you do, destroy one planet of your choice. It is removed from the game and all buildings on it are destroyed. You may only fire the cannon if you have enough support points to pay its play cost.
chain|Automated Facility|2|2|0|5|1|1|0||
chain|World Stripper|3|3|0|5|1|3|0||
shadow|Infected Zone|1|0|2|6|1|0|1||
shadow|Infected City|2|2|2|6|2|2|2||
"""

STARS = """\
Sol Like Star|3|organics|1
Dyson Sphere|3|energy|1
White Dwarf|6|organics|1
Binary Star|4|energy|1
Super Giant|1|minerals|1
Quark Star|6|minerals|1
"""

BODIES = """\
|Terra Like World|0|0|1|
|Gas Giant|1|0|0|
|Asteroid Belt|0|1|0|
|Volcanic World|0|1|0|
|Starbase|1|0|0|
|Ringed Planet|0|1|0|
|Liquid Dense World|0|0|1|
shadow|Infected World|1|0|1|Legendary
chain|Chain Forge World|1|1|0|Legendary
terracorp|Terracorp Colony|1|1|1|Legendary
"""


# What each card does in play, as the bundled set's YAML writes it under `effect:`.
EFFECTS = {
    "solar-flare": {"do": "block_deployment", "planets": 2},
    "asteroid-swarm": {"do": "fleet_damage", "planets": 2, "bonus": 3},
    "spy-network": {"do": "redeploy"},
    "battlefield-reclamation": {"do": "draw_on_capture", "cards": 1},
    "sabotage": {"do": "save_penalty", "amount": 1},
    "precision-bombing": {"do": "reroll_failed_saves"},
    "flack-load": {"do": "damage", "amount": 4, "target": "enemy_fighters", "when": "before_attacks"},
    "order-101": {"do": "fail_lost_building_saves"},
    "mass-conscription": {"do": "revive", "count": 2},
    "ion-storm": {"do": "damage", "amount": 3, "target": "fighters", "count": 3, "when": "played"},
    "fusion-burst": {"do": "destroy_ship", "max_class": "cruiser"},
    "shielding-gaze": {"do": "grant_shield", "amount": 3},
    "teleport-jump": {"do": "search_deck", "count": 1},
    "hidden-infection": {"do": "damage", "amount": 6, "target": "ship", "when": "played"},
    "pillars-of-flesh": {"do": "damage", "amount": 6, "target": "ship", "max_class": "cruiser", "revive_on_kill": 1,
                         "when": "played"},
    "greater-rift": {"do": "roll_enemy_building_saves"},
    "blackest-night": {"do": "black_hole"},
    "support-turrets": {"do": "damage", "amount": 4, "target": "enemy_ships", "when": "before_attacks"},
    "missile-silos": {"do": "damage", "amount": 15, "target": "enemy_ship", "when": "before_attacks"},
    "command-center": {"do": "attack_bonus", "amount": 3},
    "solaris-cannon": {"do": "planet_cannon"},
    "world-eater": {"do": "devour_planet", "revive": 3},
}


def _card(name, type_, race, fields, keywords=(), text=""):
    effect = EFFECTS.get(slug(name))
    return Card(id=slug(name), name=name, type=type_, race=race or None, fields=frozen_map(fields),
                keywords=tuple(keywords), text=text, effects=(frozen_map(effect),) if effect else ())


def solar_cards(extra: list[Card] | None = None) -> list[Card]:
    cards = []
    for line in SHIPS.splitlines():
        race, name, cls, att, arm, e, m, o, kw = line.split("|")
        cards.append(_card(name, "ship", race, dict(**{"class": cls}, attack=int(att), armour=int(arm), energy=int(e),
                                                    minerals=int(m), organics=int(o)), _kw(kw),
                           WORLD_EATER_TEXT if name == "World Eater" else ""))
    for line in EVENTS.splitlines():
        race, name, e, m, o, kw, text = line.split("|")
        cards.append(_card(name, "event", race, dict(energy=int(e), minerals=int(m), organics=int(o)), _kw(kw), text))
    for line in BUILDINGS.splitlines():
        race, name, e, m, o, save, pe, pm, po, kw, text = line.split("|")
        cards.append(_card(name, "building", race, dict(energy=int(e), minerals=int(m), organics=int(o), save=int(save),
                                                        plus_energy=int(pe), plus_minerals=int(pm),
                                                        plus_organics=int(po)), _kw(kw), text))
    for line in STARS.splitlines():
        name, pos, res, amt = line.split("|")
        cards.append(_card(name, "star", None, dict(position=int(pos), resource=res, amount=int(amt))))
    for line in BODIES.splitlines():
        race, name, pe, pm, po, kw = line.split("|")
        cards.append(_card(name, "solar_body", race, dict(plus_energy=int(pe), plus_minerals=int(pm),
                                                          plus_organics=int(po)), _kw(kw)))
    return cards + list(extra or [])


def solar_set(turn_cap: int = 40, extra: list[Card] | None = None) -> CardSet:
    return CardSet(id="solar-empires", name="Solar Empires", path=Path("cards/solar-empires"), rules="solar_empires",
                   cards=tuple(solar_cards(extra)), meta=frozen_map({"play": {"turn_cap": turn_cap}}))


def deck(name: str, fleet: dict[str, int], solar: dict[str, int] | None = None) -> Deck:
    solar = solar or {"sol-like-star": 1, "terra-like-world": 1, "gas-giant": 1, "asteroid-belt": 1,
                      "volcanic-world": 1, "starbase": 1, "ringed-planet": 1, "liquid-dense-world": 1}
    return Deck(name=name, set_id="solar-empires", zones=frozen_map({"fleet": dict(fleet), "solar_bodies": dict(solar)}))


TERRACORP = {"tcs-13-rapier": 4, "tcs-15-stilletto": 4, "tcs-17-dagger": 3, "tcs-19-mace": 3, "tcs-21-scimitar": 4,
             "tcs-23-longsword": 3, "tcs-25-longbow": 2, "tcs-27-catapult": 2, "tcs-35-broadsword": 2,
             "tcs-37-battleaxe": 2, "tcs-39-defender": 1, "ion-storm": 2, "fusion-burst": 1, "shielding-gaze": 1,
             "teleport-jump": 1, "solar-flare": 1, "asteroid-swarm": 1, "pre-fab-base": 2, "trade-outpost": 2,
             "mines": 1, "solaris-cannon": 1, "support-turrets": 1, "missile-silos": 1}
CHAIN = {"drone": 4, "missile-drone": 4, "drone-gunboat": 3, "streaker-drone": 3, "control-cruiser": 4,
         "cocoon-cruiser": 2, "firestorm-cruiser": 3, "defense-cruiser": 2, "mothership": 2, "stripminer": 2,
         "control-ship": 1, "world-eater": 1, "automated-facility": 3, "world-stripper": 2, "spy-network": 1,
         "battlefield-reclamation": 1, "sabotage": 1, "flack-load": 1, "mass-conscription": 1, "command-center": 1}
SHADOW = {"infected-rapier": 4, "infected-shuttle": 4, "infected-dagger": 3, "infected-freighter": 2,
          "infested-scimitar": 4, "infested-cruiser": 3, "infested-derelict": 2, "infested-cargoship": 2,
          "hive-ship": 2, "defiler-of-worlds": 2, "hulk": 1, "infector": 1, "hidden-infection": 2,
          "pillars-of-flesh": 2, "greater-rift": 1, "blackest-night": 1, "infected-zone": 2, "infected-city": 1,
          "precision-bombing": 1, "order-101": 1, "biodome": 1}
