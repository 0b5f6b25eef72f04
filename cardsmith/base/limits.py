"""Bounds on every count and size a user writes, and on what commands multiply them into.

A set is checked against these when it is validated, so a typo such as `copies: 1000000000000`
is an error naming the file and line, not a command that runs out of memory later. Commands that
multiply counts (printing every copy, Tabletop Simulator piles) check the product as well.
"""

from __future__ import annotations

from typing import Any

from cardsmith.base.errors import CardsmithError

MAX_COPIES = 999  # copies of one card in a set or a deck: more than any table holds, surely a typo
MAX_DECK_SIZE = 9999  # a deck rule's size or count
MAX_CARD_MM = 600.0  # a card (or board) side; 600 mm at 300 dpi is already 50 megapixels
MAX_BLEED_MM = 25.0  # bleed or safe margin
MAX_PRINTED = 20_000  # cards one command lays out (PDF pages, a Tabletop Simulator deck)
MAX_FACE_PIXELS = 150_000_000  # one card or board image, bleed included: more would need gigabytes per worker
MAX_TEXT_CHARS = 20_000  # one text in a set or card file: a card shows a few hundred; 4.8 MB of rules text took minutes to draw
MAX_PAPER_MM = 5080.0  # a paper side: 200 in, the largest PDF page Acrobat and most viewers show (a 100 m sheet laid out millions of card slots)

# An SVG icon or picture (issue 32): drawn by resvg in native code, where nothing can interrupt it.
MAX_SVG_BYTES = 5 * 1024 * 1024  # an icon is a few kilobytes; more is a wrong file, or a hostile one
MAX_SVG_EXPANDED = 100_000  # elements once <use> is expanded: icons hold hundreds; nested uses multiply
MAX_SVG_FILTER_PRIMITIVES = 64  # filter steps (feBlur, feTurbulence...): a drop shadow takes three or four
MAX_SVG_OCTAVES = 10  # feTurbulence numOctaves: each halves the last; past 10 nothing changes at print size (1e8 hung)
MAX_SVG_KERNEL = 9  # feConvolveMatrix order: 9 x 9 taps per pixel already blurs past any use
MAX_SVG_RADIUS = 200.0  # feMorphology radius / blur deviation, in the icon's units: work grows with it

# One layout for one card face (issue 32): faces take milliseconds, a few hundred kilobytes, tens of layers.
LAYOUT_CPU_SECONDS = 5.0  # CPU, not wall time (a loaded machine does not trip it); nested range loops ran 80 s
MAX_LAYOUT_MEMORY = 512 * 1024 * 1024  # growth of the process while one layout runs: a face needs a few MB
MAX_LAYOUT_STRING = 100_000  # characters of one string a layout builds (join, ljust, center, format, %, +)
MAX_LAYOUT_OUTPUT = 2_000_000  # characters of one layout's rendered YAML (the bundled ones write a few KB)
MAX_LAYOUT_NODES = 200_000  # values in that YAML once aliases are expanded (an alias bomb ran past 60 s)
MAX_LAYOUT_MM = 10 * MAX_CARD_MM  # a length in a layout: .nan, .inf and 1e308mm crashed the painter
MAX_TEXT_PT = 1_000.0  # a text size: 35 cm letters; FreeType refuses far larger (100000pt blamed the font)
MAX_LAYOUT_LAYERS = 2_000  # layers on one face: the bundled layouts draw at most a few dozen (100,000 took 47 s)

# Decks and positions from others (issue 32)
MAX_DECK_FILE_BYTES = 1_000_000  # 9,999 lines of `999x Card name` fit in half of it
MAX_DECK_HINTS = 20  # unknown cards given a "did you mean" (each scans the set: 20,000 unknown names took 30 s)
MAX_POSITION_BYTES = 500_000  # a position file: a bundled game writes a few kilobytes; YAML reads ~0.2 MB a second
MAX_POSITION_VALUES = 50_000  # values in a position: five 9,999-card decks (a 200,000-card deck took 30 s to check)

# What a command line asks for (issue 32): each was unbounded and ran out of memory, handles or patience.
MAX_RUN_GAMES = 100_000  # --games, --budget, --search-decks: a few thousand games already give tight intervals
CLUSTER_HANDSHAKE_SECONDS = 5.0  # a Dask scheduler answers a new connection at once; an HTTP port never does


def cores() -> int:
    """The cores this process may run on: what --jobs and --cluster local:N are capped at (10,000 jobs
    started 89 render processes and 2 GB; local:10000 ran out of file handles)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_total(total: int, what: str, hint: str) -> None:
    """Refuse a product of counts too large to lay out, before any memory is spent on it."""
    if total > MAX_PRINTED:
        raise CardsmithError(f"{what} comes to {total:,} cards; cardsmith lays out at most {MAX_PRINTED:,} at once",
                             hint=hint)


def check_export(cardset: Any, deck: Any = None) -> None:
    """Refuse an export (print shop, Tabletop Simulator) of more cards than cardsmith lays out, before
    any card is drawn: the set's every copy, or the deck's count."""
    if deck is not None:
        check_total(deck.count(), f"deck {deck.name}", "lower the counts in the deck file")
        return
    check_total(sum(max(1, c.copies) for c in cardset.cards), f"every copy in {cardset.id}",
                "export a deck instead (--deck), or lower `copies:` in the card files")
