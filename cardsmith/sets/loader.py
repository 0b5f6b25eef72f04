"""Read YAML safely and remember where every value was written.

`load_yaml(path)` returns a `Document`: the plain Python data (dicts, lists, str, int, float, bool,
None) and, for every node, its 1-based line and column, keyed by the node's path
(`("cards", 3, "attack")`). Problems become `YamlError`s that carry the file, line and a hint.

Why our own construction instead of `yaml.safe_load`: it gives positions for every node, refuses
duplicate keys (PyYAML silently keeps the last), bounds alias expansion (an "alias bomb" of nested
anchors would otherwise build billions of nodes), and reads booleans the YAML 1.2 way
(`yes`, `no`, `on`, `off` stay text, so a card named "No" keeps its name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from cardsmith.base.errors import CardsmithError

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_NODES = 200_000  # nodes built for one file, aliases counted each time they are used
MAX_DEPTH = 100  # levels of nesting

Path_ = tuple[str | int, ...]
_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


class YamlError(CardsmithError):
    """A file that cannot be read as YAML, with where and how to fix it."""

    located = True

    def __init__(self, file: Path, line: int, column: int, message: str, hint: str | None = None):
        super().__init__(message, hint)
        self.file, self.line, self.column = file, line, column

    def __str__(self) -> str:
        s = f"{self.file}:{self.line}:{self.column}: error: {self.message}"
        return s if not self.hint else f"{s}\n  hint: {self.hint}"


@dataclass
class Document:
    """One YAML file's data and the position of each of its nodes."""

    path: Path
    data: Any
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: Path_, key: bool = False) -> tuple[int, int]:
        """Line and column of the node at `path`, or of its nearest ancestor that has one.

        With `key=True`, the position of the mapping key itself (for "unknown field" messages).
        """
        path = tuple(path)
        if key and path in self.key_positions:
            return self.key_positions[path]
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))


class _Resolver(yaml.resolver.Resolver):
    """YAML 1.2 core booleans: only true/false (any case), never yes/no/on/off."""


_Resolver.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
}
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class _TooDeep(Exception):
    def __init__(self, mark: yaml.Mark):
        self.mark = mark


class _DepthComposer(yaml.composer.Composer):
    """PyYAML's composer, refusing nesting deeper than MAX_DEPTH before it can exhaust the stack.

    Composing recurses once per level: thousands of nested brackets would end in a RecursionError
    (pure Python) or crash the interpreter (libyaml's own composer), so ours is used with both parsers.
    """

    _depth = 0

    if TYPE_CHECKING:  # a mixin: the parser it is combined with (Python's or libyaml's) provides it
        def peek_event(self) -> Any: ...

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH + 1:
                raise _TooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, _DepthComposer,
              yaml.constructor.SafeConstructor, _Resolver):
    """The pure-Python loader: used where libyaml is missing, and to word the errors (see `parse_yaml`)."""

    def __init__(self, stream: str):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _DepthComposer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        _Resolver.__init__(self)


try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML built without libyaml
    _CLoader: type | None = None
else:
    class _CLoaderImpl(_DepthComposer, CParser, yaml.constructor.SafeConstructor, _Resolver):
        """libyaml scans and parses (about 8x faster); our composer builds the nodes, with their marks."""

        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            _DepthComposer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            _Resolver.__init__(self)

    _CLoader = _CLoaderImpl


