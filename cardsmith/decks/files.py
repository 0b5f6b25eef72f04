"""Deck files: YAML (a map of card name -> count per zone) and plain text lists (`3x Drone`).

Both read into a `Deck` whose zones map card ids to counts. Every problem in a file is reported at
once, each with its file and line, as a `DeckFileError`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from cardsmith.decks.rules import DeckRules, parse_rules
from cardsmith.sets.model import slugify as slug
from cardsmith.base.diagnostics import Diagnostic, did_you_mean
from cardsmith.base.errors import CardsmithError
from cardsmith.base.limits import MAX_COPIES, MAX_DECK_FILE_BYTES, MAX_DECK_HINTS, MAX_DECK_SIZE
from cardsmith.sets.loader import YamlError, load_yaml
from cardsmith.sets.model import CardSet, Deck, SourceRef, frozen_map

MAX_COUNT = MAX_COPIES  # more copies than any table holds: surely a typo
META_KEYS = ("name", "set", "description", "author", "notes")
YAML_SUFFIXES = (".yaml", ".yml")
DECK_SUFFIXES = (".yaml", ".yml", ".txt", ".deck", ".dek")


def deck_files(set_dir: Path, folder: Path | None = None) -> list[Path]:
    """The deck files of a set: every file directly in `<set>/decks/` (or in `folder`) whose suffix,
    in any case, is a deck suffix (.yaml .yml .txt .deck .dek), by name.

    Names starting with "." (hidden) or "_" (a deck in progress, `_wip.yaml`) are left out, and so are
    sub-folders (decks/invalid/ holds examples of broken decks). `cardsmith build` checks these
    files and `cardsmith balance` plays them: the one rule for both.
    """
    folder = Path(folder) if folder is not None else Path(set_dir) / "decks"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and p.suffix.lower() in DECK_SUFFIXES and not p.name.startswith((".", "_")))


@dataclass(frozen=True)
class LoadedDeck(Deck):
    """A deck read from a file: also where each card was written (`lines[(zone, card_id)]`)."""

    lines: Mapping[tuple[str, str], int] = field(default_factory=frozen_map)
    description: str = ""
    # each zone's card ids, one per copy, line by line as written ("Rapier / Dagger / Rapier" stays
    # interleaved, where `zones` merges the copies into one count): a game may use it as a deck order
    order: Mapping[str, tuple[str, ...]] = field(default_factory=frozen_map)

    def in_order(self, zone: str) -> list[str]:
        return list(self.order[zone]) if zone in self.order else self.cards(zone)

    def line_of(self, card_id: str | None = None, zone: str | None = None) -> int:
        """The line a card (in a zone, or in any) was written on; 1 if unknown."""
        for (z, cid), line in self.lines.items():
            if (card_id is None or cid == card_id) and (zone is None or z == zone):
                return line
        return 1


class DeckFileError(CardsmithError):
    """A deck file that cannot be read; `.diagnostics` lists every problem with its line."""

    located = True

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        first = diagnostics[0]
        super().__init__(first.message, first.hint)

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


# ------------------------------------------------------------------------------------ finding the set

def deck_set_name(path: Path | str) -> str | None:
    """The set a deck file names (`set:` in YAML, `set: x` line in text), or None."""
    path = Path(path)
    try:
        if path.suffix.lower() in YAML_SUFFIXES:
            doc = load_yaml(path, allow_empty=True)
            if isinstance(doc.data, dict) and isinstance(doc.data.get("set"), str):
                return doc.data["set"]
            return None
        for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
            line = raw.strip()
            m = re.match(r"(?i)^set\s*[:=]\s*(.+)$", line)
            if m:
                return m.group(1).strip()
            if line and not line.startswith("#") and not re.match(r"(?i)^(name|description|author)\s*[:=]", line):
                return None
    except (OSError, YamlError):
        return None
    return None


def set_folder_of(path: Path | str) -> Path | None:
    """The set folder holding a deck file in its `decks/` folder (cards/<set>/decks/x.yaml)."""
    path = Path(path).resolve()
    for parent in path.parents:
        if parent.name == "decks" and (parent.parent / "set.yaml").is_file():
            return parent.parent
    return None


# ------------------------------------------------------------------------------------------- reading

def _unaccented(text: str) -> str:
    """'Crêpe' -> 'Crepe': a deck typed on a keyboard without accents still names the card."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


