"""kg on a SPARQL server (issue 17), against a real Oxigraph server the tests start on loopback:
the seeds pushed with `kg build --store`, every read command giving the embedded store's bytes,
a rebuild while a reader queries, a server that dies mid-push, and one-line refusals."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyoxigraph
import pytest
from conftest import DATA, run_kg
from sparql_servers import free_port, start_oxigraph

from kg.errors import UserError
from kg.remote.layout import MERGED, PENDING_GRAPH
from kg.remote.push import push_store
from kg.remote.store import RemoteStore

pytestmark = pytest.mark.slow

#: Every read command, as a user types it on the seeds (the README's examples and more formats).
COMMANDS = [
    ("profile", "Qinghao Hu"),
    ("profile", "hu qinghao", "--format", "json"),
    ("collaborators", "hu qinghao", "-n", "5"),
    ("collaborators", "Shenghao Qiu", "--format", "csv"),
    ("shared", "Shenghao Qiu", "Zheng Wang", "--format", "json"),
    ("path", "Peng Sun", "Ana Klimovic"),
    ("path", "Kaiqiang Xu", "Qinghao Hu", "--format", "json"),
    ("explain", "NTU"),
    ("explain", "Qinghao Hu", "--format", "json"),
    ("conflicts",),
    ("conflicts", "--format", "json"),
    ("query", "coauthors", "--bind", "name=Qinghao Hu"),
    ("query", "works-per-year-venue", "--format", "csv"),
    ("query", "fact-sources", "--format", "json"),
    ("query", "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g"),
    ("query", "CONSTRUCT { ?p kg:name ?n } WHERE { ?p a kg:Person ; kg:name ?n }", "--format", "turtle"),
    ("query", "ASK { ?w kg:title ?t }", "--format", "json"),
    ("query", "SELECT ?x WHERE { ?x ?y }"),  # a syntax error: the same line and column
    ("profile", "Nobody Atall"),  # no such person: the same one-line error
]
#: Commands that write files, with the file they write.
WRITERS = [
    (("analyze", "--report", "{dir}/report.md"), "report.md"),
    (("analyze", "--report", "{dir}/report.html"), "report.html"),
    (("export", "--format", "graphml", "--output", "{dir}/coauthor.graphml"), "coauthor.graphml"),
    (("export", "--format", "gexf", "--graph", "person-organization", "--output", "{dir}/po.gexf"), "po.gexf"),
    (("export", "--format", "graphml", "--graph", "organization", "--output", "{dir}/org.graphml"), "org.graphml"),
    (("export", "--format", "graphml", "--graph", "supervision", "--output", "{dir}/sup.graphml"), "sup.graphml"),
    (("html", "-o", "{dir}/graph.html"), "graph.html"),
    (("html", "--focus", "Qinghao Hu", "--hops", "2", "-o", "{dir}/focus.html"), "focus.html"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = start_oxigraph(tmp_path_factory.mktemp("oxigraph") / "db")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def pushed(server, tmp_path_factory):
    """The seeds built into out/ and pushed to the server by `kg build --store`."""
    out = tmp_path_factory.mktemp("remote-out")
    result = run_kg("build", DATA, "--out", out, "--store", server.query, "--store-update", server.update)
    assert result.returncode == 0, result.stderr
    assert "pushed " in result.stdout and f"to {server.query}" in result.stdout
    return out


def same(args, out: Path, url: str):
    embedded = run_kg(*args, "--out", out)
    remote = run_kg(*args, "--out", out, "--store", url)
    return embedded, remote


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_every_read_command_prints_the_embedded_stores_bytes(pushed, server, args):
    embedded, remote = same(args, pushed, server.query)
    assert (remote.returncode, remote.stdout, remote.stderr) == (embedded.returncode, embedded.stdout, embedded.stderr)
    assert embedded.stdout or embedded.stderr  # a command that printed nothing compares nothing


def test_commands_that_write_files_write_the_same_bytes(pushed, server, tmp_path):
    assert_same_files(pushed, server.query, tmp_path)


def assert_same_files(out, endpoint: str, tmp_path) -> None:
    """Every command of WRITERS writes the same bytes from the built store in *out* and from *endpoint*."""
    for args, name in WRITERS:
        files = {}
        for where, extra in (("embedded", ()), ("remote", ("--store", endpoint))):
            folder = tmp_path / where
            folder.mkdir(exist_ok=True)
            result = run_kg(*[a.format(dir=folder) for a in args], "--out", out, *extra)
            assert result.returncode == 0, (args, result.stderr)
            files[where] = (folder / name).read_bytes()
        assert files["remote"] == files["embedded"], args


def test_tables_read_in_pages_give_the_same_graphs(pushed, server, tmp_path, monkeypatch):
    # A table comes in one answer from Oxigraph's server; KG_STORE_PAGE=7 reads it in pages of 7 rows
    # (the seeds' authorship table has dozens, so many pages, each ordered by its keys): same bytes.
    monkeypatch.setenv("KG_STORE_PAGE", "7")
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))  # read from the server, not kept tables
    assert run_kg("collaborators", "Qinghao Hu", "--store", server.query).stdout == run_kg(
        "collaborators", "Qinghao Hu", "--out", pushed).stdout
    assert_same_files(pushed, server.query, tmp_path)


def test_tables_are_read_once_per_build_then_from_the_cache(pushed, tmp_path, monkeypatch):
    import duckdb

    cache = tmp_path / "cache"
    monkeypatch.setenv("KG_CACHE_DIR", str(cache))
    server = start_oxigraph(tmp_path / "db")
    try:
        first = push_store(pushed / "store", server.query, server.update)
        expected = run_kg("collaborators", "Qinghao Hu", "--out", pushed).stdout
        assert run_kg("collaborators", "Qinghao Hu", "--store", server.query).stdout == expected
        [kept_server] = list(cache.iterdir())
        assert sorted(p.name for p in kept_server.iterdir()) == [first.build]  # the current build's tables
        # Empty the kept authorship table: a command that reads the cache then finds no collaborators,
        # which shows the second command read the kept tables, not the server.
        table = kept_server / first.build / "authorships.parquet"
        duckdb.execute(f"COPY (SELECT * FROM '{table}' WHERE false) TO '{tmp_path / 'empty.parquet'}' (FORMAT parquet)")
        os.replace(tmp_path / "empty.parquet", table)
        assert run_kg("collaborators", "Qinghao Hu", "--store", server.query).stdout != expected
        # The same build pushed again is a new build (a new id): read anew, and the old tables removed.
        again = push_store(pushed / "store", server.query, server.update)
        assert run_kg("collaborators", "Qinghao Hu", "--store", server.query).stdout == expected
        assert sorted(p.name for p in kept_server.iterdir()) == [again.build]
    finally:
        server.stop()


def test_kg_store_environment_variable_and_notebook(pushed, server, monkeypatch):
    from kg.notebook import KnowledgeGraph, load

    embedded = load(pushed)
    remote = KnowledgeGraph(server.query)
    assert remote.counts().equals(embedded.counts())
    assert remote.sparql("coauthors", name="Qinghao Hu").equals(embedded.sparql("coauthors", name="Qinghao Hu"))
    assert remote.top_collaborators("Qinghao Hu").equals(embedded.top_collaborators("Qinghao Hu"))
    assert len(remote.graph) == len(embedded.graph)  # the merged view, dumped from the server
    monkeypatch.setenv("KG_STORE", server.query)
    by_env = run_kg("collaborators", "hu qinghao", "--out", "/nonexistent-out")
    assert by_env.returncode == 0 and by_env.stdout == run_kg("collaborators", "hu qinghao", "--out", pushed).stdout


def test_a_server_loaded_by_someone_else_is_read_as_it_is(pushed, tmp_path):
    """kg.trig and kg.ttl loaded with Oxigraph's own loader (no pointer graph): the default graph is then
    the merged view, as in the embedded store, and the commands print the same."""
    from sparql_servers import oxigraph_program

    folder = tmp_path / "theirs"
    for file in ("kg.trig", "kg.ttl"):
        subprocess.run([oxigraph_program(), "load", "--location", str(folder), "--file", str(pushed / file)],
                       check=True, capture_output=True)
    server = start_oxigraph(folder)
    try:
        assert RemoteStore(server.query).build is None
        for args in COMMANDS[:9]:
            embedded, remote = same(args, pushed, server.query)
            assert (remote.returncode, remote.stdout) == (embedded.returncode, embedded.stdout), args
    finally:
        server.stop()


def _count(store) -> tuple[int, int]:
    """(triples in the default graph, triples in the named graphs) as one query sees them."""
    [row] = list(store.query("SELECT (SUM(?d) AS ?default) (SUM(?n) AS ?named) WHERE { "
                             "{ ?s ?p ?o BIND(1 AS ?d) BIND(0 AS ?n) } UNION "
                             "{ GRAPH ?g { ?s ?p ?o } BIND(0 AS ?d) BIND(1 AS ?n) } }"))
    return int(row["default"].value), int(row["named"].value)


def _variant(store_dir: Path, target: Path) -> Path:
    """A copy of the store at *store_dir* with 40 more triples in the default graph, a new named graph
    of 40, and one more triple in the first source graph (which a push must then move in)."""
    source = pyoxigraph.Store.read_only(str(store_dir))
    copy = pyoxigraph.Store(str(target))
    copy.extend(source)
    extra = pyoxigraph.NamedNode("https://kg.example/id/source/extra")
    first = min(source.named_graphs(), key=lambda g: g.value)
    copy.add(pyoxigraph.Quad(first, pyoxigraph.NamedNode("https://kg.example/ns#name"), pyoxigraph.Literal("y"), first))
    for i in range(40):
        copy.add(pyoxigraph.Quad(pyoxigraph.NamedNode(f"https://kg.example/id/x/{i}"),
                                 pyoxigraph.NamedNode("https://kg.example/ns#name"), pyoxigraph.Literal(f"x{i}")))
        copy.add(pyoxigraph.Quad(pyoxigraph.NamedNode(f"https://kg.example/id/x/{i}"),
                                 pyoxigraph.NamedNode("https://kg.example/ns#name"), pyoxigraph.Literal(f"x{i}"), extra))
    copy.flush()
    del copy, source
    return target


def test_a_rebuild_while_a_reader_queries_gives_one_builds_answers(pushed, tmp_path):
    server = start_oxigraph(tmp_path / "db")
    try:
        old_dir, new_dir = pushed / "store", _variant(pushed / "store", tmp_path / "variant")
        old = _count(pyoxigraph.Store.read_only(str(old_dir)))
        new = _count(pyoxigraph.Store.read_only(str(new_dir)))
        # the variant adds 40 triples to the merged view, 40 in a new source graph and 1 in an old one
        assert new == (old[0] + 40, old[1] + 41)
        push_store(old_dir, server.query, server.update)
        # three switches under the reader, in small batches: each moves the changed source graph in
        answers = answers_while(server.query, [lambda d=d: push_store(d, server.query, server.update, batch=2000)
                                               for d in (new_dir, old_dir, new_dir)])
        assert answers == {old, new}, answers - {old, new}  # both builds seen, nothing else
        assert _count(RemoteStore(server.query)) == new
        # one merged view (the old builds' are dropped), the extra graph, no staging or pending graph left
        graphs = {r["g"].value for r in RemoteStore(server.query).select(
            "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")}
        assert "https://kg.example/id/source/extra" in graphs
        assert len([g for g in graphs if g.startswith(MERGED)]) == 1
        assert not [g for g in graphs if "/graph/staging/" in g] and PENDING_GRAPH not in graphs
    finally:
        server.stop()


def test_a_push_sends_only_what_changed(pushed, tmp_path):
    server = start_oxigraph(tmp_path / "db")
    try:
        old_dir, new_dir = pushed / "store", _variant(pushed / "store", tmp_path / "variant")
        store = pyoxigraph.Store.read_only(str(old_dir))
        merged, graphs = len(list(store.quads_for_pattern(None, None, None, pyoxigraph.DefaultGraph()))), sorted(
            store.named_graphs(), key=lambda g: g.value)
        first = push_store(old_dir, server.query, server.update)
        assert (first.triples, first.unchanged) == (len(store), 0)  # everything, on an empty server
        again = push_store(old_dir, server.query, server.update)
        assert (again.triples, again.unchanged) == (0, len(graphs) + 1)  # the same build: nothing sent
        changed = push_store(new_dir, server.query, server.update)
        # the new merged view (40 more), the new graph (40) and the first source graph (1 more)
        first_graph = len(list(store.quads_for_pattern(None, None, None, graphs[0])))
        assert changed.triples == (merged + 40) + 40 + (first_graph + 1)
        assert changed.unchanged == len(graphs) - 1  # all source graphs but the first
        assert _count(RemoteStore(server.query)) == _count(pyoxigraph.Store.read_only(str(new_dir)))
    finally:
        server.stop()


def test_a_server_that_dies_mid_push_keeps_the_previous_build(pushed, tmp_path):
    folder = tmp_path / "db"
    server = start_oxigraph(folder)
    variant = _variant(pushed / "store", tmp_path / "variant")
    push_store(variant, server.query, server.update)
    before = _count(RemoteStore(server.query))
    env = {**os.environ, "KG_STORE_BATCH": "20"}  # many small requests, so the server dies in the middle
    build = subprocess.Popen([str(Path(sys.executable).parent / "kg"), "build", str(DATA), "--out",
                              str(tmp_path / "out"), "--store", server.query, "--store-update", server.update],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        pending = RemoteStore(server.query)
        while build.poll() is None and not bool(pending.select(
                "ASK { GRAPH <https://kg.example/id/graph/pending> { ?s ?p ?o } }")):
            time.sleep(0.02)  # until the push has started loading its staging graphs
        server.stop(kill=True)
        _, stderr = build.communicate(timeout=120)
    finally:
        server.stop()
    assert build.returncode == 1
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: error: the SPARQL server at http://127.0.0.1:"), stderr
    assert "did not answer the push" in lines[0]
    again = start_oxigraph(folder)
    try:
        assert _count(RemoteStore(again.query)) == before
    finally:
        again.stop()


def test_refusals_are_one_line_without_secrets(pushed, server, monkeypatch):
    closed = f"http://127.0.0.1:{free_port()}/query"
    refused = run_kg("profile", "Qinghao Hu", "--store", closed)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "did not answer the query" in refused.stderr and "check that it is running" in refused.stderr
    secret = run_kg("profile", "Qinghao Hu", "--store", server.query.replace("//", "//ann:s3cret@"))
    assert secret.returncode == 1 and "s3cret" not in secret.stderr and "KG_STORE_USER" in secret.stderr
    # the query endpoint does not take updates: the push says where to send them
    with pytest.raises(UserError) as read_only:
        push_store(pushed / "store", server.query)
    # (the build is on the server already, so the first write is the switch to a new build id)
    assert "does not take this switch to the new build (HTTP 415)" in str(read_only.value)
    assert "--store-update" in str(read_only.value)
    # a password from the environment is sent only to the server, never printed
    monkeypatch.setenv("KG_STORE_USER", "ann")
    monkeypatch.setenv("KG_STORE_PASSWORD", "s3cret")
    answer = run_kg("profile", "Nobody Atall", "--store", closed)
    assert "s3cret" not in answer.stdout + answer.stderr


def answers_while(endpoint: str, pushes) -> set:
    """The counts a reader of *endpoint* saw, asking every 10 ms, while *pushes* ran one after another."""
    answers, stop = [], threading.Event()

    def read():
        reader = RemoteStore(endpoint)
        while not stop.is_set():
            answers.append(_count(reader))
            time.sleep(0.01)

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for push in pushes:
            push()
    finally:
        stop.set()
        thread.join()
    return set(answers)


def test_the_switch_moves_graphs_a_few_dozen_a_request():
    # Regression: 1,001 MOVEs in one update request (1,000 generated CVs) was one transaction that
    # Oxigraph's server had not finished after the client's ten minutes. 60 changed graphs with
    # 25 a request: the "switching" mark, then 25 + 25 + 10 moves, then the new pointer.
    from kg.remote.layout import Build, merged_graph
    from kg.remote.push import MOVES_PER_REQUEST, _switch, plan_push

    names = [f"https://kg.example/id/source/cv-{n}" for n in range(60)]
    old = Build("a", tuple(names), merged_graph("a"), {**dict.fromkeys(names, "0"), merged_graph("a"): "m"})
    plan = plan_push("b", "m", dict.fromkeys(names, "1"), old)  # every graph changed, the merged view not
    steps = _switch(plan, old)
    moves = [s.count("MOVE SILENT") for s in steps]
    assert MOVES_PER_REQUEST == 25 and moves == [0, 25, 25, 10, 0]
    assert '"switching"' in steps[0] and '"b"' in steps[-1]  # the mark first, the new build id last


def test_a_push_moves_no_graph_it_can_write_where_readers_do_not_look():
    # Regression: the 1,000-CV push moved the 2.7M-triple merged view (and every source graph) in the
    # switch; Oxigraph's server grew past 4 GB and did not finish. The old build "a" lists s:a, s:b,
    # s:gone; the new one has s:a unchanged (digest 1), s:b changed (2 -> 3), s:c new (no digest asked),
    # and a changed merged view (m0 -> m1).
    from kg.remote.layout import Build, merged_graph
    from kg.remote.push import _switch, plan_push

    old = Build("a", ("s:a", "s:b", "s:gone"), merged_graph("a"),
                {"s:a": "1", "s:b": "2", "s:gone": "9", merged_graph("a"): "m0"})
    plan = plan_push("b", "m1", {"s:a": "1", "s:b": "3", "s:c": None}, old)
    # only s:b goes through a staging graph; the merged view and s:c are loaded under their own names
    assert plan.written() == [merged_graph("b"), "https://kg.example/id/graph/staging/b/0", "s:c"]
    assert list(plan.moves.values()) == ["s:b"] and plan.unchanged == 1
    steps = _switch(plan, old)
    assert sum(s.count("MOVE SILENT") for s in steps) == 1
    # after the pointer names the new build, the old merged view and s:gone are dropped
    pointer = next(i for i, s in enumerate(steps) if '"b"' in s)
    dropped = " ".join(steps[pointer + 1:])
    assert f"DROP SILENT GRAPH <{merged_graph('a')}>" in dropped and "DROP SILENT GRAPH <s:gone>" in dropped
    # the same build pushed again writes nothing, moves nothing, and keeps the merged view's name
    now = Build("b", ("s:a", "s:b", "s:c"), merged_graph("b"), {"s:a": "1", "s:b": "3", "s:c": "4", merged_graph("b"): "m1"})
    again = plan_push("c", "m1", {"s:a": "1", "s:b": "3", "s:c": "4"}, now)
    assert again.written() == [] and again.unchanged == 4 and again.garbage == [] and again.merged == merged_graph("b")
    # a build caught switching (a push died moving graphs in) has no digest kg can trust
    caught = plan_push("d", "m1", {"s:a": "1"}, Build("switching", ("s:a",), merged_graph("b"), {"s:a": "1"}))
    assert list(caught.moves.values()) == ["s:a"]