def _decode(path: Path, raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise YamlError(path, line, column, f"the file is not UTF-8 text (byte 0x{raw[e.start]:02x} cannot be read)",
                        "save the file as UTF-8 in your editor (\"Save with encoding\" / \"Reopen with encoding\")") from None


def _mark(m: yaml.Mark | None) -> tuple[int, int]:
    return (m.line + 1, m.column + 1) if m is not None else (1, 1)


_HINTS = [
    ("cannot start any token", "'\\t'", "YAML does not allow tab characters for indentation: indent with spaces"),
    ("mapping values are not allowed", "", "a value holds a ': ' it cannot hold there: put the value in quotes, or check the indentation of this line"),
    ("did not find expected key", "", "check the indentation: keys of one map must line up, and list items ('- ') must line up"),
    ("did not find expected '-' indicator", "", "check the indentation: the items of one list must line up"),
    ("found undefined alias", "", "an alias (*name) must refer to an anchor (&name) defined above it"),
    ("found unhashable key", "", "a key cannot be a list or a map: put the key in quotes"),
    ("could not find expected ':'", "", "a key is missing its ':' or a quoted string is not closed"),
    ("found unexpected end of stream", "", "a quote or bracket opened here is never closed"),
    ("while scanning a quoted scalar", "", "a quoted string is not closed: add the closing quote"),
]


def _hint_for(problem: str) -> str | None:
    for needle, extra, hint in _HINTS:
        if needle in problem and extra in problem:
            return hint
    return None


def load_yaml(path: Path | str, *, allow_empty: bool = False) -> Document:
    """Read one YAML file into a `Document`, or raise `YamlError` saying what is wrong and where."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise YamlError(path, 1, 1, f"the file is {size / 1e6:.1f} MB; cardsmith reads YAML files of at most {MAX_FILE_BYTES // (1024 * 1024)} MB",
                            "split the cards over several files in the set folder")
        raw = path.read_bytes()
    except YamlError:
        raise
    except OSError as e:
        raise YamlError(path, 1, 1, f"cannot read the file: {e.strerror}") from None
    if b"\x00" in raw[:8192]:
        raise YamlError(path, 1, 1, "the file holds binary data, not YAML text", "is this the right file?")
    return parse_yaml(_decode(path, raw), path, allow_empty=allow_empty)


def parse_yaml(text: str, path: Path | str = "<text>", *, allow_empty: bool = False) -> Document:
    """Parse YAML text (see `load_yaml`).

    libyaml scans and parses when it is there. Its error messages differ from PyYAML's in wording
    and marks, so a file it refuses is parsed again by the pure-Python loader, whose errors are the
    ones our hints and tests know; that costs time only for a broken file.
    """
    path = Path(path)
    try:
        if _CLoader is not None:
            fast = _CLoader(text)
            try:
                return _document(path, fast.get_single_node(), fast, allow_empty)
            except yaml.YAMLError:
                pass
            finally:
                fast.dispose()
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except _TooDeep as e:
        raise YamlError(path, *_mark(e.mark), f"the data is nested more than {MAX_DEPTH} levels deep",
                        f"flatten the data: cardsmith reads at most {MAX_DEPTH} levels of lists and maps") from None
    except yaml.MarkedYAMLError as e:
        line, col = _mark(e.problem_mark or e.context_mark)
        problem = e.problem or e.context or "invalid YAML"
        raise YamlError(path, line, col, f"invalid YAML: {problem}", _hint_for(f"{problem} {e.context or ''}")) from None
    except yaml.YAMLError as e:  # reader errors (control characters) and the like
        raise YamlError(path, 1, 1, f"invalid YAML: {e}") from None
    return _document(path, node, loader, allow_empty)


def _document(path: Path, node: yaml.Node | None, constructor: Any, allow_empty: bool) -> Document:
    doc = Document(path, None)
    if node is None:
        if allow_empty:
            return doc
        raise YamlError(path, 1, 1, "the file is empty", "add the file's content, or delete the file")
    builder = _Builder(doc, constructor)
    doc.data = builder.build(node, ())
    return doc


class _Builder:
    """Turn a composed node tree into plain data, recording positions and checking keys."""

    def __init__(self, doc: Document, constructor: yaml.constructor.SafeConstructor):
        self.doc = doc
        self.constructor = constructor
        self.count = 0

    def build(self, node: yaml.Node, path: Path_, depth: int = 0) -> Any:
        self.count += 1
        if self.count > MAX_NODES or depth > 100:
            raise YamlError(self.doc.path, *_mark(node.start_mark),
                            "the file expands to too many values (nested aliases or extreme nesting)",
                            "cardsmith refuses 'alias bombs'; write the data out instead of nesting anchors")
        if path not in self.doc.positions:
            self.doc.positions[path] = _mark(node.start_mark)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
            raise YamlError(self.doc.path, *_mark(node.start_mark), f"invalid YAML: the tag '{node.tag}' is not allowed",
                            "cardsmith reads plain YAML only: remove the '!tag'")
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        try:
            value = self.constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as e:
            raise YamlError(self.doc.path, *_mark(e.problem_mark or node.start_mark), f"invalid YAML: {e.problem}",
                            "cardsmith reads plain YAML only: remove the '!tag'") from None
        except ValueError as e:
            raise YamlError(self.doc.path, *_mark(node.start_mark), f"invalid value: {e}") from None
        if hasattr(value, "isoformat"):
            value = value.isoformat()  # dates stay text; JSON Schema and exports expect strings
        return value

    def _mapping(self, node: yaml.MappingNode, path: Path_, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        merged: list[tuple[yaml.Node, yaml.Node]] = []
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                for src in sources:
                    if not isinstance(src, yaml.MappingNode):
                        raise YamlError(self.doc.path, *_mark(src.start_mark), "'<<' must merge a map", None)
                    merged.extend(src.value)
                continue
            key = self._key(key_node)
            if key in result:
                first = self.doc.key_positions.get(path + (key,), (0, 0))[0]
                raise YamlError(self.doc.path, *_mark(key_node.start_mark), f"duplicate key '{key}' (first written on line {first})",
                                "each key may appear once in a map: remove or rename one of them")
            self.doc.key_positions[path + (key,)] = _mark(key_node.start_mark)
            result[key] = self.build(value_node, path + (key,), depth + 1)
        for key_node, value_node in merged:  # merged keys never override explicit ones
            key = self._key(key_node)
            if key not in result:
                self.doc.key_positions.setdefault(path + (key,), _mark(key_node.start_mark))
                result[key] = self.build(value_node, path + (key,), depth + 1)
        return result

    def _key(self, node: yaml.Node) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise YamlError(self.doc.path, *_mark(node.start_mark), "a key must be plain text, not a list or a map",
                            "put the key in quotes, or check the indentation")
        value = self.constructor.construct_object(node)
        if value is None:
            return "null" if node.value else ""
        return value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