class _Reader:
    def __init__(self, path: Path, cardset: CardSet, rules: DeckRules):
        self.path = path
        self.cardset = cardset
        self.rules = rules
        self.problems: list[Diagnostic] = []
        self.zones: dict[str, dict[str, int]] = {}
        self.lines: dict[tuple[str, str], int] = {}
        self.order: dict[str, list[str]] = {}
        self.by_key: dict[str, str] = {}
        for c in cardset.cards:
            for key in (c.id.lower(), c.name.lower(), slug(c.name), slug(_unaccented(c.name))):
                self.by_key.setdefault(key, c.id)
        self._other_sets: dict[str, str] | None = None

    def problem(self, line: int, message: str, hint: str | None = None, column: int = 1) -> None:
        self.problems.append(Diagnostic("error", self.path, line, column, message, hint))

    def zone_id(self, name: str, line: int) -> str | None:
        """A zone by id or display name, any case, spaces or hyphens for underscores."""
        zones = self.rules.zones
        key = re.sub(r"[\s-]+", "_", name.strip().lower())
        if not zones:  # the set declares no zones: any name goes
            return key
        for zid, z in zones.items():
            if key == zid or name.strip().lower() == z.name.lower() or key == re.sub(r"[\s-]+", "_", z.name.lower()):
                return zid
        self.problem(line, f"unknown zone '{name}': set {self.cardset.id} has zones {', '.join(zones)}",
                     did_you_mean(name, list(zones) + [z.name for z in zones.values()]) or "use one of those zone names")
        return None

    def card_id(self, name: str, line: int, column: int = 1) -> str | None:
        key = name.strip().lower()
        cid = self.by_key.get(key) or self.by_key.get(slug(key))
        if cid:
            return cid
        other = self.other_sets().get(key) or self.other_sets().get(slug(key))
        if other:
            self.problem(line, f"'{name}' is a card of set {other}, not of {self.cardset.id}",
                         f"a deck holds cards of one set; remove it, or check the deck's set: (now {self.cardset.id})", column)
        else:
            # names last: where a name and an id differ only in case, the suggestion shows the name.
            # Only the first few get a suggestion: each costs a scan of the set (20,000 took 30 s)
            hint = did_you_mean(name, [c.id for c in self.cardset.cards] + [c.name for c in self.cardset.cards]) \
                if len(self.problems) < MAX_DECK_HINTS else None
            self.problem(line, f"no card named '{name}' in set {self.cardset.id}",
                         hint or f"`cardsmith list {self.cardset.id}` shows the set's cards", column)
        return None

    def other_sets(self) -> dict[str, str]:
        """Names and ids of the cards of the sets beside this one (read only when a name is unknown)."""
        if self._other_sets is None:
            self._other_sets = {}
            parent = self.cardset.path.parent
            for folder in sorted(parent.iterdir()) if parent.is_dir() else []:
                if folder.resolve() == self.cardset.path.resolve() or not (folder / "set.yaml").is_file():
                    continue
                for f in sorted(folder.glob("*.y*ml")):
                    if f.name == "set.yaml":
                        continue
                    try:
                        data = load_yaml(f).data
                    except YamlError:
                        continue
                    for c in (data.get("cards") or []) if isinstance(data, dict) else []:
                        if isinstance(c, dict):
                            for k in (c.get("id"), c.get("name")):
                                if isinstance(k, str):
                                    self._other_sets.setdefault(k.lower(), folder.name)
                                    self._other_sets.setdefault(slug(k), folder.name)
        return self._other_sets

    def add(self, zone: str, name: str, count: Any, line: int, column: int = 1, sum_repeats: bool = True) -> None:
        if isinstance(count, bool) or not isinstance(count, int):
            self.problem(line, f"the count of '{name}' must be a whole number, not {count!r}", "write e.g. `Drone: 3`", column)
            return
        if count < 0:
            self.problem(line, f"negative count {count} for '{name}'", "a count is 0 or more", column)
            return
        if count > MAX_COUNT:
            self.problem(line, f"{count} copies of '{name}' is more than any deck holds (at most {MAX_COUNT})",
                         "is a digit too many?", column)
            return
        cid = self.card_id(name, line, column)
        if cid is None:
            return
        entries = self.zones.setdefault(zone, {})
        if cid in entries and not sum_repeats:
            first = self.lines.get((zone, cid), 0)
            self.problem(line, f"'{name}' is listed twice in {zone} (first on line {first})",
                         "list each card once with its total count", column)
            return
        if count == 0:
            return
        entries[cid] = entries.get(cid, 0) + count
        self.lines.setdefault((zone, cid), line)
        self.order.setdefault(zone, []).extend([cid] * count)

    def auto_zone(self, cid: str) -> str:
        """For a text deck without [zone] headers: the one zone that accepts this card (or the first)."""
        card = self.cardset.card(cid)
        accepting = [z for z in self.rules.zones.values() if z.accepts(card)]
        return (accepting or list(self.rules.zones.values()))[0].id

    def finish(self, name: str, set_name: str | None, description: str = "") -> LoadedDeck:
        if set_name is not None and set_name.lower() not in (self.cardset.id.lower(), self.cardset.path.name.lower()):
            self.problem(1, f"the deck is for set '{set_name}', but it is being read with set {self.cardset.id}",
                         f"check with --set {set_name}, or change the deck's set:")
        total = sum(sum(e.values()) for e in self.zones.values())
        if total > MAX_DECK_SIZE:
            self.problem(1, f"the deck holds {total:,} cards; cardsmith reads decks of at most {MAX_DECK_SIZE:,}",
                         "is a count a digit too long?")
        if not self.problems and not any(self.zones.values()):
            self.problem(1, "the deck lists no cards", "list cards as `3x Card name` (text) or `zone: {Card name: 3}` (YAML)")
        if self.problems:
            raise DeckFileError(sorted(self.problems, key=Diagnostic.sort_key))
        zones = {z: frozen_map(e) for z, e in self.zones.items()}
        return LoadedDeck(name, self.cardset.id, frozen_map(zones), SourceRef(self.path, 1, 1),
                          frozen_map(self.lines), description, frozen_map({z: tuple(o) for z, o in self.order.items()}))


