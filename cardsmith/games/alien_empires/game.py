"""Alien Empires bound to a card set: the map, the common deck (less Race powers the rules do not
play yet), setup, positions, determinization and the heuristic agents use."""

from __future__ import annotations

import random
from collections import Counter
from operator import itemgetter
from typing import Any, Mapping, Sequence

from cardsmith.engine.chance import SeededChance, shuffle_like_random
from cardsmith.engine.contract import Chance, PositionError
from cardsmith.engine.kit.shape import check_position, first_moves, guarded
# conflict, conflict_start, resolve and turns register their steps on STEPS as they load.
import cardsmith.games.alien_empires.conflict as conflict  # noqa: F401
import cardsmith.games.alien_empires.conflict_start as conflict_start  # noqa: F401
import cardsmith.games.alien_empires.position_schema as position_schema
import cardsmith.games.alien_empires.resolve as resolve  # noqa: F401
import cardsmith.games.alien_empires.turns as turns
from cardsmith.games.alien_empires.cards import CardTable
from cardsmith.games.alien_empires.hexmap import HexMap
from cardsmith.games.alien_empires.powers import playable
from cardsmith.games.alien_empires.state import FIELDS, GAME, HIDDEN, STEPS, AlienState, Settings, plain_copy
from cardsmith.sets.model import CardSet, Deck

ZONE = "deck"
DEFAULT_RADIUS = 4


def board_map(cardset: CardSet, board_id: str | None) -> HexMap:
    """The hexes of the set's board `board_id` (a hexagon of radius 4 when the set has none)."""
    boards = getattr(getattr(cardset, "components", None), "boards", None) or {}
    board = boards.get(board_id) if board_id else None
    if board is None or board.grid != "hex":
        return HexMap.hexagon(DEFAULT_RADIUS)
    return HexMap.from_coords([tuple(c.coord[:2]) for c in board.cells])


def world_names(cardset: CardSet, n: int) -> tuple[str, ...]:
    """The world chits' ids (the `world` token kind's items), or world-1.. when the set has none."""
    tokens = getattr(getattr(cardset, "components", None), "tokens", None) or {}
    kind = tokens.get("world")
    items = [f.item for f in kind.faces if f.item] if kind is not None else []
    items = list(dict.fromkeys(items))
    if len(items) >= n:
        return tuple(items[:n])
    return tuple(f"world-{i + 1}" for i in range(n))


