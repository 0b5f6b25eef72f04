"""Seeds: game chance and every agent draw from separate, reproducible generators.

Game i of a run uses seed `base + i` for the game's own chance (shuffles, dice, coin tosses, drawn
inside `new_game`/`apply`). Each agent gets a `random.Random` derived from (game seed, seat) through
a stable hash, so its choices neither share nor disturb the game's chance, and the same seed gives
the same games on every machine and in every worker process (Python's `hash()` is salted per process).
"""

from __future__ import annotations

import hashlib
import random


def game_seed(base: int, index: int) -> int:
    """The chance seed of game `index` of a run that starts at `base`."""
    return base + index


def derive_seed(*parts: object) -> int:
    """A stable 64-bit seed from any printable parts (same parts, same seed, everywhere)."""
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def agent_rng(seed: int, seat: int) -> random.Random:
    """The generator of the agent in `seat` for the game with chance seed `seed`."""
    return random.Random(derive_seed("agent", seed, seat))