# ASCII digits only: `\d` also matches Arabic-Indic and other digits, which a deck list does not mean as counts
_COUNT_FIRST = re.compile(r"^(?P<n>[-+]?[0-9]+)\s*[xX×]?\s+(?P<name>\S.*)$|^(?P<n2>[-+]?[0-9]+)[xX×](?P<name2>\S.*)$")
_COUNT_LAST = re.compile(r"^(?P<name>.*\S)\s+[xX×]\s*(?P<n>[-+]?[0-9]+)$")


def _count(digits: str) -> int:
    """A count as written; one of thousands of digits (which int() refuses past 4,300) stands as a
    count too large, which the deck's bounds then report."""
    sign = -1 if digits.startswith("-") else 1
    return int(digits) if len(digits) <= 18 else sign * 10 ** 18


def parse_line(text: str, known: Iterable[str] = ()) -> tuple[str, int]:
    """'3x Drone' / '3 Drone' / 'Drone x3' / 'Drone' -> (name, count).

    A line that is itself a card name in `known` (lower case) is one copy, so a card called
    "5000 Words" is not read as 5000 copies of "Words".
    """
    text = text.strip()
    if text.lower() in known or slug(text) in known:
        return text, 1
    m = _COUNT_FIRST.match(text)
    if m:
        n, name = (m.group("n"), m.group("name")) if m.group("n") is not None else (m.group("n2"), m.group("name2"))
        return name.strip(), _count(n)
    m = _COUNT_LAST.match(text)
    if m:
        return m.group("name").strip(), _count(m.group("n"))
    return text, 1


def _read_text(reader: _Reader, text: str) -> tuple[str | None, str | None, str]:
    zone: str | None = None
    meta: dict[str, str] = {}
    seen_card = False
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        line = re.split(r"\s+#", line, maxsplit=1)[0].strip()  # "3x Drone  # cheap" keeps "3x Drone"
        if line.startswith("[") and line.endswith("]"):
            zone = reader.zone_id(line[1:-1], i) or ""
            continue
        m = re.match(r"(?i)^(name|set|description|author)\s*:\s*(.*)$", line)
        if m and not seen_card and m.group(1).lower() not in reader.by_key:
            meta[m.group(1).lower()] = m.group(2).strip()
            continue
        seen_card = True
        name, count = parse_line(line, reader.by_key)
        if zone == "":
            continue  # under an unknown [zone] header, already reported
        if zone is None:
            if not reader.rules.zones:
                reader.problem(i, "a card before any [zone] header, and the set declares no zones",
                               "start the list with a header such as [deck]")
                continue
            cid = reader.by_key.get(name.lower()) or reader.by_key.get(slug(name))
            target = reader.auto_zone(cid) if cid else list(reader.rules.zones)[0]
            reader.add(target, name, count, i)
        else:
            reader.add(zone, name, count, i)
    return meta.get("name"), meta.get("set"), meta.get("description", "")


