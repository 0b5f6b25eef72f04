"""The TRF `Game`: a set bound to the rules; new games, positions, determinization and a heuristic."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import seat_stream
from cardsmith.engine.contract import Chance, PositionError
from cardsmith.engine.kit import EventRecorder
from cardsmith.games.trf.cards import Costs, Info, card_infos
from cardsmith.games.trf.state import TRFState, default_chance, fresh_player, new_data, plain_copy
from cardsmith.model import CardSet, Deck

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
        self.state_class: type[TRFState] = type("TRFState", (TRFState,), {"g": self, "__module__": TRFState.__module__})
        play = dict(cardset.meta.get("play") or {})
        self.turn_cap = int(play.get("turn_cap", DEFAULT_TURN_CAP))
        self.starting_hand = int(play.get("starting_hand", STARTING_HAND))

    def _one(self, deck: Deck, zone: str, kind: str) -> str:
        cards = deck.cards(zone)
        if len(cards) != 1 or cards[0] not in self.infos or self.infos[cards[0]].type != kind:
            raise ValueError(f"deck '{deck.name}': the {zone} zone must hold exactly one {kind} card of set {self.cardset.id}")
        return cards[0]

    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None) -> TRFState:
        """Homeworlds face up, accounts chosen, decks shuffled, six cards each, first player by die."""
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
        from cardsmith.games.trf.phases import start_turn

        start_turn(state, rec)
        return state

    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0) -> TRFState:
        data = plain_copy({k: v for k, v in position.items() if k not in ("game", "format", "seats")})
        if position.get("game", "trf") != "trf":
            raise PositionError(f"the position is a {position.get('game')!r} game, not 'trf'")
        for key in new_data([]).keys():
            if key not in data:
                raise PositionError(f"the position has no `{key}:` entry")
        self._check_values(data)
        for seat, p in enumerate(data["p"]):
            for zone in ("deck", "hand", "discard", "played"):
                for cid in p.get(zone, []):
                    if cid not in self.infos:
                        raise PositionError(f"seat {seat} {zone}: unknown card '{cid}'")
            for zone in ("planets", "persistent"):
                for item in p.get(zone, []):
                    cid = item.get("card") if isinstance(item, dict) else item
                    if cid not in self.infos:
                        raise PositionError(f"seat {seat} {zone}: unknown card '{cid}'")
            p.setdefault("list", sorted(p["deck"] + p["hand"]))
        for c in data["chars"]:
            if c.get("card") not in self.infos:
                raise PositionError(f"chars: unknown card '{c.get('card')}'")
        return self.state_class(data, default_chance(seed, chance))

    @staticmethod
    def _check_values(data: dict[str, Any]) -> None:
        """The numbers and names a hand-edited position may get wrong, said before they crash a game."""
        from cardsmith.games.trf.state import PHASES

        seats = range(len(data["p"])) if isinstance(data["p"], list) else range(0)
        if len(seats) != 2:
            raise PositionError("p must list the two seats")
        for key in ("turn", "uid"):
            if not isinstance(data[key], int) or isinstance(data[key], bool) or data[key] < 0:
                raise PositionError(f"{key} must be a whole number (0 or more), not {data[key]!r}")
        for key in ("active", "first"):
            if data[key] not in seats:
                raise PositionError(f"{key} must be a seat (0 or 1), not {data[key]!r}")
        if data["phase"] not in PHASES:
            raise PositionError(f"phase '{data['phase']}' is not a TRF phase: {', '.join(PHASES)}")
        for c in data["chars"]:
            if not isinstance(c, dict) or c.get("owner") not in seats:
                raise PositionError(f"chars: owner must be a seat (0 or 1), not {c.get('owner') if isinstance(c, dict) else c!r}")

    def sample_state(self, observation: Mapping[str, Any], rng: random.Random) -> TRFState:
        """Hidden cards (both decks, the opponent's hand) dealt at random from what is unseen."""
        data = plain_copy(dict(observation))
        me = data.pop("seat")
        for seat, p in enumerate(data["p"]):
            seen = list(p["discard"]) + [pl["card"] for pl in p["planets"]] + [x["card"] for x in p["persistent"]]
            seen += [c["card"] for c in data["chars"] if c["owner"] == seat]
            if seat == me:
                seen += p["hand"]
            pool = list(p["list"])
            for cid in seen:
                if cid in pool:
                    pool.remove(cid)
                elif cid == p["homeworld"]:
                    continue
            rng.shuffle(pool)
            hand_n = len(p["hand"]) if isinstance(p["hand"], list) else p["hand"]
            deck_n = p["deck"]
            if seat != me:
                p["hand"] = pool[:hand_n]
                pool = pool[hand_n:]
            p["deck"] = pool[:deck_n]
        return self.state_class(data, default_chance(rng.getrandbits(64), None))

    def heuristic(self, state: TRFState, seat: int) -> float:
        """Material in play, planets held, cards in hand; mine minus the opponent's."""
        if state.is_terminal():
            w = state.d["winner"]
            return 0.0 if w is None else (1000.0 if w == seat else -1000.0)
        score = 0.0
        for s, sign in ((seat, 1.0), (1 - seat, -1.0)):
            p = state.d["p"][s]
            material = sum(self.infos[c["card"]].combat + self.infos[c["card"]].capture for c in state.chars_of(s))
            planets = sum(3.0 + self.infos[pl["card"]].meters / 100 for pl in p["planets"])
            score += sign * (material + planets + 0.5 * len(p["hand"]))
        return score


def _first_player(chance: Chance, rec: EventRecorder) -> int:
    """Each player rolls a die; the higher goes first, ties roll again."""
    while True:
        a, b = chance.roll(6, "first player: seat 0"), chance.roll(6, "first player: seat 1")
        if a != b:
            first = 0 if a > b else 1
            rec("first", f"seat {first} goes first ({a} against {b})", seat=first, rolls=[a, b])
            return first
