"""Create or update card files from a spreadsheet (CSV) export, the way nanDECK and Squib users work.

The CSV has one row per card and a header row naming columns: the keys every card may carry (`id`,
`name`, `type`, `race`, `keywords`, `text`, ...) and the fields the set's types declare (`attack`,
`class`, ...); `cardsmith export SET --csv` writes exactly this shape. Column names are matched
without regard to case.

- A row whose id is already a card of the set updates that card in the file where it lives: the
  columns the CSV has overwrite the card's keys (an empty cell removes the key), the others stay.
- A row with a new id becomes a new card in the target file (`<csv name>.yaml` unless told).
- Cards the CSV does not mention are left alone.

Everything is checked before anything is written: unknown columns, missing or repeated ids, bad
numbers, unknown types, races, keywords or enum values are reported per row and column; then the
changed set is validated like any other (in a scratch copy), and only a clean result is written.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardsmith.base.atomic import write_text
from cardsmith.base.untrusted import csv_text_of
from cardsmith.components.geometry import column_letter
from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import CardsmithError
from cardsmith.share.data import BASE_COLUMNS, field_columns
from cardsmith.share._yaml_edit import dump, edit_in_place
from cardsmith.sets.loader import load_yaml
from cardsmith.sets.model import CardSet, FieldSpec

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
TRUE = {"true", "yes", "y", "1", "x"}
FALSE = {"false", "no", "n", "0", ""}
MAX_PROBLEMS_SHOWN = 50
MAX_CSV_BYTES = 10 * 1024 * 1024  # as for a YAML card file
MAX_CSV_ROWS = 10_000  # about 20 s of work; far more cards than a game holds


@dataclass(frozen=True)
class Problem:
    """One bad cell (or row, or column) of the CSV."""

    row: int  # spreadsheet row number: the header is row 1
    column: str  # column name, "" for the whole row
    letter: str  # spreadsheet column letter, "" for the whole row
    message: str

    def format(self, csv_name: str) -> str:
        where = f"{csv_name} row {self.row}"
        if self.column:
            where += f", column {self.letter} ({self.column})"
        return f"{where}: {self.message}"


class CsvImportError(CardsmithError):
    """The CSV has problems; nothing was written."""

    def __init__(self, csv_path: Path, problems: list[Problem] | list[str]):
        ordered = sorted((p for p in problems if isinstance(p, Problem)), key=lambda p: (p.row, len(p.letter), p.letter))
        lines = [p.format(csv_path.name) for p in ordered] + [p for p in problems if not isinstance(p, Problem)]
        shown = lines[:MAX_PROBLEMS_SHOWN]
        more = f"\n  ... and {len(lines) - len(shown)} more" if len(lines) > len(shown) else ""
        super().__init__(f"{csv_path}: {len(lines)} problem(s), nothing was written:\n  " + "\n  ".join(shown) + more,
                         hint="fix the spreadsheet (or the cells named above) and import again")
        self.problems = problems


@dataclass
class ImportResult:
    """What an import did (or, with dry_run, would do)."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # card files written


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    """The header and the rows; the delimiter (comma, semicolon or tab) is detected from the header."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_CSV_BYTES:
            raise CardsmithError(f"{path} is {size / 1e6:.1f} MB; cardsmith imports spreadsheets of at most "
                                 f"{MAX_CSV_BYTES // (1024 * 1024)} MB", hint="split the cards over several sheets")
        raw = Path(path).read_bytes()
    except OSError as e:
        raise CardsmithError(f"cannot read {path}: {e.strerror}", hint="check the file name") from e
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise CardsmithError(f"{path}: line {line} is not UTF-8 text",
                             hint="save the spreadsheet as 'CSV UTF-8' (Excel) or pick UTF-8 when exporting") from None
    if not text.strip():
        raise CardsmithError(f"{path} is empty", hint="export the spreadsheet with a header row and one row per card")
    first = text.splitlines()[0]
    delimiter = max(",;\t", key=first.count) if any(d in first for d in ",;\t") else ","
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as e:
        raise CardsmithError(f"{path}: not a readable CSV file: {e}", hint="export the sheet again as CSV") from e
    header, body = [h.strip() for h in rows[0]], [[csv_text_of(c) for c in row] for row in rows[1:]]
    if len(body) > MAX_CSV_ROWS:
        raise CardsmithError(f"{path} has {len(body):,} rows; cardsmith imports at most {MAX_CSV_ROWS:,} at once",
                             hint="split the cards over several sheets (each import adds to the set)")
    return header, body


def _match(value: str, options: dict[str, str]) -> str | None:
    """An id from `options` (lower-case id or name -> id) for a cell value, ignoring case."""
    return options.get(value.strip().lower())


def _choices(groups: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for g in groups.values():
        out[g.name.lower()] = g.id
        out[g.id.lower()] = g.id
    return out


class _RowParser:
    """Turn one CSV row into card keys, collecting problems instead of stopping at the first."""

    def __init__(self, cardset: CardSet, header: list[str], columns: dict[int, str]):
        self.cardset = cardset
        self.header = header
        self.columns = columns  # index -> canonical column name
        self.types = _choices(cardset.types)
        self.groups = {d.id: _choices(d.groups) for d in cardset.dimensions.values()}
        self.keywords = _choices(cardset.keywords)
        self.problems: list[Problem] = []

    def problem(self, row: int, idx: int | None, message: str) -> None:
        if idx is None:
            self.problems.append(Problem(row, "", "", message))
        else:
            self.problems.append(Problem(row, self.columns.get(idx, self.header[idx]), column_letter(idx), message))

    def parse(self, rownum: int, cells: list[str], type_default: str | None) -> dict[str, Any] | None:
        """The card keys the row sets (None = empty cell), or None when the row is unusable."""
        values: dict[str, Any] = {}
        index = {name: i for i, name in self.columns.items()}
        get = lambda name: cells[index[name]].strip() if name in index and index[name] < len(cells) else ""
        card_id = get("id")
        if not card_id:
            self.problem(rownum, index.get("id"), "missing id: every card needs an id (a slug such as 'tcs-13-rapier')")
            return None
        if not SLUG.match(card_id):
            suggestion = re.sub(r"[^a-z0-9]+", "-", card_id.lower()).strip("-")
            self.problem(rownum, index["id"], f"id '{card_id}' is not a slug (lower-case letters, digits, single hyphens); "
                                              f"try '{suggestion}'")
        values["id"] = card_id

        type_id = type_default
        if "type" in index:
            raw = get("type")
            if raw:
                type_id = _match(raw, self.types)
                if type_id is None:
                    hint = did_you_mean(raw, list(self.cardset.types)) or f"types: {', '.join(self.cardset.types)}"
                    self.problem(rownum, index["type"], f"unknown type '{raw}'; {hint}")
                values["type"] = type_id
            else:
                values["type"] = None
        ctype = self.cardset.types.get(type_id) if type_id else None

        for name in dict.fromkeys(["race", "faction", *self.groups]):
            if name in index:
                raw = get(name)
                groups = self.groups.get(name, {})
                if raw and _match(raw, groups) is None:
                    table = self.cardset.dimensions[name].groups if name in self.cardset.dimensions else {}
                    hint = did_you_mean(raw, list(table)) or (f"known: {', '.join(table)}" if table else f"the set declares no {name}s")
                    self.problem(rownum, index[name], f"unknown {name} '{raw}'; {hint}")
                values[name] = _match(raw, groups) if raw else None

        if "copies" in index:
            raw = get("copies")
            if raw:
                n = _int(raw)
                if n is None or n < 1:
                    self.problem(rownum, index["copies"], f"copies must be a whole number of at least 1, not '{raw}'")
                values["copies"] = n
            else:
                values["copies"] = None

        if "keywords" in index:
            values["keywords"] = self._keywords(rownum, index["keywords"], get("keywords")) or None
        if "tags" in index:
            values["tags"] = _split(get("tags")) or None
        if "effect" in index:
            values["effect"] = self._effect(rownum, index["effect"], get("effect"))
        for name in ("name", "text", "flavor", "art", "back"):
            if name in index:
                values[name] = get(name) or None

        for name, i in index.items():
            if name in BASE_COLUMNS or name in self.groups:
                continue
            raw = get(name)
            spec = ctype.fields.get(name) if ctype else None
            if spec is None:
                if raw and ctype is not None:
                    self.problem(rownum, i, f"cards of type '{ctype.id}' have no field '{name}'; leave the cell empty")
                values[name] = None
                continue
            values[name] = self._field(rownum, i, spec, raw)
        return values

    def _effect(self, rownum: int, idx: int, raw: str) -> Any:
        """An `effect:` cell: a YAML flow mapping or list (`{do: damage, amount: 4}`), or empty."""
        if not raw:
            return None
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError:
            value = None
        if not isinstance(value, (dict, list)):
            self.problem(rownum, idx, f"effect '{raw}' is not a mapping like {{do: damage, amount: 4}} (or a list of them)")
            return None
        return value

    def _keywords(self, rownum: int, idx: int, raw: str) -> list[str]:
        out = []
        for item in _split(raw, extra=","):
            m = re.match(r"^(.*?)(?:\s+([+-]?\d+))?$", item, re.S)
            assert m is not None  # with re.S the pattern matches any text
            name, number = m.group(1).strip(), m.group(2)
            kid = _match(name, self.keywords)
            if kid is None:
                kid = _match(item, self.keywords)  # a keyword whose name ends in a number
                number = None
            if kid is None:
                hint = did_you_mean(name, [k.name for k in self.cardset.keywords.values()]) or \
                    f"keywords: {', '.join(k.name for k in self.cardset.keywords.values())}"
                self.problem(rownum, idx, f"unknown keyword '{item}'; {hint}")
                continue
            kw = self.cardset.keywords[kid]
            if kw.param and number is None:
                self.problem(rownum, idx, f"keyword '{kw.name}' takes a number, like '{kw.name} 3'")
                continue
            if not kw.param and number is not None:
                self.problem(rownum, idx, f"keyword '{kw.name}' takes no number")
                continue
            out.append(kw.name if number is None else f"{kw.name} {int(number)}")
        return out

    def _field(self, rownum: int, idx: int, spec: FieldSpec, raw: str) -> Any:
        if raw == "":
            return None
        if spec.kind == "int":
            n = _int(raw)
            if n is None:
                self.problem(rownum, idx, f"'{raw}' is not a whole number")
                return None
            if spec.minimum is not None and n < spec.minimum or spec.maximum is not None and n > spec.maximum:
                self.problem(rownum, idx, f"{n} is outside {spec.minimum if spec.minimum is not None else '...'}"
                                          f"..{spec.maximum if spec.maximum is not None else '...'}")
            return n
        if spec.kind == "enum":
            match = {v.lower(): v for v in spec.values}.get(raw.lower())
            if match is None:
                hint = did_you_mean(raw, spec.values) or f"one of: {', '.join(spec.values)}"
                self.problem(rownum, idx, f"'{raw}' is not allowed; {hint}")
            return match
        if spec.kind == "bool":
            if raw.lower() in TRUE:
                return True
            if raw.lower() in FALSE:
                return False
            self.problem(rownum, idx, f"'{raw}' is not true or false")
            return None
        if spec.kind == "list":
            items = _split(raw)
            bad = [i for i in items if spec.values and i not in spec.values]
            if bad:
                self.problem(rownum, idx, f"{', '.join(bad)} not among: {', '.join(spec.values)}")
            return items
        return raw


def _int(raw: str) -> int | None:
    try:
        return int(raw.strip())
    except ValueError:
        try:  # spreadsheets like to write 3 as 3.0
            f = float(raw)
        except ValueError:
            return None
        return int(f) if f.is_integer() else None


def _split(raw: str, extra: str = "") -> list[str]:
    seps = ";" + extra
    return [p.strip() for p in re.split(f"[{re.escape(seps)}]", raw or "") if p.strip()]


def _header_columns(cardset: CardSet, header: list[str]) -> tuple[dict[int, str], list[Problem]]:
    known = list(BASE_COLUMNS) + list(cardset.dimensions) + field_columns(cardset)
    lookup = {k.lower(): k for k in known}
    # Labels the set declares ("Attack bonus") are accepted for their field.
    for ctype in cardset.types.values():
        for spec in ctype.fields.values():
            if spec.label:
                lookup.setdefault(spec.label.lower(), spec.name)
    derived = {"type_name", "group_name"}  # written by the JSON export; harmless if present
    columns: dict[int, str] = {}
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        key = lookup.get(name.lower())
        if key is None:
            if name.lower() in derived or name == "":
                continue
            hint = did_you_mean(name, known) or f"columns: {', '.join(known)}"
            problems.append(Problem(1, name, column_letter(i), f"unknown column '{name}'; {hint}"))
            continue
        if key in seen:
            problems.append(Problem(1, name, column_letter(i), f"column '{key}' appears twice (also column {column_letter(seen[key])})"))
            continue
        seen[key] = i
        columns[i] = key
    if "id" not in seen:
        problems.append(Problem(1, "", "", "the header has no 'id' column; every card needs a stable id"))
    return columns, problems


# ---------------------------------------------------------------------------------------------- files

def _row_cells(card: Any, cardset: CardSet, columns: dict[int, str]) -> list[str]:
    """The card as the CSV export writes it, in this CSV's column positions."""
    from cardsmith.share.data import card_row

    row = card_row(card, cardset, list(columns.values()))
    cells = [""] * (max(columns) + 1 if columns else 0)
    for i, name in columns.items():
        cells[i] = row.get(name, "")
    return cells