class AlienGame:
    """The `Game` of the contract for one Alien Empires card set."""

    name = GAME

    def __init__(self, cardset: CardSet, rules: Any = None):
        self.cardset = cardset
        self.rules = rules
        self.table = CardTable.from_set(cardset)
        play = dict(cardset.meta.get("play") or {})
        self.settings = Settings(play)
        self.settings.world_ids = world_names(cardset, self.settings.worlds)
        self.map = board_map(cardset, play.get("map"))
        # Race cards whose powers the rules do not play (left out of every game's deck), found once.
        self.unplayable = frozenset(c for c, i in self.table.cards.items() if i.kind == "race" and not playable(i.effects))

    def state(self, seats: int, chance: Chance) -> AlienState:
        return AlienState(self.table, self.map, self.settings, seats, chance)

    # ---- new games ------------------------------------------------------------------------------
    def new_game(self, decks: Sequence[Deck], seed: int, *, chance: Chance | None = None,
                 keep_forced: bool = False) -> AlienState:
        """A game with one seat per deck; every seat brings the same common deck (decks[0] is used).
        `keep_forced`: see `contract.Game`."""
        if not 2 <= len(decks) <= 6:
            raise ValueError(f"Alien Empires is for 2 to 6 players, not {len(decks)}")
        cards = decks[0].cards(ZONE) if ZONE in decks[0].zones else decks[0].cards()
        unknown = sorted(set(cards).difference(self.table.cards))  # (set work, not a call per card: every game asks)
        if unknown:
            raise ValueError(f"deck {decks[0].name!r} holds cards not in set {self.cardset.id}: {', '.join(unknown)}")
        st = self.state(len(decks), chance if chance is not None else SeededChance(seed))
        st.keep_forced = keep_forced
        st.neutral = sorted(self.unplayable.intersection(cards))
        if st.neutral:
            st.rec("excluded", "left out (powers not yet played): " + ", ".join(self.table[c].name for c in st.neutral))
        st.deck = [c for c in cards if c not in st.neutral]
        st.pool = dict(Counter(st.deck))
        st.chance.shuffle(st.deck, "deck", "public")
        turns.begin_setup(st)
        st.settle()
        return st

    # ---- positions ------------------------------------------------------------------------------
    def from_position(self, position: Mapping[str, Any], *, chance: Chance | None = None, seed: int = 0,
                      keep_forced: bool = False) -> AlienState:
        """A state from `position()` data or one written by hand (docs/rules/alien-empires.md,
        "Positions"): entries with a default may be left out; a mistake is a PositionError naming it."""
        if position.get("game") != GAME:
            raise PositionError(f"the position is a {position.get('game')!r} game, not {GAME!r}")
        seats = position.get("seats")
        if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 6:
            raise PositionError(f"seats: {seats!r} is not a number of players from 2 to 6")
        kinds = set(STEPS.decisions) | set(STEPS.autos) | {"reveal"}
        data = check_position(position, position_schema.schema(seats, self.settings.world_ids, kinds), self.table.cards)
        if len(set(data["out"])) >= seats:  # issue 32: an UnboundLocalError once play began
            raise PositionError(f"out: every seat is out ({data['out']}); a position needs a seat still playing")
        if not data.get("worlds"):  # issue 32: an empty AssertionError
            raise PositionError("worlds: the map holds no worlds; give each world's hex, as --log-position writes them")

        if any(e["kind"] == "@end_turn" for e in data["stack"]):  # a turn in progress (turns.start_turn)
            for k, v in position_schema.TURN.items():
                data["turnstate"].setdefault(k, plain_copy(v))
        if data["conflict"] is not None:
            data["conflict"] = position_schema.conflict(plain_copy(data["conflict"]), seats, data["stack"])

        def build() -> AlienState:
            st = self._build({f: data[f] for f in FIELDS}, data, seats, chance if chance is not None else SeededChance(seed))
            _check(st)
            st.keep_forced = keep_forced
            st.settle()
            return st

        return guarded(build, first_moves)

    def _build(self, fields: Mapping[str, Any], data: Mapping[str, Any], seats: int, chance: Chance,
               trusted: bool = False) -> AlienState:
        """A state holding `fields` (plain data the state may own) and the map of `data`. `trusted`:
        `data` is a copy of a state's own observation (labels as keys, lists of ints the state may own)."""
        st = self.state(seats, chance)
        for f in FIELDS:
            setattr(st, f, fields[f])
        st.destiny_changed()
        labels = self.map.at
        if trusted:
            st.worlds = {labels[k]: w for k, w in data["worlds"].items()}
            rows = st.tokens
            for k, counts in data["tokens"].items():
                rows[labels[k]] = counts
            st.recount()
            st.pool = dict(data["pool"]) if data["pool"] else dict(Counter(_all_cards(st)))
            return st
        try:
            st.worlds = {labels[str(k)]: str(w) for k, w in (data.get("worlds") or {}).items()}
            for k, counts in (data.get("tokens") or {}).items():
                if len(counts) != seats:
                    raise PositionError(f"tokens: {k}: needs one count per seat ({seats})")
                st.tokens[labels[str(k)]] = [int(n) for n in counts]
        except KeyError as e:
            raise PositionError(f"the position names hex {e.args[0]!r}, which the map does not have") from None
        st.recount()
        st.pool = dict(data.get("pool") or Counter(_all_cards(st)))
        return st

    def sample_state(self, observation: Any, rng: random.Random) -> AlienState:
        """A state matching what the observer knows: unseen cards dealt at random to hidden slots
        (another seat's committed Force cards first, from the unseen Force cards)."""
        obs = _copy_observation(observation)
        seen = Counter(_all_cards_data(obs))
        # `list((Counter(pool) - seen).elements())` less HIDDEN, in the same order, without Counter's
        # arithmetic in Python (a search deals a determinization per iteration).
        unseen = [c for c, n in obs["pool"].items() for _ in range(n - seen.get(c, 0))]
        _shuffle(unseen, rng)
        hands = obs["hands"]
        c = obs.get("conflict")
        if c and c.get("reveal"):
            for s, cards in enumerate(c["reveal"]):
                if cards and HIDDEN not in cards and HIDDEN in hands[s]:
                    # Cards shown (Precognition sees them before choosing) stay in a hidden hand
                    # until the conflict is resolved.
                    hand = hands[s]
                    for x in cards:
                        unseen.remove(x)
                        hand[hand.index(HIDDEN)] = x
                elif cards and HIDDEN in cards and HIDDEN not in hands[s]:
                    # A hand the observer sees (Spies) holds the committed cards: one of its Force
                    # cards, or its best k (the ways to reveal k of them).
                    forces = sorted((x for x in hands[s] if self.table.kind(x) == "force"), key=lambda x: -self.table.value(x))
                    c["reveal"][s] = [rng.choice(forces)] if len(cards) == 1 else forces[:len(cards)]
                elif cards and HIDDEN in cards:
                    forces = [x for x in unseen if self.table.kind(x) == "force"][:len(cards)]
                    for x in forces:
                        unseen.remove(x)
                    c["reveal"][s] = forces
                    hand = hands[s]
                    for x in forces:
                        hand[hand.index(HIDDEN)] = x
        obs["hands"] = [[unseen.pop() if x == HIDDEN else x for x in h] for h in hands]
        obs["deck"] = [unseen.pop() if x == HIDDEN else x for x in obs["deck"]]
        # `obs` is a copy made here: the state may own it (no second copy, no checks: the
        # observation came from a valid state). Settled, as the state it came from was.
        st = self._build(obs, obs, int(obs["seats"]), SeededChance(rng.randrange(2 ** 32)), trusted=True)
        st.settle()
        return st

    # ---- balance figures (cardsmith balance adds them to its report) -----------------------------
    def balance_figures(self, records: Sequence[Any]) -> dict[str, Any]:
        import cardsmith.games.alien_empires.balance as balance

        races = {cid: info.name for cid, info in self.table.cards.items() if info.kind == "race"}
        return balance.figures(records, races)

    def balance_text(self, figures: Mapping[str, Any]) -> str:
        import cardsmith.games.alien_empires.balance as balance

        return balance.text(dict(figures))

    def balance_sentences(self, figures: Mapping[str, Any]) -> list[str]:
        import cardsmith.games.alien_empires.balance as balance

        return balance.sentences(dict(figures))

    # ---- evaluation -----------------------------------------------------------------------------
    def heuristic(self, state: AlienState, seat: int) -> float:
        """0..1: worlds controlled, tokens and cards against the other players' mean."""
        if state.is_terminal():
            return state.returns()[seat]
        if seat in state.out:
            return state.out.index(seat) / max(1, state.seats - 1)
        alive = state.alive()
        worlds = dict.fromkeys(alive, 0)
        rows = state.tokens
        for h in state.worlds:
            row = rows[h]
            holders = [s for s in alive if row[s]]
            if len(holders) == 1:
                worlds[holders[0]] += 1
        tokens = {s: sum(map(itemgetter(s), rows)) for s in alive}
        others = [s for s in alive if s != seat] or [seat]
        k = len(others)
        all_tokens = max(1, sum(tokens.values()))
        cards = len(state.hands[seat]) - sum(len(state.hands[s]) for s in others) / k
        value = (0.5 + 0.35 * (worlds[seat] - sum(worlds[s] for s in others) / k) / max(1, len(state.worlds))
                 + 0.3 * (tokens[seat] - sum(tokens[s] for s in others) / k) / all_tokens + 0.005 * cards
                 + 0.1 * len(state.out) / max(1, state.seats - 1))
        return max(0.0, min(1.0, value))


