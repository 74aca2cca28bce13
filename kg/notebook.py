"""The knowledge graph in Jupyter: load it in one line, ask, analyse, look.

:func:`load` opens a built graph (building it first from a data folder when asked) and
returns a :class:`KnowledgeGraph`, a thin layer over the rest of kg:

- :meth:`KnowledgeGraph.sparql` runs a query (text, a ``.rq`` file or the name of an example
  in ``kg/data/queries/``) and returns a :class:`pandas.DataFrame` with readable values: literals as
  Python values (a year as ``int``), and every IRI that has a name or a title replaced by it,
  with the IRI kept beside it in a ``<column>_iri`` column;
- :meth:`~KnowledgeGraph.coauthors`, :meth:`~KnowledgeGraph.affiliations`, :meth:`~KnowledgeGraph.organizations`
  and :meth:`~KnowledgeGraph.supervision` are the projections of :mod:`kg.graphs.projections` as networkx
  graphs, :meth:`~KnowledgeGraph.coauthor_pairs` the co-author pairs as a table (each made once, then shared);
- the analyses of :mod:`kg.graphs.analyses` as DataFrames, taking people by name or IRI;
- :meth:`~KnowledgeGraph.show` shows the interactive graph inline (:func:`kg.outputs.html.page.show_graph`:
  an ``<iframe srcdoc>`` that renders in Jupyter Lab and in notebooks exported to HTML).

Examples
--------
A graph held in memory (in a notebook, ``load("../out")`` opens a built one):

>>> import pyoxigraph
>>> store = pyoxigraph.Store()
>>> store.load(input=b'''
... @prefix kg: <https://kg.example/ns#> . @prefix p: <https://kg.example/id/person/> .
... @prefix w: <https://kg.example/id/work/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
... p:ada a kg:Person ; kg:name "Ada Lovelace" .
... p:charles a kg:Person ; kg:name "Charles Babbage" .
... w:notes a kg:Work ; kg:title "Notes" ; kg:year "1843"^^xsd:gYear ; kg:hasAuthor p:ada, p:charles .
... ''', format=pyoxigraph.RdfFormat.TURTLE)
>>> g = KnowledgeGraph(store)
>>> g.sparql("SELECT ?work ?year WHERE { ?work kg:year ?year }")
    work                          work_iri  year
0  Notes  https://kg.example/id/work/notes  1843
>>> g.top_collaborators("Ada")[["name", "joint_works", "years"]]
              name  joint_works years
0  Charles Babbage            1  1843
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pyoxigraph

from kg.build import build_graph
from kg.errors import UserError
from kg.graphs import analyses, pairs, projections
from kg.outputs.html.pyvis_network import knowledge_graph_to_pyvis
from kg.query.examples import examples_dir, read_query
from kg.query.frames import binding_term, python_value, readable_frame
from kg.query.lookup import resolve_person
from kg.query.sparql import run_query
from kg.store import as_store, load_merged_graph, open_store, store_path
from kg.vocab import KG

__all__ = ["KnowledgeGraph", "load", "python_value", "needs_build"]

# --------------------------------------------------------------------------- loading


def _newest_mtime(folder: Path) -> float:
    visible = (p for p in folder.rglob("*") if not any(part.startswith(".") for part in p.relative_to(folder).parts))
    return max([folder.stat().st_mtime, *(p.stat().st_mtime for p in visible)])


def needs_build(data_dir, out_dir) -> bool:
    """Whether *out_dir* lacks a graph built after the last change in *data_dir*.

    A change is a file or folder in *data_dir* (hidden ones aside) modified after the build;
    adding or removing a document changes its folder, so that counts too.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     needs_build(d, os.path.join(d, "out"))
    True
    """
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    built = [out_dir / "kg.trig", store_path(out_dir)]
    if not all(p.exists() for p in built):
        return True
    return _newest_mtime(data_dir) > min(p.stat().st_mtime for p in built)


def load(out_dir="out", data_dir=None, *, rebuild: bool = False, validate: bool = True, store=None) -> KnowledgeGraph:
    """The built knowledge graph, ready to explore; built from *data_dir* first if needed.

    Parameters
    ----------
    out_dir : str or Path
        The folder ``kg build`` writes (``kg.trig``, ``store/`` ...).
    data_dir : str or Path, optional
        The documents. When given, the graph is (re)built into *out_dir* if it is missing or
        older than a change in *data_dir* (see :func:`needs_build`), as ``kg build`` would.
    rebuild : bool
        Build even if the graph looks up to date (needs *data_dir*).
    validate : bool
        Check the built graph against ``shapes.ttl`` (as ``kg build`` does).
    store : str, optional
        A SPARQL endpoint URL to read the graph from instead of *out_dir* (as ``kg ... --store URL``).

    Returns
    -------
    KnowledgeGraph
        Its ``report`` is the :class:`kg.build.BuildReport` when this call built the graph,
        else ``None``.

    Raises
    ------
    UserError
        If *out_dir* holds no built graph and no *data_dir* is given, or *data_dir* does not
        exist.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     load(os.path.join(d, "out"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kg.errors.UserError: no built graph in .../out/ (expected .../out/store/); run `kg build` first
    """
    out_dir = Path(out_dir)
    report = None
    if data_dir is not None:
        data_dir = Path(data_dir)
        if not data_dir.is_dir():
            raise UserError(f"data folder {data_dir}/ does not exist; give the folder that holds the documents")
        if rebuild or needs_build(data_dir, out_dir):
            report = build_graph(data_dir, out_dir, validate=validate)
            if report.skipped:
                warnings.warn(f"the build skipped {len(report.skipped)} things it could not read; "
                              "see .report.summary()", stacklevel=2)
    elif rebuild:
        raise UserError("rebuild=True needs data_dir, the folder of documents to build from")
    return KnowledgeGraph(store or open_store(out_dir), out_dir=None if store else out_dir, report=report)


# --------------------------------------------------------------------------- the graph


class KnowledgeGraph:
    """A built knowledge graph with the questions a notebook asks of it.

    Parameters
    ----------
    store : pyoxigraph.Store or str
        The graph (:func:`kg.store.open_store`) or a SPARQL endpoint URL; its default graph is the merged view.
    out_dir : Path, optional
        The folder it was built in (for :attr:`graph`, read from ``kg.ttl``).
    report : kg.build.BuildReport, optional
        What the build that made it did.

    Notes
    -----
    Projections are computed on first use and then shared between calls: copy one
    (``graph.copy()``) before changing it. People are given by name (any unique part, as
    :func:`kg.query.lookup.resolve_person` matches) or by IRI.
    """

    def __init__(self, store, out_dir=None, report=None):
        self.store = as_store(store)
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.report = report
        self._cache: dict = {}

    def __repr__(self) -> str:
        counts = self.counts()
        told = ", ".join(f"{n} {kind}" for kind, n in zip(counts["kind"], counts["count"], strict=False))
        where = f" in {self.out_dir}/" if self.out_dir is not None else ""
        return f"<KnowledgeGraph{where}: {told}>"

    # ------------------------------------------------------------------ raw access

    @property
    def graph(self):
        """The merged view as an rdflib ``Graph`` (read on first use).

        From ``kg.ttl`` in the build folder; for a store without one, from the store's
        default graph.
        """
        if "rdflib" not in self._cache:
            if self.out_dir is not None and (self.out_dir / "kg.ttl").is_file():
                graph = load_merged_graph(self.out_dir)
            else:
                import rdflib

                data = self.store.dump(format=pyoxigraph.RdfFormat.N_TRIPLES, from_graph=pyoxigraph.DefaultGraph())
                graph = rdflib.Graph().parse(data=(data or b"").decode("utf-8"), format="nt")
            self._cache["rdflib"] = graph
        return self._cache["rdflib"]

    def sparql(self, query: str, **bindings):
        """The answer to a SPARQL query, with readable values.

        Parameters
        ----------
        query : str
            The query text, a path to a ``.rq`` file, or the name of an example query
            (``"coauthors"`` for ``kg/data/queries/coauthors.rq``). The prefixes of
            :data:`kg.vocab.PREFIXES` (``kg:``, ``id:``, ``schema:`` ...) need no declaration.
        **bindings
            Values for the query's variables, such as ``name="Ada Lovelace"``: a ``str`` is
            read as ``kg query --bind`` reads it (``"<https://...>"`` or ``"id:person/ada"``
            is an IRI, ``'"2023"^^xsd:gYear'`` a typed literal, anything else a string);
            ``int``, ``float`` and ``bool`` become typed literals.

        Returns
        -------
        pandas.DataFrame or bool
            For SELECT, one column per variable. Literals become Python values (integers
            and years ``int``, booleans ``bool``, dates their ISO text). An IRI that has a
            ``kg:name`` (else ``kg:title``, else ``kg:fileName``) is replaced by it and the
            IRI goes to a column ``<variable>_iri`` right after. CONSTRUCT and DESCRIBE give
            ``subject``, ``predicate``, ``object`` columns the same way; ASK gives a bool.
            ``frame.attrs["query"]`` says which query ran.

        Examples
        --------
        >>> import pyoxigraph
        >>> store = pyoxigraph.Store()
        >>> store.load(input=b'<https://kg.example/id/person/ada> <https://kg.example/ns#name> "Ada" .',
        ...            format=pyoxigraph.RdfFormat.N_TRIPLES)
        >>> g = KnowledgeGraph(store)
        >>> g.sparql("SELECT ?p ?name WHERE { ?p kg:name ?name }", name="Ada")
             p                             p_iri name
        0  Ada  https://kg.example/id/person/ada  Ada
        >>> g.sparql("ASK { ?p kg:name 'Bob' }")
        False
        """
        text, source = read_query(query, examples_dir()) if isinstance(query, str) else (query, "query")
        terms = {pyoxigraph.Variable(name): binding_term(name, value) for name, value in bindings.items()}
        result = run_query(self.store, text, bindings=terms or None, source=source)
        if result.kind == "boolean":
            return bool(result.boolean)
        if result.kind == "graph":
            variables = ["subject", "predicate", "object"]
            rows = [(t.subject, t.predicate, t.object) for t in result.triples]
        else:
            variables, rows = result.variables, result.rows
        frame = readable_frame(self.store, variables, rows)
        frame.attrs["query"] = source
        return frame

    def counts(self) -> pd.DataFrame:
        """How many people, works, organizations, venues and source documents the graph holds.

        Examples
        --------
        >>> KnowledgeGraph(pyoxigraph.Store()).counts().values.tolist()
        [['people', 0], ['works', 0], ['organizations', 0], ['venues', 0], ['sources', 0]]
        """
        kinds = [("people", "Person"), ("works", "Work"), ("organizations", "Organization"),
                 ("venues", "Venue"), ("sources", "SourceDocument")]
        rows = []
        for label, cls in kinds:
            answer = self.store.query(f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a <{getattr(KG, cls)}> }}")
            assert isinstance(answer, pyoxigraph.QuerySolutions)  # a SELECT
            rows.append((label, int(next(iter(answer))["n"].value)))
        return pd.DataFrame(rows, columns=["kind", "count"])

    def person(self, name: str) -> str:
        """The IRI of the person *name* names.

        Parameters
        ----------
        name : str
            Any unique part of the name, in any order and case (see
            :func:`kg.query.lookup.resolve_person`), or an IRI (returned as it is).

        Raises
        ------
        UserError
            If nobody or several people match (listing them).

        Examples
        --------
        >>> store = pyoxigraph.Store()
        >>> store.load(input=b'<https://kg.example/id/person/ada> a <https://kg.example/ns#Person> ; '
        ...            b'<https://kg.example/ns#name> "Ada Lovelace" .', format=pyoxigraph.RdfFormat.TURTLE)
        >>> KnowledgeGraph(store).person("lovelace ada")
        'https://kg.example/id/person/ada'
        """
        if not isinstance(name, str):
            raise UserError(f"give a person's name or IRI as text, got {type(name).__name__}")
        if name.startswith(("http://", "https://")):
            return name
        return resolve_person(self.store, name).iri

    def people(self, profiled: bool | None = None) -> pd.DataFrame:
        """Everyone in the graph.

        Parameters
        ----------
        profiled : bool, optional
            ``True``: only the people a source document is about; ``False``: only the others.

        Returns
        -------
        pandas.DataFrame
            ``person`` (name), ``person_iri``, ``profiled``, ``works`` (how many they
            authored), ``first_year``, ``last_year``; sorted by name.

        Examples
        --------
        >>> KnowledgeGraph(pyoxigraph.Store()).people().columns.tolist()
        ['person', 'person_iri', 'profiled', 'works', 'first_year', 'last_year']
        """
        graph = self.affiliations()
        rows = [{"person": a["name"], "person_iri": n, "profiled": bool(a.get("profiled")), "works": a.get("works", 0),
                 "first_year": a.get("first_year"), "last_year": a.get("last_year")}
                for n, a in graph.nodes(data=True) if a.get("kind") == "person"
                and (profiled is None or bool(a.get("profiled")) == profiled)]
        rows.sort(key=lambda r: (r["person"], r["person_iri"]))
        frame = pd.DataFrame(rows, columns=["person", "person_iri", "profiled", "works", "first_year", "last_year"])
        return frame.astype({"first_year": "Int64", "last_year": "Int64"})

    # ------------------------------------------------------------------ projections

    def _projection(self, key, build):
        if key not in self._cache:
            self._cache[key] = build(self.store)
        return self._cache[key]

    def coauthors(self):
        """The co-author graph (:func:`kg.graphs.projections.coauthor_graph`)."""
        return self._projection("coauthors", projections.coauthor_graph)

    def coauthor_pairs(self) -> pd.DataFrame:
        """Every co-author pair as a table, names and IRIs (:func:`kg.graphs.pairs.coauthor_pairs`)."""
        return self._projection("coauthor_pairs", pairs.coauthor_pairs)

    def affiliations(self):
        """People and organizations (:func:`kg.graphs.projections.person_organization_graph`)."""
        return self._projection("affiliations", projections.person_organization_graph)

    def organizations(self):
        """Organizations linked by shared people (:func:`kg.graphs.projections.organization_graph`)."""
        return self._projection("organizations", projections.organization_graph)

    def supervision(self):
        """Supervisors to students (:func:`kg.graphs.projections.supervision_graph`)."""
        return self._projection("supervision", projections.supervision_graph)

    # ------------------------------------------------------------------ analyses

    def _people(self, people) -> list[str]:
        if isinstance(people, str):
            raise UserError(f"give a list of two or more people, got the single name {people!r}")
        return [self.person(p) for p in people]

    def top_collaborators(self, person: str, n: int | None = 10) -> pd.DataFrame:
        """A person's closest collaborators (:func:`kg.graphs.analyses.top_collaborators`), ``newman_weight``."""
        frame = analyses.top_collaborators(self.coauthors(), self.person(person), n=n)
        return frame.rename(columns={"weight": "newman_weight"})  # `weight` means joint works in kg's exports

    def shared_collaborators(self, people) -> pd.DataFrame:
        """Collaborators the given people share (:func:`kg.graphs.analyses.shared_collaborators`)."""
        return analyses.shared_collaborators(self.coauthors(), self._people(people))

    def collaboration_path(self, source: str, target: str) -> pd.DataFrame:
        """The shortest chain of co-authors between two people (:func:`kg.graphs.analyses.collaboration_path`)."""
        return analyses.collaboration_path(self.coauthors(), self.person(source), self.person(target))

    def centrality(self, **options) -> pd.DataFrame:
        """Degree, betweenness and PageRank of everyone (:func:`kg.graphs.analyses.centrality`)."""
        return analyses.centrality(self.coauthors(), **options)

    def communities(self, **options) -> pd.DataFrame:
        """Groups who work mostly with each other (:func:`kg.graphs.analyses.communities`)."""
        return analyses.communities(self.coauthors(), **options)

    def brokers(self, n: int | None = 20, **options) -> pd.DataFrame:
        """People whose collaborators span communities (:func:`kg.graphs.analyses.brokers`)."""
        return analyses.brokers(self.coauthors(), n=n, **options)

    def collaborations_per_year(self, person: str | None = None) -> pd.DataFrame:
        """Collaboration by year, overall or for one person (:func:`kg.graphs.analyses.collaborations_per_year`)."""
        return analyses.collaborations_per_year(self.coauthors(), None if person is None else self.person(person))

    def venues_per_person(self, person: str | None = None) -> pd.DataFrame:
        """Where people published (:func:`kg.graphs.analyses.venues_per_person`)."""
        return analyses.venues_per_person(self.coauthors(), None if person is None else self.person(person))

    def institutions_of(self, person: str, roll_up: bool = True) -> pd.DataFrame:
        """Where one person studied and worked (:func:`kg.graphs.analyses.institutions_of`)."""
        return analyses.institutions_of(self.affiliations(), self.person(person), roll_up=roll_up)

    def institutions_in_common(self, people, roll_up: bool = True) -> pd.DataFrame:
        """Institutions two or more of *people* share (:func:`kg.graphs.analyses.institutions_in_common`)."""
        return analyses.institutions_in_common(self.affiliations(), self._people(people), roll_up=roll_up)

    def overlaps_in_time(self, people=None, roll_up: bool = True) -> pd.DataFrame:
        """Who was at the same institution at the same time (:func:`kg.graphs.analyses.overlaps_in_time`)."""
        chosen = None if people is None else self._people(people)
        return analyses.overlaps_in_time(self.affiliations(), chosen, roll_up=roll_up)

    def statistics(self) -> pd.DataFrame:
        """SNAP's summary statistics of the co-author graph (:func:`kg.graphs.analyses.graph_statistics`)."""
        return analyses.graph_statistics(self.coauthors())

    # ------------------------------------------------------------------ the picture

    def show(self, focus: str | None = None, *, hops: int = 1, max_nodes: int | None = None,
             title: str | None = None, height: int = 650):
        """The interactive graph, shown inline in Jupyter (:func:`kg.outputs.html.page.show_graph`).

        Parameters
        ----------
        focus : str, optional
            A person (name or IRI): show their neighbourhood of *hops* steps.
        hops, max_nodes, title, height
            See :func:`kg.outputs.html.page.show_graph`.

        Returns
        -------
        IPython.display.HTML
            The page in a sandboxed ``<iframe srcdoc>``: it needs no network and renders
            in Jupyter Lab, classic notebooks and notebooks exported to HTML.
        """
        from kg.outputs.html.page import show_graph

        return show_graph(self.coauthors(), self.affiliations(), focus=None if focus is None else self.person(focus),
                          hops=hops, max_nodes=max_nodes, title=title, height=height)

    #: The co-author graph as a ``pyvis.network.Network``: ``g.to_pyvis(focus=None, hops=1, max_nodes=None)``.
    to_pyvis = knowledge_graph_to_pyvis