def _card_files(cardset: CardSet) -> dict[str, Path]:
    """Card id -> the card file it lives in."""
    return {c.id: Path(c.source.file).resolve() for c in cardset.cards if c.source is not None}


def _read_card_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {"cards": []}
    data = load_yaml(path, allow_empty=True).data or {}
    if not isinstance(data, dict) or not isinstance(data.get("cards", []), list):
        raise CardsmithError(f"{path} is not a card file (no 'cards:' list)", hint="name another file with --file")
    data.setdefault("cards", [])
    return data


KEY_ORDER = ("id", "name", "type", "race", "faction")
TAIL_ORDER = ("keywords", "effect", "text", "flavor", "art", "copies", "tags", "back")


def _ordered(card: dict[str, Any]) -> dict[str, Any]:
    """Identity first, then the type's fields, then keywords, text and the rest (how people write cards)."""
    head = {k: card[k] for k in KEY_ORDER if k in card}
    tail = {k: card[k] for k in TAIL_ORDER if k in card}
    middle = {k: v for k, v in card.items() if k not in head and k not in tail}
    return head | middle | tail


def _new_card(values: dict[str, Any], defaults: dict[str, Any], cardset: CardSet) -> dict[str, Any]:
    """A new card's YAML map: only what differs from the file's defaults and the type's field defaults."""
    ctype = cardset.types.get(values.get("type") or defaults.get("type") or "")
    card = {}
    for key, value in values.items():
        if value is None or (key in defaults and defaults[key] == value) or (key == "copies" and value == 1):
            continue
        if key == "back" and ctype is not None and ctype.back == value:
            continue  # the type's own back, which the card gets anyway
        spec = ctype.fields.get(key) if ctype else None
        if spec is not None and spec.default is not None and spec.default == value:
            continue
        card[key] = value
    return _ordered(card)