# Observation entries that are flat lists (cards, seats) or one flat list per seat: copied as lists,
# which is what plain_copy makes of them, without its walk over every item.
_FLAT = frozenset({"order", "out", "deck", "discard", "neutral", "to_act"})
_PER_SEAT = frozenset({"hands", "destiny", "played"})


def _copy_observation(observation: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of an observation (plain_copy's result, sooner: determinization runs it for every
    sample a search deals)."""
    out: dict[str, Any] = {}
    for k, v in observation.items():
        if k in _FLAT:
            out[k] = list(v)
        elif k in _PER_SEAT:
            out[k] = [list(x) for x in v]
        elif k == "pool" or k == "worlds":  # (label or card -> a string or a count)
            out[k] = dict(v)
        elif k == "tokens":  # label -> one count per seat
            out[k] = {h: list(n) for h, n in v.items()}
        else:
            out[k] = plain_copy(v)
    return out


def _shuffle(items: list, rng: random.Random) -> None:
    """`rng.shuffle(items)`, drawn as CPython's `Random.shuffle` draws it (another kind of generator
    shuffles by its own method)."""
    if type(rng) is random.Random:
        shuffle_like_random(items, rng)
    else:
        rng.shuffle(items)


def _all_cards_data(data: Mapping[str, Any]) -> list[str]:
    """Every card a position holds: hands, deck, discard pile, Racial Destinies."""
    out: list[str] = []
    for h in data["hands"]:
        out.extend(h)
    out.extend(data["deck"])
    out.extend(data["discard"])
    for d in data["destiny"]:
        out.extend(d)
    return out


def _all_cards(st: AlienState) -> list[str]:
    return _all_cards_data({"hands": st.hands, "deck": st.deck, "discard": st.discard, "destiny": st.destiny})


def _check(st: AlienState) -> None:
    for f in ("hands", "destiny", "played"):
        if not isinstance(getattr(st, f), list) or len(getattr(st, f)) != st.seats:
            raise PositionError(f"{f}: needs one entry per seat ({st.seats})")
    if sorted(st.order) != list(range(st.seats)):
        raise PositionError(f"order: {st.order!r} must list every seat once")
    for c in _all_cards(st):
        if c not in st.table:
            raise PositionError(f"the position names card {c!r}, which the set does not have")
    for s, cards in enumerate(st.destiny):
        for c in cards:
            if st.table.kind(c) != "race":
                raise PositionError(f"destiny[{s}]: {c!r} is not a Race card (a Racial Destiny holds Race cards)")
