"""The TRF `Game`: a set bound to the rules; new games, positions, determinization and a heuristic."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import LookaheadChance, seat_stream, shuffled
from cardsmith.engine.contract import Chance, PositionError
from cardsmith.engine.kit import EventRecorder
from cardsmith.engine.kit.shape import check_position, first_moves, guarded
import cardsmith.games.trf.position_schema as position_schema
from cardsmith.games.trf.board import TIMING, copy_table, default_chance, fresh_player, new_data
from cardsmith.games.trf.cards import Costs, Info, card_infos
from cardsmith.games.trf.evaluate import heuristic
from cardsmith.games.trf.phases import start_turn
from cardsmith.games.trf.state import TRFState
from cardsmith.sets.model import CardSet, Deck

DEFAULT_TURN_CAP = 120
STARTING_HAND = 6


class TRFGame:
    """TRF: The Card Game for one card set."""

    name = "trf"

    def __init__(self, cardset: CardSet, rules: Any = None):
        self.cardset = cardset
        self.rules = rules
        self.infos: dict[str, Info] = card_infos(cardset)
        self.costs = Costs(cardset)
        self.unique_characters = frozenset(c for c, i in self.infos.items() if i.unique and i.type == "character")
        self.fleet_capture = {c: i.capture for c, i in self.infos.items() if i.type == "character" and i.fleeter}
        # What a dead position's full bound (dead.best_capture) reads of each card: the cards used over
        # and over that add capture or revive, and what each OOC card adds once.
        self.catching_up = frozenset(c for c, i in self.infos.items() if i.type != "ooc"
                                     and any(e.get("do") in ("capture_bonus", "revive") for e in i.acts))
        oocs = [(c, i) for c, i in self.infos.items() if i.type == "ooc"]
        self.ooc_capture_bonus = {c: sum(e["amount"] for e in i.effect("capture_bonus")) for c, i in oocs}
        self.ooc_revives = {c: len(i.effect("revive")) for c, i in oocs}
        # The card kinds the legal-action listings pick out of a hand on every step (phases.py).
        self.planets = frozenset(c for c, i in self.infos.items() if i.type == "planet")
        self.discounting = frozenset(c for c in self.planets if self.infos[c].discounts)
        # What each card adds to a pool, (meters, words): a planet its printed values, an account its
        # `income` effects (both summed once here for `Board.pools`).
        self.gives = {c: _gives(i) for c, i in self.infos.items()}
        self.acting_planets = frozenset(c for c in self.planets if self.infos[c].acts)
        self.characters = frozenset(c for c, i in self.infos.items() if i.type == "character")
        tags = {t for c in self.characters for t in self.infos[c].tags}
        self.tagged = {t: frozenset(c for c in self.characters if t in self.infos[c].tags) for t in tags}
        self.oocs_at = {when: frozenset(c for c, i in self.infos.items() if i.type == "ooc" and i.timing == when)
                        for when in TIMING.values()}
        self.state_class: type[TRFState] = type("TRFState", (TRFState,), {"g": self, "__module__": TRFState.__module__})
        play = dict(cardset.meta.get("play") or {})
        self.turn_cap = int(play.get("turn_cap", DEFAULT_TURN_CAP))
        self.starting_hand = int(play.get("starting_hand", STARTING_HAND))

    def _one(self, deck: Deck, zone: str, kind: str) -> str:
        cards = deck.cards(zone)
        if len(cards) != 1 or cards[0] not in self.infos or self.infos[cards[0]].type != kind:
            raise ValueError(f"deck '{deck.name}': the {zone} zone must hold exactly one {kind} card of set {self.cardset.id}")
        return cards[0]

    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None,
                 keep_forced: bool = False) -> TRFState:
        """Homeworlds face up, accounts chosen, decks shuffled, six cards each, first player by die.
        (`keep_forced` is accepted and changes nothing: TRF asks every decision, one action or more.)"""
        if len(decks) != 2:
            raise ValueError(f"TRF is a two-player game, not {len(decks)}")
        chance = default_chance(seed, chance)
        players = []
        for seat, deck in enumerate(decks):
            account, home = self._one(deck, "account", "account"), self._one(deck, "homeworld", "planet")
            assets = deck.cards("assets")
            unknown = [c for c in assets if c not in self.infos]
            if unknown:
                raise ValueError(f"deck '{deck.name}': cards not in set {self.cardset.id}: {', '.join(unknown)}")
            chance.shuffle(assets, f"deck {seat}", stream=seat_stream(seat))
            players.append(fresh_player(account, home, assets))
        data = new_data(players)
        state = self.state_class(data, chance)
        rec = EventRecorder(state.log)
        for seat, p in enumerate(players):
            p["planets"].append({"uid": state.new_uid(), "card": p["homeworld"], "home": True})
            hand = self.starting_hand + sum(e["amount"] for e in state.account(seat).effect("start_hand"))
            state.draw(seat, max(0, hand), rec)
        data["first"] = data["active"] = _first_player(chance, rec)
        start_turn(state, rec)
        return state

    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0,
                      keep_forced: bool = False) -> TRFState:
        """A state from `position()` data or one written by hand (docs/rules/trf.md, "Positions"):
        entries with a default may be left out; a mistake is a PositionError naming the entry.
        (`keep_forced` changes nothing: TRF asks every decision.)"""
        if position.get("game", "trf") != "trf":
            raise PositionError(f"the position is a {position.get('game')!r} game, not 'trf'")
        if position.get("seats", 2) != 2:
            raise PositionError(f"seats is {position.get('seats')!r}: TRF is a game for 2 players")
        checked = check_position(position, position_schema.schema(), self.infos)
        data = {k: v for k, v in checked.items() if k not in ("game", "format", "seats")}
        for seat, p in enumerate(data["p"]):
            for key, kind in (("account", "account"), ("homeworld", "planet")):
                if self.infos[p[key]].type != kind:
                    raise PositionError(f"p[{seat}].{key}: '{p[key]}' is not {'an' if kind == 'account' else 'a'} {kind} card")
            homes = [pl["card"] for pl in p["planets"] if pl["home"]]
            if data["winner"] is None and homes != [p["homeworld"]]:
                raise PositionError(f"p[{seat}].planets: a game in progress has the homeworld in play: one entry "
                                    f"{{uid: ..., card: {p['homeworld']}, home: true}} (found {homes or 'none'})")
            p.setdefault("list", sorted(p["deck"] + p["hand"]))
        uids = [x["uid"] for p in data["p"] for x in p["planets"]] + [c["uid"] for c in data["chars"]]
        if len(set(uids)) != len(uids):
            raise PositionError("two cards in play share a uid: give each planet and character its own")
        self._check_in_play(data)
        data["uid"] = max([data["uid"], *uids])
        return guarded(lambda: self.state_class(data, default_chance(seed, chance)), first_moves)

    def _check_in_play(self, data: dict[str, Any]) -> None:
        """Cards in play are of the right kind, and the uids a position names are in play."""
        for seat, p in enumerate(data["p"]):
            for i, pl in enumerate(p["planets"]):
                if self.infos[pl["card"]].type != "planet":
                    raise PositionError(f"p[{seat}].planets[{i}].card: '{pl['card']}' is not a planet card")
        chars = {c["uid"]: c for c in data["chars"]}
        for i, c in enumerate(data["chars"]):
            if self.infos[c["card"]].type != "character":
                raise PositionError(f"chars[{i}].card: '{c['card']}' is not a character card")
            fleet = chars.get(c["fleet"]) if c["fleet"] is not None else c
            if fleet is None or fleet["owner"] != c["owner"]:
                raise PositionError(f"chars[{i}].fleet: {c['fleet']} is not a character of seat {c['owner']} in play")
        planets = {pl["uid"] for p in data["p"] for pl in p["planets"]}
        # Once fights are rolled, `declared` and `blocks` keep the uids of characters since discarded.
        early = data["phase"] in ("declare", "block")
        named = [("declared", u) for u in data["declared"] if early] + [("blocks", u) for b in data["blocks"] if early for u in b]
        # ... and once the capture is done, `assign` keeps the uids of the planets taken.
        capture = data["phase"] == "capture"
        named += [("assign", a[0]) for a in data["assign"] if capture] + [("fights", u) for f in data["fights"] for u in f["att"] + f["def"]]
        for entry, uid in named:
            if uid not in chars:
                raise PositionError(f"{entry}: {uid} is not the uid of a character in play")
        for fleet, planet in data["assign"] if capture else ():
            if planet not in planets:
                raise PositionError(f"assign: {planet} is not the uid of a planet in play")

    def sample_state(self, observation: Mapping[str, Any], rng: random.Random) -> TRFState:
        """Hidden cards (both decks, the opponent's hand) dealt at random from what is unseen; the
        dice are the agent's own (`LookaheadChance`: cheap to fork for each look-ahead clone)."""
        data = copy_table(dict(observation))
        me = data.pop("seat")
        for seat, p in enumerate(data["p"]):
            seen = list(p["discard"]) + [pl["card"] for pl in p["planets"]] + [x["card"] for x in p["persistent"]]
            seen += [c["card"] for c in data["chars"] if c["owner"] == seat]
            if seat == me:
                seen += p["hand"]
            # The list less one copy of each card seen (the homeworld is not on the list); the
            # copies of a card are alike, so skipping the first ones is removing them.
            unseen = Counter(seen)
            pool = []
            for cid in p["list"]:
                if unseen.get(cid):
                    unseen[cid] -= 1
                else:
                    pool.append(cid)
            pool = shuffled(pool, rng)
            hand_n = len(p["hand"]) if isinstance(p["hand"], list) else p["hand"]
            deck_n = p["deck"]
            if seat != me:
                p["hand"] = pool[:hand_n]
                pool = pool[hand_n:]
            p["deck"] = pool[:deck_n]
        return self.state_class(data, LookaheadChance(rng.getrandbits(64)))

    def heuristic(self, state: TRFState, seat: int) -> float:
        """Progress towards TRF's victory, mine minus the opponent's (`evaluate.heuristic`)."""
        return heuristic(state, seat)


def _gives(info: Info) -> tuple[int, int]:
    if info.type == "planet":
        return info.meters, info.words
    income = info.effect("income")
    return (sum(e["amount"] for e in income if e.get("resource") == "meters"),
            sum(e["amount"] for e in income if e.get("resource") == "words"))


def _first_player(chance: Chance, rec: EventRecorder) -> int:
    """Each player rolls a die; the higher goes first, ties roll again."""
    while True:
        a, b = chance.roll(6, "first player: seat 0"), chance.roll(6, "first player: seat 1")
        if a != b:
            first = 0 if a > b else 1
            rec("first", f"seat {first} goes first ({a} against {b})", seat=first, rolls=[a, b])
            return first
