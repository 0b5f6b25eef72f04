"""Write card files: plain YAML for new files, and edits in place for existing ones so comments stay.

`edit_in_place(path, new_data)` changes only the values that differ (one-line values replaced, keys
added at the end of their card or removed, new cards appended) and checks the result parses back to
exactly `new_data`; when a change cannot be made that way it returns None and `dump` writes the
whole file instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from cardsmith.base.errors import CardsmithError
from cardsmith.sets.loader import load_yaml, parse_yaml


class _Dumper(yaml.SafeDumper):
    """Block style for maps, flow style for short lists of plain values (`keywords: [Shield 3]`)."""


def _represent_list(dumper: yaml.SafeDumper, data: list) -> yaml.Node:
    flow = all(isinstance(x, (str, int, float, bool)) and "\n" not in str(x) for x in data) and len(str(data)) < 80
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)


def _flow(value: Any) -> str:
    """A value as YAML on one line (quoted when it must be): `3`, `Shield 3`, `'a: b'`, `[Accurate, Shield 1]`."""
    if isinstance(value, str) and ("\n" in value or "\t" in value):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a one-line YAML double-quoted scalar
    text = yaml.safe_dump([value], default_flow_style=True, width=10**6, allow_unicode=True).strip()
    return text[1:-1]


def edit_in_place(path: Path, new_data: dict[str, Any]) -> str | None:
    """The file's text with only the changed values edited, so its comments and layout stay.

    Handles what CSV edits usually are: changed one-line values, removed one-line keys, added keys and
    cards appended at the end. Anything else (multi-line values, flow-style cards...) returns None and
    the caller rewrites the file. The result is parsed back and must equal `new_data` exactly.
    """
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        old_data = load_yaml(path).data
    except (yaml.YAMLError, CardsmithError):
        return None
    if not isinstance(root, yaml.MappingNode) or not isinstance(old_data, dict):
        return None
    if {k: v for k, v in old_data.items() if k != "cards"} != {k: v for k, v in new_data.items() if k != "cards"}:
        return None
    seq = next((v for k, v in root.value if k.value == "cards"), None)
    old_cards, new_cards = old_data.get("cards") or [], new_data["cards"]
    if not isinstance(seq, yaml.SequenceNode) or seq.flow_style or len(seq.value) != len(old_cards) or not seq.value:
        return None
    if len(new_cards) < len(old_cards):
        return None
    edits: list[tuple[int, int, int, str]] = []  # start, order, end, replacement

    def line_end(index: int) -> int:
        nl = text.find("\n", index)
        return len(text) if nl < 0 else nl + 1

    for node, old, new in zip(seq.value, old_cards, new_cards):
        if old == new:
            continue
        if not isinstance(node, yaml.MappingNode) or node.flow_style or not isinstance(old, dict) or not node.value:
            return None
        pairs = {k.value: (k, v) for k, v in node.value}
        key_col = node.value[0][0].start_mark.column
        last_value = node.value[-1][1]
        for key in dict.fromkeys([*old, *new]):
            if key in old and key in new and old[key] == new[key]:
                continue
            if key in old and key in new:
                _, v = pairs[key]
                one_line = v.start_mark.line == v.end_mark.line
                if not one_line or not (isinstance(v, yaml.ScalarNode) and v.style in (None, "'", '"')
                                        or isinstance(v, yaml.SequenceNode) and v.flow_style):
                    return None
                edits.append((v.start_mark.index, len(edits), v.end_mark.index, _flow(new[key])))
            elif key in old:
                k, v = pairs[key]
                start = text.rfind("\n", 0, k.start_mark.index) + 1
                if k.start_mark.line != v.end_mark.line or text[start:k.start_mark.index].strip():
                    return None
                edits.append((start, len(edits), line_end(v.end_mark.index), ""))
            else:
                at = line_end(last_value.end_mark.index)
                prefix = "" if at == 0 or text[at - 1] == "\n" else "\n"
                edits.append((at, len(edits), at, prefix + " " * key_col + f"{key}: {_flow(new[key])}\n"))
    appended = new_cards[len(old_cards):]
    if appended:
        first = seq.value[0]
        dash = first.start_mark.column - 2
        line_start = text.rfind("\n", 0, first.start_mark.index) + 1
        if dash < 0 or text[line_start + dash: line_start + dash + 2] != "- ":
            return None
        block = yaml.dump(appended, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
        block = "".join(" " * dash + line if line.strip() else line for line in block.splitlines(keepends=True))
        at = len(text)
        edits.append((at, len(edits), at, ("" if text.endswith("\n") else "\n") + block))
    out = text
    for start, _, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + replacement + out[end:]
    try:
        if parse_yaml(out, path).data != new_data:
            return None
    except CardsmithError:
        return None
    return out
