"""Chance: separate seeded streams for public and hidden randomness, and a scripted stand-in for tests.

A run seed and a game index give the game's seed through a strong hash (`game_seed`), so runs with
seeds 1, 3 and 5 play unrelated games rather than shifted copies of one another. Inside a game each
stream ("public", "seat0", "seat1", ...) has its own generator, seeded by hashing (game seed, stream
name): the public dice reveal nothing about the order of a seat's own shuffled deck, and one seat's
shuffle tells nothing of another's.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from typing import Any, Iterable, Mapping


def derive_seed(*parts: object) -> int:
    """A stable 64-bit seed from printable parts (same parts, same seed, on every machine)."""
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8, person=b"cardsmith").digest(), "big")


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run started with `run_seed` (a hash, not run_seed + index)."""
    return derive_seed("game", run_seed, index)


def stream_seed(seed: int, stream: str) -> int:
    """The seed of one named chance stream of the game with seed `seed`."""
    return derive_seed("stream", seed, stream)


def agent_rng(seed: int, seat: int) -> random.Random:
    """The generator of the agent in `seat` for the game with seed `seed` (apart from game chance)."""
    return random.Random(derive_seed("agent", seed, seat))


def seat_stream(seat: int) -> str:
    """The name of the stream for chance only `seat` may know (its own deck's shuffle)."""
    return f"seat{seat}"


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n >= 1: the same number, drawn the way CPython draws it (so the same
    games), without randrange's argument checks and two Python layers (dice are rolled in every
    combat of every simulated game)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle_like_random(items: list, rng: random.Random) -> None:
    """`rng.shuffle(items)`: `random.shuffle`'s Fisher-Yates, each swap drawn as `below` draws it (the
    same order, so the same games, without two Python calls per card: every game shuffles its decks)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class SeededChance:
    """Chance from independent generators, one per stream, made on first use.

    `fork()` gives a twin whose generators are in the same states (a clone of a game state rolls the
    same dice as the original would, which replays and tests rely on). The two share the generators
    until either draws: it then copies them for itself (most clones a search makes never roll, and
    copying a Mersenne Twister is most of what cloning a state costs).
    """

    __slots__ = ("seed", "_streams", "_shared")

    def __init__(self, seed: int):
        self.seed = seed
        self._streams: dict[str, random.Random] = {}
        self._shared = False  # True: the generators may be another fork's too (copy before drawing)

    def _own(self) -> dict[str, random.Random]:
        """The generators, copied first when a fork shares them."""
        if self._shared:
            self._streams = {name: _copied(rng) for name, rng in self._streams.items()}
            self._shared = False
        return self._streams

    def _rng(self, stream: str) -> random.Random:
        streams = self._own() if self._shared else self._streams
        rng = streams.get(stream)
        if rng is None:
            rng = streams[stream] = random.Random(stream_seed(self.seed, stream))
        return rng

    def roll(self, sides: int, why: str = "", stream: str = "public") -> int:
        return below((not self._shared and self._streams.get(stream)) or self._rng(stream), sides) + 1

    def randrange(self, n: int, why: str = "", stream: str = "public") -> int:
        return below((not self._shared and self._streams.get(stream)) or self._rng(stream), n)

    def shuffle(self, items: list, why: str = "", stream: str = "public") -> None:
        shuffle_like_random(items, self._rng(stream))

    def fork(self) -> "SeededChance":
        twin = SeededChance.__new__(SeededChance)
        twin.seed = self.seed
        twin._streams = dict(self._streams)
        twin._shared = self._shared = bool(self._streams)
        return twin


def _copied(rng: random.Random) -> random.Random:
    """A generator in the state `rng` is in (`Random.__new__` skips seeding from the system first)."""
    copy = random.Random.__new__(random.Random)
    copy.setstate(rng.getstate())
    return copy


_MASK = (1 << 64) - 1


class LookaheadChance:
    """Chance for an agent's imagined futures (a determinization and its clones): one xorshift64*
    generator in plain Python, forked by copying one integer, where `SeededChance` would hash a
    seed per stream and copy a Mersenne Twister's 625 words at each fork. Greedy and search agents
    roll dice in thousands of look-ahead copies per decision. Its streams are not kept apart: the
    dice it rolls were made up by the agent, so they reveal nothing. Never use it for a real game.
    """

    __slots__ = ("_x",)

    def __init__(self, seed: int):
        self._x = (seed & _MASK) or 0x9E3779B97F4A7C15  # xorshift needs a non-zero state

    def _next(self) -> int:
        x = self._x
        x ^= x >> 12
        x ^= (x << 25) & _MASK
        x ^= x >> 27
        self._x = x
        return ((x * 0x2545F4914F6CDD1D) & _MASK) >> 11  # the high 53 bits (the low ones are weaker)

    def roll(self, sides: int, why: str = "", stream: str = "public") -> int:
        return self._next() % sides + 1  # the bias of a 53-bit modulo is below 1e-14

    def randrange(self, n: int, why: str = "", stream: str = "public") -> int:
        return self._next() % n

    def shuffle(self, items: list, why: str = "", stream: str = "public") -> None:
        for i in range(len(items) - 1, 0, -1):  # Fisher-Yates
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> "LookaheadChance":
        twin = LookaheadChance.__new__(LookaheadChance)
        twin._x = self._x
        return twin


def shuffled(items: list, rng: random.Random) -> list:
    """A uniformly shuffled copy of `items`, drawn from `rng`: sorted by one random float each, about
    four times faster than `rng.shuffle` in CPython (determinizations shuffle every hidden card)."""
    r = rng.random
    return sorted(items, key=lambda _: r())


class ChanceExhausted(AssertionError):
    """A scripted test asked for more chance than it scripted."""


class ScriptedChance:
    """Chance that a test writes down: die results in order, and shuffles that keep the given order.

    `ScriptedChance(rolls=[6, 1, 3])` makes the next three rolls 6, 1 and 3 (whatever their stream);
    `randrange` takes its results from `picks`; shuffles leave lists as they are, unless `orders`
    maps a `why` to the exact order wanted. Running out is an error, so a test sees every roll it
    did not expect. `fallback` (a seed) lets a scripted prefix continue with seeded chance.
    """

    def __init__(self, rolls: Iterable[int] = (), picks: Iterable[int] = (),
                 orders: Mapping[str, list] | None = None, fallback: int | None = None):
        self.rolls: deque[int] = deque(rolls)
        self.picks: deque[int] = deque(picks)
        self.orders = dict(orders or {})
        self.asked: list[tuple[str, str, Any]] = []  # (kind, why, result): what the game asked for
        self._fallback = SeededChance(fallback) if fallback is not None else None

    def roll(self, sides: int, why: str = "", stream: str = "public") -> int:
        if not self.rolls:
            if self._fallback is None:
                raise ChanceExhausted(f"unscripted d{sides} roll ({why or 'no reason given'})")
            value = self._fallback.roll(sides, why, stream)
        else:
            value = self.rolls.popleft()
            if not 1 <= value <= sides:
                raise ChanceExhausted(f"scripted roll {value} does not fit a d{sides} ({why})")
        self.asked.append(("roll", why, value))
        return value

    def randrange(self, n: int, why: str = "", stream: str = "public") -> int:
        if not self.picks:
            if self._fallback is None:
                raise ChanceExhausted(f"unscripted pick among {n} ({why or 'no reason given'})")
            value = self._fallback.randrange(n, why, stream)
        else:
            value = self.picks.popleft()
            if not 0 <= value < n:
                raise ChanceExhausted(f"scripted pick {value} is not below {n} ({why})")
        self.asked.append(("pick", why, value))
        return value

    def shuffle(self, items: list, why: str = "", stream: str = "public") -> None:
        wanted = self.orders.get(why)
        if wanted is not None:
            if sorted(map(str, wanted)) != sorted(map(str, items)):
                raise ChanceExhausted(f"scripted order for '{why}' is not a permutation of the items")
            items[:] = list(wanted)
        self.asked.append(("shuffle", why, None))

    def fork(self) -> "ScriptedChance":
        twin = ScriptedChance(self.rolls, self.picks, self.orders)
        twin._fallback = self._fallback.fork() if self._fallback is not None else None
        return twin
