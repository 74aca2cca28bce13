"""The name index the build writes (tables/names.json) finds the same people as the scan of the store."""

import json
import shutil

import pyoxigraph
import pytest

from kg.errors import UserError
from kg.query import lookup
from kg.query.nameindex import FORMAT, NAME_INDEX, name_key, name_rows, read_name_index, write_name_index
from kg.store import open_store

# People of the hand-written store below, and why each is there:
# - ana-ruiz and ana-ruiz-2: two people of one name (an ambiguous exact match);
# - jose: accents, and an alternate name in the other order;
# - mei: a name with a title, and two kg:name values;
# - ben: typed kg:Person but with no kg:name (the scan never lists him: neither may the index);
# - ghost: a name but not a kg:Person (not a candidate either).
TTL = """@prefix kg: <https://kg.example/ns#> . @prefix p: <https://kg.example/id/person/> .
p:ana-ruiz a kg:Person ; kg:name "Ana Ruiz" .
p:ana-ruiz-2 a kg:Person ; kg:name "Ana Ruiz" .
p:jose a kg:Person ; kg:name "José Müller-Ortiz" ; kg:alternateName "Müller-Ortiz, J." .
p:mei a kg:Person ; kg:name "Dr. Mei Lin" , "Mei-Lin Chao" .
p:ben a kg:Person ; kg:alternateName "Ben Okafor" .
p:ghost kg:name "Ghost Writer" .
p:anabel a kg:Person ; kg:name "Anabel Ortiz" .
"""

# What a user may type, each a forgiving match the lookup promises: case, accents, order,
# initials and prefixes, an alternate name, a title, an ambiguous prefix, nobody at all.
QUERIES = ["Ana Ruiz", "ruiz ana", "ANA RUIZ", "jose muller-ortiz", "Müller-Ortiz, J.", "muller j",
           "ortiz", "j ortiz", "Mei Lin", "lin mei", "Prof. Mei Lin", "chao", "mei", "ana", "an",
           "Ben Okafor", "ghost writer", "Nobody Here", "ortiz anabel", "o"]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    out = tmp_path_factory.mktemp("names-out")
    store = pyoxigraph.Store(str(out / "store"))
    store.load(input=TTL.encode(), format=pyoxigraph.RdfFormat.TURTLE)
    store.flush()
    (out / "tables").mkdir()
    write_name_index(store, out / "tables" / NAME_INDEX)
    del store
    return out


def _answer(store, text):
    try:
        return [(c.iri, c.name, c.names) for c in lookup.resolve_people(store, text)]
    except UserError as err:
        return str(err)


def test_rows_list_each_persons_names_with_keys(out):
    rows = read_name_index(out / "tables" / NAME_INDEX)
    by_person = {}
    for person, name, alternate, key in rows:
        by_person.setdefault(person.rsplit("/", 1)[1], []).append((name, alternate, key))
    # ben has no kg:name and ghost is no kg:Person: neither is listed
    assert sorted(by_person) == ["ana-ruiz", "ana-ruiz-2", "anabel", "jose", "mei"]
    # the title "Dr." is dropped; the hyphen splits; the alternate name is flagged 1
    assert by_person["mei"] == [("Dr. Mei Lin", 0, "lin mei"), ("Mei-Lin Chao", 0, "chao lin mei")]
    assert by_person["jose"] == [("José Müller-Ortiz", 0, "jose muller ortiz"), ("Müller-Ortiz, J.", 1, "j muller ortiz")]


def test_index_finds_what_the_scan_finds(out):
    store = open_store(out)
    assert lookup._index(store) is not None  # the index is read, not the scan
    indexed = {q: _answer(store, q) for q in QUERIES}
    lookup._INDEXES.clear()
    scan_store = open_store(out)
    original = lookup._index
    lookup._index = lambda _store: None
    try:
        scanned = {q: _answer(scan_store, q) for q in QUERIES}
    finally:
        lookup._index = original
    assert indexed == scanned
    # and the answers are the promised ones (by hand from TTL above)
    assert [c[0].rsplit("/", 1)[1] for c in indexed["ruiz ana"]] == ["ana-ruiz", "ana-ruiz-2"]
    assert [c[1] for c in indexed["muller j"]] == ["José Müller-Ortiz"]  # through the alternate name
    assert [c[1] for c in indexed["Prof. Mei Lin"]] == ["Dr. Mei Lin"]  # exact: not "Mei-Lin Chao" too
    assert [c[1] for c in indexed["mei"]] == ["Dr. Mei Lin", "Mei-Lin Chao"]  # a prefix: both of her names
    assert [c[1] for c in indexed["ortiz"]] == ["Anabel Ortiz", "José Müller-Ortiz"]
    assert [c[1] for c in indexed["o"]] == ["Anabel Ortiz", "José Müller-Ortiz"]  # "o": ortiz, in both
    assert indexed["Ben Okafor"] == [] and indexed["ghost writer"] == []


def test_resolve_person_through_the_index(out):
    store = open_store(out)
    assert lookup.resolve_person(store, "jose ortiz").name == "José Müller-Ortiz"
    with pytest.raises(UserError, match="matches 2 people"):
        lookup.resolve_person(store, "Ana Ruiz")
    with pytest.raises(UserError, match="closest: Anabel Ortiz"):
        lookup.resolve_person(store, "Anabel Ortis")


def test_without_an_index_or_with_a_foreign_one_the_store_is_scanned(out, tmp_path):
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    index = copy / "tables" / NAME_INDEX
    index.write_text(json.dumps({"format": "something else", "rows": [["x", "Ana Ruiz", 0, "ana ruiz"]]}))
    store = open_store(copy)
    assert lookup._index(store) is None
    assert [c.iri.rsplit("/", 1)[1] for c in lookup.resolve_people(store, "ana ruiz")] == ["ana-ruiz", "ana-ruiz-2"]
    index.unlink()
    assert lookup._index(open_store(copy)) is None


def test_the_index_is_reread_when_the_file_changes(out, tmp_path):
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    store = open_store(copy)
    assert len(lookup.resolve_people(store, "ana ruiz")) == 2
    index = copy / "tables" / NAME_INDEX
    rows = [r for r in read_name_index(index) if not r[0].endswith("ana-ruiz-2")]
    index.write_text(json.dumps({"format": FORMAT, "rows": rows, "pad": "x" * 10}))  # a new size: a new stamp
    assert [c.iri.rsplit("/", 1)[1] for c in lookup.resolve_people(store, "ana ruiz")] == ["ana-ruiz"]


def test_keys_and_rows_by_hand():
    assert name_key("Prof. Dr. Ana  RUIZ-López") == "ana lopez ruiz"
    assert name_key("") == ""
    store = pyoxigraph.Store()
    store.load(input=TTL.encode(), format=pyoxigraph.RdfFormat.TURTLE)
    assert len(name_rows(store)) == 7  # 2 ana + 2 jose + 2 mei + 1 anabel


def test_the_build_writes_the_index(seeds_out):
    rows = read_name_index(seeds_out / "tables" / NAME_INDEX)
    assert rows, "kg build writes tables/names.json"
    store = open_store(seeds_out)
    # the seeds: "Zhang Tianwei" is an alternate name of Tianwei Zhang (see test_build_graph)
    assert [c.name for c in lookup.resolve_people(store, "zhang tianwei")] == ["Tianwei Zhang"]
    assert any(name == "Zhang Tianwei" and alternate == 1 for _, name, alternate, _ in rows)