def _update_card(raw: dict[str, Any], changed: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """An existing card's YAML map with the changed keys set (an empty cell removes the key)."""
    card = dict(raw)
    for key, value in changed.items():
        if value is None or (key in defaults and defaults[key] == value):
            card.pop(key, None)
        else:
            card[key] = value
    return _ordered(card) if any(k not in raw for k in card) else card


def _shadow(set_dir: Path, tmp: Path, writes: dict[Path, str]) -> Path:
    """A scratch copy of the set with `writes` applied, so validation sees the result without touching the set.

    Files are hard-linked where the file system allows (art can be large) and copied otherwise; never
    symlinked, since validation rightly refuses files that resolve outside the set folder.
    """
    shadow = tmp / set_dir.name

    def link_or_copy(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(set_dir, shadow, copy_function=link_or_copy,
                    ignore=shutil.ignore_patterns(".git", "__pycache__"))
    for path, text in writes.items():
        out = shadow / path.relative_to(set_dir)
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            out.unlink()  # a hard link: replace it, never write through it into the real set
        out.write_text(text, encoding="utf-8")
    return shadow


def import_csv(csv_path: Path, cardset: CardSet, *, target: Path | None = None, dry_run: bool = False) -> ImportResult:
    """Create or update the set's card files from a CSV; raises `CsvImportError` and writes nothing on any problem.

    `target` is the card file that receives new cards (default: `<set>/<csv stem>.yaml`).
    """
    csv_path = Path(csv_path)
    set_dir = Path(cardset.path).resolve()
    target = _target_file(csv_path, set_dir, target)
    header, rows = read_csv(csv_path)
    columns, problems = _header_columns(cardset, header)
    parser = _RowParser(cardset, header, columns)
    parser.problems.extend(problems)
    if "id" not in columns.values():
        raise CsvImportError(csv_path, parser.problems)
    files = _CardFiles(cardset, target)
    parsed = _parse_rows(parser, header, rows, columns, files, cardset)
    if parser.problems:  # every bad cell of every row at once, before any card file is touched
        raise CsvImportError(csv_path, parser.problems)
    result, row_of = _apply_rows(parsed, parser, columns, files, cardset)
    writes = files.writes(result)
    _validate(cardset, set_dir, csv_path, writes, row_of)
    result.files = sorted(writes)
    if not dry_run:
        for path, text in writes.items():
            write_text(path, text)
    return result


def _target_file(csv_path: Path, set_dir: Path, target: Path | None) -> Path:
    """The card file that receives new cards: `--file` (a bare name is in the set folder), else
    `<set>/<csv stem>.yaml`; a clear error unless it is a .yaml card file inside the set folder."""
    target = (Path(target) if target else set_dir / f"{csv_path.stem}.yaml")
    if not target.is_absolute():
        target = set_dir / target if not target.parent.parts else Path.cwd() / target
    target = target.resolve()
    if target.suffix not in (".yaml", ".yml"):
        raise CardsmithError(f"the target card file must end in .yaml, not '{target.name}'", hint="--file cards.yaml")
    try:
        target.relative_to(set_dir)
    except ValueError:
        raise CardsmithError(f"{target} is not inside the set folder {set_dir}", hint="card files live in the set folder") from None
    if target.name == "set.yaml" or "decks" in target.relative_to(set_dir).parts:
        raise CardsmithError(f"{target.name} is not a card file", hint="name a card file such as imported.yaml")
    return target


class _CardFiles:
    """The card files an import reads and edits, each read once: an existing card's own file, and
    `target` for new cards."""

    def __init__(self, cardset: CardSet, target: Path):
        self.homes = _card_files(cardset)
        self.target = target
        self.docs: dict[Path, dict[str, Any]] = {}

    def home(self, cid: str) -> Path:
        return self.homes.get(cid, self.target)

    def doc(self, path: Path) -> dict[str, Any]:
        """The file's YAML (a new file: no cards yet), as edited so far."""
        if path not in self.docs:
            self.docs[path] = _read_card_file(path)
        return self.docs[path]

    def writes(self, result: ImportResult) -> dict[Path, str]:
        """The new text of each file the import changes (comments kept where the file exists)."""
        writes: dict[Path, str] = {}
        for path, data in self.docs.items():
            if path.is_file():
                changed = any(self.homes.get(cid) == path for cid in result.updated)
                if not changed and not any(self.home(cid) == path for cid in result.created):
                    continue
            elif not data["cards"]:
                continue
            writes[path] = (edit_in_place(path, data) if path.is_file() else None) or dump(data)
        return writes


def _parse_rows(parser: _RowParser, header: list[str], rows: list[list[str]], columns: dict[int, str],
                files: _CardFiles, cardset: CardSet) -> list[tuple[int, dict[str, Any]]]:
    """(row number, values) of each non-empty row that parses; the problems of the others go to `parser`."""
    by_id = cardset.by_id()
    id_index = next(i for i, c in columns.items() if c == "id")
    seen: dict[str, int] = {}
    parsed: list[tuple[int, dict[str, Any]]] = []
    for n, cells in enumerate(rows, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
            parser.problem(n, None, f"the row has {len(cells)} cells but the header names {len(header)} columns")
        existing_id = cells[id_index].strip() if id_index < len(cells) else ""
        defaults = files.doc(files.home(existing_id)).get("defaults") or {}
        type_default = by_id[existing_id].type if existing_id in by_id else defaults.get("type")
        values = parser.parse(n, cells, type_default)
        if values is None:
            continue
        cid = values["id"]
        if cid in seen:
            parser.problem(n, id_index, f"id '{cid}' is also on row {seen[cid]}; ids must be unique")
            continue
        seen[cid] = n
        if cid not in by_id and not values.get("name"):
            parser.problem(n, None, f"new card '{cid}' needs a name (the 'name' column is empty or missing)")
        if cid not in by_id and not values.get("type") and not defaults.get("type"):
            parser.problem(n, None, f"new card '{cid}' needs a type (the 'type' column is empty or missing)")
        parsed.append((n, values))
    return parsed


def _apply_rows(parsed: list[tuple[int, dict[str, Any]]], parser: _RowParser, columns: dict[int, str],
                files: _CardFiles, cardset: CardSet) -> tuple[ImportResult, dict[str, int]]:
    """Each row made a new card or set into its card in `files`; what happened, and each card id's row."""
    by_id = cardset.by_id()
    result = ImportResult()
    row_of: dict[str, int] = {}
    for n, values in parsed:
        cid = values["id"]
        row_of[cid] = n
        data = files.doc(files.home(cid))
        defaults = data.get("defaults") or {}
        cards = data["cards"]
        at = next((i for i, c in enumerate(cards) if isinstance(c, dict) and c.get("id") == cid), None)
        if at is None:
            cards.append(_new_card(values, defaults, cardset))
            result.created.append(cid)
            continue
        # Compare with the card as it is now, read back through the same parser, so "Fighter" and
        # "fighter", "4.0" and "4" or a value the card gets from a default are no change.
        mark = len(parser.problems)
        current = parser.parse(0, _row_cells(by_id[cid], cardset, columns), by_id[cid].type) or {}
        del parser.problems[mark:]
        changed = {k: v for k, v in values.items() if current.get(k) != v}
        if not changed:
            result.unchanged.append(cid)
            continue
        cards[at] = _update_card(cards[at], changed, defaults)
        result.updated.append(cid)
    return result, row_of


def _validate(cardset: CardSet, set_dir: Path, csv_path: Path, writes: dict[Path, str], row_of: dict[str, int]) -> None:
    """Validate the set as it would be after the import, in a scratch copy; errors name the CSV row where they can."""
    if not writes:
        return
    from cardsmith.sets.validate import check_set

    with tempfile.TemporaryDirectory(prefix="cardsmith-import-") as tmp:
        shadow = _shadow(set_dir, Path(tmp), writes)
        _, diagnostics = check_set(shadow)
        errors = [d for d in diagnostics if d.is_error]
        if not errors:
            return
        lines = []
        for d in errors:
            file = Path(d.file) if d.file else None
            shown = file
            if file is not None:
                try:
                    shown = set_dir / Path(file).resolve().relative_to(shadow.resolve())
                except ValueError:
                    shown = file
            text = f"{shown}:{d.line}:{d.column}: {d.message}"
            m = re.match(r"^cards\[(\d+)\]", d.path or "")
            if m and file is not None and (set_dir / Path(file).resolve().relative_to(shadow.resolve())) in writes:
                data = yaml.safe_load(writes[set_dir / Path(file).resolve().relative_to(shadow.resolve())])
                idx = int(m.group(1))
                cid = data["cards"][idx].get("id") if idx < len(data["cards"]) else None
                if cid in row_of:
                    lines.append(f"{csv_path.name} row {row_of[cid]} (card {cid}): {d.message}")
                    continue
            if d.hint:
                text += f" ({d.hint})"
            lines.append(text)
        raise CsvImportError(csv_path, lines)
