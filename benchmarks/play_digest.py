"""One hex digest of how a bundled set's game plays: a speed change must leave it unchanged.

    python benchmarks/play_digest.py [SET] [--games 40] [--probe-games 3] [--every 7] [-v]

SET is a bundled set id (alien-empires by default; trf, solar-empires...). Random agents play
`--games` games through `engine.runner.play_game` (the simulation's path): two seats on the set's
first and last sample decks, or, for a common-deck game (Alien Empires, TransWar), the first deck
at 2, 3 and 5 seats. Every third game keeps its log; the others are muted, as simulations run.
Hashed per game: the actions, ranks, returns, end reason, capped, turns, cards played, summary
and, when kept, the log.

Search primitives are covered too: along `--probe-games` of those games (replayed from their
actions on a fresh muted state), every `--every`-th step hashes the acting seat's legal actions,
its observation, a clone's legal actions after one random move (and that the original did not
move), and a determinization `game.sample_state(observation, rng)` (its seats to act and legal
actions). Sets and dicts are hashed in sorted order, so the digest does not depend on
PYTHONHASHSEED. `-v` prints a digest per game too, to find where two trees part. The tree digested
is the one PYTHONPATH names (else this script's): `PYTHONPATH=/other/tree python benchmarks/play_digest.py`.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path
from typing import Any

# PYTHONPATH, when set, chooses the tree (so one copy of this script can digest main and a branch);
# the sets are read from that same tree.
sys.path.append(str(Path(__file__).resolve().parents[1]))

import cardsmith  # noqa: E402
from cardsmith.engine.runner import mute, play_game  # noqa: E402

ROOT = Path(cardsmith.__file__).resolve().parents[1]

COMMON_DECK_SEATS = (2, 3, 5)


def canon(x: Any) -> str:
    """A text for `x` that does not depend on set or dict order (nor on hash randomization)."""
    if isinstance(x, dict):
        return "{" + ",".join(sorted(f"{canon(k)}:{canon(v)}" for k, v in x.items())) + "}"
    if isinstance(x, (set, frozenset)):
        return "{" + ",".join(sorted(canon(v) for v in x)) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ",".join(canon(v) for v in x) + "]"
    return repr(x)


def load(set_id: str):
    """(game, tables): `tables` lists (decks, seats) to play for the bundled set `set_id`."""
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.sets import deck_files, load_checked_deck, load_set_checked

    path = ROOT / "cards" / set_id
    if not (path / "set.yaml").is_file():
        raise SystemExit(f"{path}: no set.yaml; give a bundled set id (one of {sorted(p.name for p in (ROOT / 'cards').iterdir())})")
    cardset = load_set_checked(path)
    files = deck_files(path)
    decks = [load_checked_deck(cardset, p) for p in files]
    game = load_game(cardset)
    if len(decks) == 1:  # a common-deck game: the one deck in every seat
        return game, [([decks[0]] * n) for n in COMMON_DECK_SEATS]
    return game, [[decks[0], decks[-1]]]


def game_text(record) -> str:
    return canon((record.actions, record.ranks, record.returns(), record.end_reason, record.capped, record.turns,
                  record.cards_played, record.summary, record.first_actor, record.log))


def probe(game, decks, record, every: int, seed: int) -> str:
    """The search primitives along one game: legal actions, observations, clones, determinizations."""
    rng = random.Random(seed)
    state = game.new_game(list(decks), record.seed)
    mute(state)
    parts = []
    for step, (seat, action) in enumerate(record.actions):
        if step % every == 0:
            legal = state.legal_actions(seat)
            obs = state.observation(seat)
            twin = state.clone()
            twin.apply(rng.choice(legal), seat)
            if state.legal_actions(seat) != legal:
                raise SystemExit(f"step {step}: moving a clone changed the original's legal actions")
            guess = game.sample_state(obs, rng)
            acting = guess.to_act()
            parts.append(canon((step, legal, obs, twin.to_act(), twin.legal_actions(twin.to_act()[0]) if twin.to_act() else (),
                                acting, guess.legal_actions(acting[0]) if acting else ())))
        state.apply(action, seat)
    return "".join(parts)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", nargs="?", default="alien-empires")
    ap.add_argument("--games", type=int, default=40, help="random games per table (default 40)")
    ap.add_argument("--probe-games", type=int, default=3, help="games per table whose search primitives are hashed")
    ap.add_argument("--every", type=int, default=7, help="probe every Nth step of those games")
    ap.add_argument("-v", "--verbose", action="store_true", help="print a digest per game")
    args = ap.parse_args(argv)
    game, tables = load(args.set)
    total = hashlib.sha256()
    for decks in tables:
        for i in range(args.games):
            seed = 1000 * len(decks) + i
            record = play_game(game, decks, ["random"] * len(decks), seed, index=i, keep_log=i % 3 == 0)
            text = game_text(record)
            if i < args.probe_games:
                text += probe(game, decks, record, args.every, seed)
            total.update(text.encode())
            if args.verbose:
                print(f"{len(decks)} seats game {i}: {hashlib.sha256(text.encode()).hexdigest()[:16]}")
    print(total.hexdigest())


if __name__ == "__main__":
    main()
