"""Alien Empires' own players: `conqueror`, a rule-based player that counts progress towards the
game's victory (worlds colonised, enemy stacks it can destroy), and `raider`, the same without its
migration plan (it moves like random play but fights like the conqueror).

Both read only their seat's observation and the legal actions (no determinization: every rule reads
public facts, the seat's own hand and the number of cards in the other hands). A decision is one
pass over the board: no clone, no look-ahead, so a game costs a few times a random game.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping

import cardsmith.games.alien_empires.powers as P
from cardsmith.games.alien_empires.hexmap import HexMap
from cardsmith.games.alien_empires.manoeuvres import counts

Obs = Mapping[str, Any]
Action = tuple

# Race powers by how much they help a player who moves and fights as the conqueror does (a Racial
# Destiny is chosen from the Race cards in hand); powers not listed count 1.
_POWER_VALUE = {
    "token_force": 9, "pair_force": 8, "genesis": 9, "move_range": 5, "move_times": 6, "unlimited_attacks": 6,
    "win_tokens": 6, "double_force_card": 5, "discard_for_force": 5, "fate_draw": 5, "jinx": 3, "hand_size": 4,
    "mind_control": 5, "reinforcement": 4, "second_chance": 5, "booby_trap": 3, "conflict_draw": 4,
    "win_draw": 4, "assassination": 3, "breeder": 4, "ally_range": 2, "gatherer": 3, "precognition": 4,
    "spies": 2, "force_card_limit": 4, "escape": 2, "contraceptives": 4, "inconspicuous": 2,
}
# Conflict Events worth playing whenever the conflict is one's own (the others are kept or discarded).
_GOOD_EVENTS = frozenset({"force", "enemy_force", "kill_tokens", "convert_token", "double_force_card", "null_field",
                          "win_draw", "draw", "enemy_discard"})
COLONY = 10.0      # a world newly colonised: one more token every turn
MOVES = 30         # moves a turn at most
STANDOFF = 40      # from this turn on, attacks need a little less edge each turn (no endless standoffs)
MEAN_CARD = 3.5    # the mean Force card of the standard deck (1..10, more low cards than high)


class _Board:
    """What a decision needs of the observation: tokens by hex, per seat, and the map's numbers."""

    def __init__(self, hexmap: HexMap, obs: Obs, seat: int):
        index = hexmap.index
        self.map, self.seat = hexmap, seat
        self.rows: dict[int, list[int]] = {index(k): v for k, v in obs["tokens"].items()}
        self.worlds = {index(k) for k in obs["worlds"]}
        self.alive = [s for s in range(int(obs["seats"])) if s not in obs["out"]]

    def mine(self, h: int) -> int:
        row = self.rows.get(h)
        return row[self.seat] if row else 0

    def theirs(self, h: int, s: int | None = None) -> int:
        row = self.rows.get(h)
        if not row:
            return 0
        return row[s] if s is not None else sum(row) - row[self.seat]

    def area(self, h: int, s: int) -> int:
        """Seat s's tokens in the space and next to it (what "commit all" brings to a conflict there)."""
        rows = self.rows
        return sum(rows[a][s] for a in (h, *self.map.adjacent[h]) if a in rows)


