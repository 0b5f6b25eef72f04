"""Issue 31: a flavour is data, so every export prints it as written; asterisks included.

#rm2k_anime's flavours use IRC asterisks: "*casts Fireball* *dodges*", "* Quits (Connection reset
by peer)". Tabletop Simulator's hover text, the JSON and CSV exports and the gallery must all show
them exactly as the set file has them (the gallery escaping HTML, not reading markup)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cardsmith.share.data import csv_text, export_json
from cardsmith.share.gallery import written_html
from cardsmith.share.tts import description
from cardsmith.sets.validate import load_set

ROOT = Path(__file__).resolve().parent.parent
FLAVOURS = {
    "roleplay-duel": "*casts Fireball* *dodges* *it was a homing Fireball*",
    "spoiler-bomb": "Snape kills — *kicked*",
    "netsplit": "* Quits: everyone (irc.aniverse.net split.net)",
    "rage-quit": "* Quits (Connection reset by peer)",
}


@pytest.fixture(scope="module")
def rm2k():
    return load_set(ROOT / "cards" / "rm2k-anime")


def test_the_set_holds_the_flavours_the_review_named(rm2k):
    assert {cid: rm2k.card(cid).flavor for cid in FLAVOURS} == FLAVOURS


def test_tabletop_simulator_hover_text_ends_with_the_flavour_as_written(rm2k):
    for cid, flavour in FLAVOURS.items():
        assert description(rm2k.card(cid), rm2k).splitlines()[-1] == flavour


def test_json_and_csv_exports_keep_the_flavour_as_written(rm2k, tmp_path):
    path = export_json(rm2k, tmp_path / "rm2k.json")
    cards = {c["id"]: c for c in json.loads(Path(path).read_text(encoding="utf-8"))["cards"]}
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(csv_text(rm2k)))}
    for cid, flavour in FLAVOURS.items():
        assert cards[cid]["flavor"] == flavour and rows[cid]["flavor"] == flavour


def test_the_gallery_shows_the_flavour_as_written_and_escapes_html():
    assert written_html(FLAVOURS["roleplay-duel"]) == FLAVOURS["roleplay-duel"]  # no <em>
    assert written_html("a <b> & *c*\nd") == "a &lt;b&gt; &amp; *c*<br>d"