def _read_yaml(reader: _Reader, path: Path) -> tuple[str | None, str | None, str]:
    doc = load_yaml(path)  # an empty or malformed file raises YamlError with its line
    data = doc.data
    if not isinstance(data, dict):
        reader.problem(doc.position(())[0], "a deck file holds a map: optional name: and set:, then one key per zone",
                       "e.g.\n    name: My deck\n    fleet:\n      TCS-13 Rapier: 3")
        return None, None, ""
    for key in ("name", "set", "description", "author", "notes"):
        if key in data and not isinstance(data[key], str):
            reader.problem(doc.position((key,))[0], f"'{key}' must be text, not {type(data[key]).__name__}")
    for key, value in data.items():
        if key in META_KEYS:
            continue
        kline, kcol = doc.position((key,), key=True)
        zone = reader.zone_id(key, kline)
        if zone is None:
            continue
        if isinstance(value, dict):
            for name, count in value.items():
                line, col = doc.position((key, name), key=True)
                reader.add(zone, name, count, line, col, sum_repeats=False)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                line, col = doc.position((key, i))
                if not isinstance(item, str):
                    reader.problem(line, f"a list item of {key} must be a line like '3x Card name', not {item!r}", column=col)
                    continue
                name, count = parse_line(item, reader.by_key)
                reader.add(zone, name, count, line, col)
        elif value is None:
            continue  # an empty zone written as `fleet:`; the size rules report it if it matters
        else:
            reader.problem(kline, f"zone '{key}' must map card names to counts, not hold {value!r}",
                           f"write\n    {key}:\n      Card name: 2", kcol)
    name, set_id, description = data.get("name"), data.get("set"), data.get("description")
    return (name if isinstance(name, str) else None, set_id if isinstance(set_id, str) else None,
            description if isinstance(description, str) else "")


def load_deck(path: Path | str, cardset: CardSet, rules: DeckRules | None = None) -> LoadedDeck:
    """Read a deck file (YAML by its .yaml/.yml suffix, otherwise a text list) built from `cardset`.

    Raises `DeckFileError` (a CardsmithError) listing every problem with its file and line: unknown
    cards (naming the other set a card belongs to), unknown zones, negative or absurd counts, an
    empty file.
    """
    path = Path(path)
    if not path.is_file():
        raise CardsmithError(f"{path}: no such deck file", hint="give the path to a .yaml or .txt deck file")
    if path.stat().st_size > MAX_DECK_FILE_BYTES:
        raise CardsmithError(f"{path}: {path.stat().st_size:,} bytes is more than a deck file needs (at most {MAX_DECK_FILE_BYTES:,})",
                             hint="a deck lists each card once with its count (`3x Name`); is this the right file?")
    rules = rules or parse_rules(cardset)
    reader = _Reader(path, cardset, rules)
    def fail(message: str, hint: str | None = None, line: int = 1, column: int = 1) -> DeckFileError:
        return DeckFileError([Diagnostic("error", path, line, column, message, hint)])

    if path.suffix.lower() in YAML_SUFFIXES:
        try:
            name, set_name, description = _read_yaml(reader, path)
        except YamlError as e:  # malformed or empty YAML: reported like every other deck problem
            raise fail(e.message, e.hint, e.line, e.column) from None
    else:
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise fail(f"cannot read the file: {e.strerror}") from None
        if b"\x00" in raw[:8192]:
            raise fail("the file holds binary data, not a deck list", "is this the right file?")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise fail("the file is not UTF-8 text", "save it as UTF-8 in your editor", raw.count(b"\n", 0, e.start) + 1) from None
        if not text.strip():
            raise fail("the file is empty", "list cards one per line, like `3x Card name`, under [zone] headers")
        name, set_name, description = _read_text(reader, text)
    return reader.finish(name or path.stem, set_name, description)


# ------------------------------------------------------------------------------------------- writing

def dump_deck(deck: Deck, cardset: CardSet, fmt: str = "yaml") -> str:
    """A deck as the text of a deck file ("yaml" or "text"), naming cards by their names."""
    names = {c.id: c.name for c in cardset.cards}
    if fmt == "text":
        lines = [f"name: {deck.name}", f"set: {deck.set_id}"]
        for z, entries in deck.zones.items():
            lines += ["", f"[{z}]"] + [f"{n}x {names.get(cid, cid)}" for cid, n in entries.items()]
        return "\n".join(lines) + "\n"
    import yaml
    data: dict[str, Any] = {"name": deck.name, "set": deck.set_id}
    for z, entries in deck.zones.items():
        data[z] = {names.get(cid, cid): n for cid, n in entries.items()}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