class Conqueror:
    """Colonise every free world in reach, gather stacks to crush enemy stacks, attack only where
    the tokens and the Force cards in hand promise a win, spend every Force card when it counts.

    `margin`: how much more Force than the defender's expected total an attack needs (default 2);
    `plan`: False moves at random (the `raider` rung)."""

    name = "conqueror"

    def __init__(self, game: Any, margin: int = 2, plan: bool = True):
        self.game = game
        self.map: HexMap = game.map
        self.table = game.table
        self.margin = margin
        self.plan = plan
        self._chosen: tuple | None = None  # (turn, source, destination, count) of the last migrate choice
        self._turn, self._moves = 0, 0
        self._vacated: set[str] = set()  # this turn's moves and the spaces they left
        self._by_kind: dict[str, Callable[[Obs, tuple, int], Action | None]] = {
            "homeworld": self._homeworld, "destiny": self._destiny, "discard": self._discard, "fate": self._fate,
            "genesis": self._breed, "migrate": self._migrate, "move_to": self._move_to, "attack": self._attack,
            "commit": self._commit, "cards": self._cards, "reveal": self._reveal, "time_control": self._time_control,
            "clean_slate": lambda o, legal, s: legal[-1], "ally": lambda o, legal, s: ("ally", "none"),
            "allow": lambda o, legal, s: ("allow",), "pacify": lambda o, legal, s: ("fight",),
        }

    def act(self, observation: Obs, legal_actions: tuple, rng: random.Random, seat: int) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        stack = observation["stack"]
        kind = stack[-1]["kind"] if stack else ""
        if not self.plan and kind in ("migrate", "move_to"):
            return legal_actions[rng.randrange(len(legal_actions))]
        rule = self._by_kind.get(kind)
        if rule is not None:
            choice = rule(observation, legal_actions, seat)
            if choice is not None and choice in legal_actions:
                return choice
        # Powers' optional steps (stay, pass, keep, none...): the first action declines.
        return legal_actions[0]

    # ---- setup ----------------------------------------------------------------------------------
    def _homeworld(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """The world with most worlds near it and farthest from the homeworlds already taken."""
        b = _Board(self.map, obs, seat)
        taken = [h for h in b.rows]
        dist = self.map.dist

        def score(action: Action) -> float:
            h = self.map.index(action[1])
            near = sum(1 for w in b.worlds if w != h and dist[h][w] <= 2)
            far = min((dist[h][t] for t in taken), default=8)
            return near + 3 * min(far, 5)  # out of reach of a first-turn attack before all else
        return max(legal, key=score)

    def _destiny(self, obs: Obs, legal: tuple, seat: int) -> Action:
        def value(action: Action) -> float:
            info = self.table[action[1]]
            return sum(_POWER_VALUE.get(str(e.get("do")), 1) * (1 if int(e.get("amount", 1) or 1) > 0 else -1)
                       for e in info.effects)
        return max(legal, key=value)

    # ---- cards ----------------------------------------------------------------------------------
    def _card_worth(self, card: str) -> float:
        info = self.table[card]
        if info.kind == "force":
            return 2 + info.value
        if info.kind == "event":
            return 6 if info.does[0] in _GOOD_EVENTS or info.timing == "fate" else 3
        return 0  # a Race card in hand does nothing after setup

    def _discard(self, obs: Obs, legal: tuple, seat: int) -> Action:
        return min(legal, key=lambda a: (self._card_worth(a[1]), a[1]))

    def _fate(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """Play Fate Events (tokens on the largest colony), then draw, then end the phase."""
        plays = [a for a in legal if a[0] == "play"]
        if plays:
            b = _Board(self.map, obs, seat)
            return max(plays, key=lambda a: b.mine(self.map.index(a[2])) if len(a) > 2 else 1_000)
        if ("draw",) in legal:
            return ("draw",)
        return ("done",)

    def _breed(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """Breeder: a Race card (useless now) for 2 tokens on the colony nearest an enemy."""
        b = _Board(self.map, obs, seat)
        breeds = [a for a in legal if a[0] == "breed" and self.table.kind(a[1]) == "race"]
        if not breeds:
            return ("done",)
        return min(breeds, key=lambda a: self._threat_distance(b, self.map.index(a[2])))

    def _threat_distance(self, b: _Board, h: int) -> int:
        dist = self.map.dist[h]
        return min((dist[a] for a in b.rows if b.theirs(a)), default=99)

    # ---- migration ------------------------------------------------------------------------------
    def _migrate(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """The best move, or done. The rules count moved tokens per space, so tokens could shuttle
        between two spaces for ever: no move goes into a space tokens left this turn, and a turn
        has at most MOVES moves."""
        turn = obs["turn"]
        if self._turn != turn:
            self._turn, self._moves, self._vacated = turn, 0, set()
        best = None
        if self._moves < MOVES:
            best = self._best_move(obs, seat, {a[1] for a in legal if a[0] == "stack"}, avoid=self._vacated)
        self._chosen = (turn, *best) if best is not None else None
        if best is None:
            return ("done",)
        self._moves += 1
        self._vacated.add(best[0])
        return ("stack", best[0])

    def _move_to(self, obs: Obs, legal: tuple, seat: int) -> Action:
        src = obs["stack"][-1]["src"]
        chosen = self._chosen
        if chosen is not None and chosen[:2] == (obs["turn"], src):
            want = ("move", src, chosen[2], chosen[3])
            if want in legal:  # the move the migrate decision chose this stack for
                return want
        best = self._best_move(obs, seat, {src}, {(a[2], a[3]) for a in legal})
        if best is None:
            return legal[0]
        return ("move", src, best[1], best[2])

    def _best_move(self, obs: Obs, seat: int, sources: set[str], allowed: set[tuple[str, int]] | None = None,
                   avoid: set[str] = frozenset()) -> tuple[str, str, int] | None:  # type: ignore[assignment]
        """The most useful (source, destination, count) move now, or None when no move helps."""
        b = _Board(self.map, obs, seat)
        aims = _Aims(b, self.margin)
        hmap = self.map
        labels = hmap.labels
        moved = obs["turnstate"]["moved"]
        reach = P.move_range(_Powers(self.game, obs), seat)
        best: tuple[float, str, str, int] | None = None
        for src in sorted(sources):
            h = hmap.index(src)
            have = b.mine(h)
            free = have - int(moved.get(src, 0))
            if free <= 0:
                continue
            # On a world keep one token (the colony) and, next to enemies, enough to hold it.
            keep = 0
            if h in b.worlds:
                threat = aims.to_enemy[h]
                keep = 1 + (max(0, b.area(h, _strongest(b, h)) - 1) if threat is not None and threat <= 1 else 0)
            # A move takes one, half or all of the free tokens: the most of those that leaves `keep`.
            spare = max((k for k in counts(free) if k <= have - keep), default=0)
            if spare <= 0:
                continue
            dests = hmap.within(h, reach) if allowed is None else tuple(sorted({hmap.index(x) for x, _ in allowed}))
            for value, d, k in aims.moves(h, spare, dests):
                dlabel = labels[d]
                if (allowed is not None and (dlabel, k) not in allowed) or dlabel in avoid:
                    continue
                if value > 0 and (best is None or value > best[0]):
                    best = (value, src, dlabel, k)
        return None if best is None else best[1:]

    # ---- conflicts ------------------------------------------------------------------------------
    def _force_cards(self, obs: Obs, seat: int) -> list[int]:
        return sorted((self.table.value(c) for c in obs["hands"][seat] if self.table.kind(c) == "force"), reverse=True)

    def _attack(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """The attack with the largest expected margin, if it clears `margin`; else done."""
        b = _Board(self.map, obs, seat)
        cards = sum(self._force_cards(obs, seat))
        best, best_value = ("done",), 0.0
        for a in legal:
            if a[0] != "attack":
                continue
            h, s = self.map.index(a[1]), a[2]
            mine, theirs = b.area(h, seat), b.area(h, s)
            expected = theirs + MEAN_CARD * min(3, len(obs["hands"][s]) + 1)
            edge = mine + cards - expected
            if edge < self.margin - max(0, int(obs["turn"]) - STANDOFF) / 10:
                continue
            value = edge + 3 * b.theirs(h, s) + (5 if h in b.worlds else 0)
            if value > best_value:
                best, best_value = a, value
        return best

    def _commit(self, obs: Obs, legal: tuple, seat: int) -> Action:
        return ("commit", "all") if ("commit", "all") in legal else legal[0]

    def _cards(self, obs: Obs, legal: tuple, seat: int) -> Action:
        for a in legal:
            if a[0] == "play" and self.table[a[1]].does[0] in _GOOD_EVENTS:
                return a
        for a in legal:
            if a[0] == "berserk" and self.table.kind(a[1]) == "race":
                return a
        return ("pass",)

    def _reveal(self, obs: Obs, legal: tuple, seat: int) -> Action:
        """Every Force card when the conflict is close; the lowest when it is won or lost anyway."""
        c = obs["conflict"] or {}
        b = _Board(self.map, obs, seat)
        h = self.map.index(c["hex"]) if c.get("hex") else None
        total = lambda a: sum(self.table.value(x) for x in a[1:])  # noqa: E731
        if h is not None:
            other = c["defender"] if seat == c["attacker"] else c["attacker"]
            mine = sum((c["commit"][seat] or {}).values())
            theirs = sum((c["commit"][other] or {}).values())
            best_card = max((total(a) for a in legal), default=0)
            if mine - theirs > MEAN_CARD * 4 or theirs - mine > best_card + 4:
                return min(legal, key=total)
            del b
        return max(legal, key=total)

    def _time_control(self, obs: Obs, legal: tuple, seat: int) -> Action:
        return ("first", seat) if ("first", seat) in legal else legal[0]


class _Powers:
    """The observation as the powers module reads a state (Racial Destinies are public)."""

    def __init__(self, game: Any, obs: Obs):
        self.static = id(game.settings)  # the key the game's states use for their Race powers
        self.table, self.settings = game.table, game.settings
        self.destiny, self.conflict, self.turnstate = obs["destiny"], obs["conflict"], obs["turnstate"]
        self._alive = [s for s in range(int(obs["seats"])) if s not in obs["out"]]
        self.does = [P.cards_handlers(self, d) for d in self.destiny]

    def alive(self) -> list[int]:
        return self._alive


class _Nearest(dict):
    """hex -> the distance to the nearest of `targets` (None when there is none), worked out when asked."""

    def __init__(self, dist: tuple[tuple[int, ...], ...], targets: list[int]):
        super().__init__()
        self.dist, self.targets = dist, targets

    def __missing__(self, h: int) -> int | None:
        row = self.dist[h]
        got = self[h] = min([row[t] for t in self.targets]) if self.targets else None
        return got


class _Aims:
    """What a move can achieve on one board: free worlds to colonise, enemy stacks that a few more
    tokens next to them would make beatable (the tokens missing and what the win is worth), and how
    far each hex is from the nearest enemy stack (`to_enemy`) or target of either kind (`to_any`)."""

    def __init__(self, b: _Board, margin: int):
        self.b, self.dist = b, b.map.dist
        self.colonise = {w for w in b.worlds if not b.mine(w) and not b.theirs(w)}
        enemy = [h for h in b.rows if b.theirs(h)]
        self.near: dict[int, list[tuple[int, int, float]]] = {}
        for e in enemy:
            s = _strongest(b, e)
            gap = b.area(e, s) + margin - b.area(e, b.seat)  # tokens missing next to e to beat it
            if gap >= 0:
                gain = 4 + b.theirs(e, s) + (3 if e in b.worlds else 0)
                for a in (e, *b.map.adjacent[e]):
                    self.near.setdefault(a, []).append((e, gap, gain))
        self.to_enemy = _Nearest(self.dist, enemy)
        self.to_any = _Nearest(self.dist, enemy + sorted(self.colonise))

    def moves(self, h: int, spare: int, dests: tuple[int, ...]) -> list[tuple[float, int, int]]:
        """(value, destination, count) of the moves worth weighing from h with `spare` tokens: one
        token to each free world, all of them next to each enemy stack they would make beatable;
        failing both, all of them one step of the march (see `march`)."""
        out = []
        far = self.dist[h]
        for d in dests:
            near = self.near.get(d)
            if d not in self.colonise and not near:
                continue
            for k in ((1, spare) if spare > 1 else (1,)):
                value = COLONY - (k - 1) * 0.5 if d in self.colonise else 0.0  # more tokens only weaken the source
                # Gathering for an attack: enemy stacks next to d become beatable with these tokens.
                for e, gap, gain in near or ():
                    if far[e] > 1 and k > gap:
                        value += gain
                if value > 0:
                    out.append((value, d, k))
        if not out:
            march = self.march(h, dests)
            if march is not None:
                out.append((march[0], march[1], spare))
        return out

    def march(self, h: int, dests: tuple[int, ...]) -> tuple[float, int] | None:
        """Tokens with nothing better to do march on: a stack in open space towards the nearest free
        world or enemy stack, a colony's spare tokens towards the nearest enemy stack."""
        world = h in self.b.worlds
        to = self.to_enemy if world else self.to_any
        before = to[h]
        if before is None or (world and before <= 1) or not dests:
            return None
        d = min(dests, key=lambda x: (to[x], x))
        return ((before - to[d]) * 0.5, d) if to[d] < before else None


def _strongest(b: _Board, h: int) -> int:
    """The opponent with most tokens on hex h (or next to it when it has none there)."""
    others = [s for s in b.alive if s != b.seat]
    if not others:
        return b.seat
    return max(others, key=lambda s: (b.theirs(h, s), b.area(h, s)))


