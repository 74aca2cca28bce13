"""kg on Virtuoso (issue 17), a server the test starts on loopback: the seeds pushed through the Graph
Store Protocol with digest authentication, every read command giving the embedded store's bytes, a
rebuild under a reader, and a one-line refusal without credentials. Skips where Virtuoso is absent."""

from __future__ import annotations

import os

import pyoxigraph
import pytest
from conftest import run_kg
from sparql_servers import start_virtuoso
from test_remote_store import COMMANDS, _count, _variant, answers_while, assert_same_files, same

from kg.errors import UserError
from kg.remote.push import push_store
from kg.remote.store import RemoteStore

pytestmark = pytest.mark.slow

DBA = {"KG_STORE_USER": "dba", "KG_STORE_PASSWORD": "dba"}  # a new Virtuoso database's administrator


@pytest.fixture(scope="module")
def virtuoso(tmp_path_factory, seeds_out):
    server = start_virtuoso(tmp_path_factory.mktemp("virtuoso"))
    saved = {k: os.environ.get(k) for k in DBA}
    os.environ.update(DBA)
    try:
        push_store(seeds_out / "store", server.query, server.update, server.gsp)
        yield server
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.stop()


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_every_read_command_prints_the_embedded_stores_bytes(virtuoso, seeds_out, args):
    embedded, remote = same(args, seeds_out, virtuoso.query)
    assert (remote.returncode, remote.stdout, remote.stderr) == (embedded.returncode, embedded.stdout, embedded.stderr)


def test_commands_that_write_files_write_the_same_bytes(virtuoso, seeds_out, tmp_path):
    assert_same_files(seeds_out, virtuoso.query, tmp_path)


def test_a_rebuild_while_a_reader_queries_gives_one_builds_answers(virtuoso, seeds_out, tmp_path):
    old_dir, new_dir = seeds_out / "store", _variant(seeds_out / "store", tmp_path / "variant")
    old, new = (_count(pyoxigraph.Store.read_only(str(d))) for d in (old_dir, new_dir))
    # Virtuoso's switch is several requests, not one transaction
    answers = answers_while(virtuoso.query, [lambda d=d: push_store(d, virtuoso.query, virtuoso.update, virtuoso.gsp)
                                             for d in (new_dir, old_dir)])
    assert answers <= {old, new} and old in answers, answers - {old, new}
    assert _count(RemoteStore(virtuoso.query)) == old


def test_writing_without_credentials_is_refused_in_one_line(virtuoso, seeds_out, monkeypatch):
    monkeypatch.delenv("KG_STORE_USER")
    monkeypatch.setenv("NETRC", str(seeds_out / "no-netrc"))
    with pytest.raises(UserError) as refused:
        push_store(seeds_out / "store", virtuoso.query, virtuoso.update, virtuoso.gsp)
    message = str(refused.value)
    assert "\n" not in message and "HTTP 401: not authorized" in message and "KG_STORE_USER" in message
    # nothing was written: the server still serves the seeds
    assert _count(RemoteStore(virtuoso.query)) == _count(pyoxigraph.Store.read_only(str(seeds_out / "store")))


def test_an_answer_virtuoso_cuts_short_is_an_error_not_a_short_answer(seeds_out, tmp_path, monkeypatch):
    # Virtuoso cuts every answer at ResultSetMaxRows and says so only in a header: here 100 rows, and
    # the seeds' merged view has 3,195 triples, so a query for all of them would print 100 rows as if
    # that were all. The projections' tables and the name lookup are read in pages (100,000 rows):
    # cut at 100, kg reads pages of 100 instead (Virtuoso still says it reached its cap: they are whole)
    # and prints the embedded store's answer.
    server = start_virtuoso(tmp_path / "db", max_rows=100)
    monkeypatch.setenv("KG_STORE_USER", DBA["KG_STORE_USER"])
    monkeypatch.setenv("KG_STORE_PASSWORD", DBA["KG_STORE_PASSWORD"])
    try:
        push_store(seeds_out / "store", server.query, server.update, server.gsp)
        everything = run_kg("query", "SELECT ?s ?p ?o WHERE { ?s ?p ?o }", "--store", server.query)
        assert everything.returncode == 1 and everything.stderr.count("\n") == 1, everything.stderr
        assert "cut the answer at 100 rows" in everything.stderr and "ResultSetMaxRows" in everything.stderr
        few = run_kg("query", "SELECT ?s WHERE { ?s ?p ?o } LIMIT 20", "--store", server.query, "--format", "csv")
        assert few.returncode == 0 and few.stdout.count("\n") == 21  # a header and 20 rows
        embedded = run_kg("collaborators", "Qinghao Hu", "--out", seeds_out).stdout
        paged = run_kg("collaborators", "Qinghao Hu", "--store", server.query)
        assert (paged.returncode, paged.stdout) == (0, embedded)
        monkeypatch.setenv("KG_STORE_PAGE", "30")  # pages below the cap: more of them, the same answer
        assert run_kg("collaborators", "Qinghao Hu", "--store", server.query).stdout == embedded
    finally:
        server.stop()
