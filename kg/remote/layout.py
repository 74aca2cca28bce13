"""Where kg keeps a build on a SPARQL server: graph names, and the pointer to the current build.

On a server the merged view cannot be "the default graph" (Virtuoso's and QLever's default
graph is the union of all graphs), so it is a named graph named for the build that wrote it
(:func:`merged_graph`): a push loads a new merged view beside the old one and never moves it.
Each source document keeps its graph IRI, and the ontology its graph. The small graph
:data:`CURRENT_GRAPH` says which build is current, names its merged graph and lists its graphs,
with a digest of each; readers pass them as the SPARQL protocol's ``default-graph-uri`` and
``named-graph-uri``, so every query sees exactly what the embedded store holds, and nothing else
on the server. A graph the current build does not list is invisible to readers, which is what
lets a push write new graphs under their real names while readers go on (:mod:`kg.remote.push`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.vocab import DATA_IRIS

CURRENT_GRAPH = DATA_IRIS["graph/current"]
#: Graphs a push wrote that no build lists yet, or that the current build no longer lists (dropped
#: by the same push once it has switched, or by the next push if this one failed).
PENDING_GRAPH = DATA_IRIS["graph/pending"]
STAGING = DATA_IRIS["graph/staging/"]
MERGED = DATA_IRIS["graph/merged/"]
#: The merged graph of the placeholder build a first push shows while it loads: a graph never written.
EMPTY_GRAPH = MERGED + "empty"
#: The pointer's few terms, outside the ontology (they describe the server's layout, not the data).
STORE_NS = "https://kg.example/ns/store#"
BUILD = STORE_NS + "build"
MERGED_VIEW = STORE_NS + "merged"
NAMED_GRAPH = STORE_NS + "namedGraph"
DIGEST = STORE_NS + "digest"
STAGED = STORE_NS + "staged"
#: The value of BUILD while a push is moving its graphs in; readers wait and ask again.
SWITCHING = "switching"

POINTER_QUERY = (f"SELECT ?build ?merged ?mergedDigest ?graph ?digest WHERE {{ GRAPH <{CURRENT_GRAPH}> {{ "
                 f"<{CURRENT_GRAPH}> <{BUILD}> ?build "
                 f"OPTIONAL {{ <{CURRENT_GRAPH}> <{MERGED_VIEW}> ?merged "
                 f"OPTIONAL {{ ?merged <{DIGEST}> ?mergedDigest }} }} "
                 f"OPTIONAL {{ <{CURRENT_GRAPH}> <{NAMED_GRAPH}> ?graph "
                 f"OPTIONAL {{ ?graph <{DIGEST}> ?digest }} }} }} }}")
BUILD_QUERY = f"SELECT ?build WHERE {{ GRAPH <{CURRENT_GRAPH}> {{ <{CURRENT_GRAPH}> <{BUILD}> ?build }} }}"
PENDING_QUERY = f"SELECT ?graph WHERE {{ GRAPH <{PENDING_GRAPH}> {{ <{PENDING_GRAPH}> <{STAGED}> ?graph }} }}"


@dataclass(frozen=True)
class Build:
    """The current build on a server: its id, its merged graph, its named graphs (sources and
    ontology), and the digest of each of these graphs as the push that wrote it computed it."""

    id: str
    graphs: tuple[str, ...] = ()
    merged: str = EMPTY_GRAPH
    digests: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def switching(self) -> bool:
        return self.id == SWITCHING

    def dataset(self) -> list[tuple[str, str]]:
        """The SPARQL protocol parameters that make a query see this build as the embedded store.

        >>> Build("b1", ("https://kg.example/id/source/a",), MERGED + "d1").dataset()  # doctest: +NORMALIZE_WHITESPACE
        [('default-graph-uri', 'https://kg.example/id/graph/merged/d1'),
         ('named-graph-uri', 'https://kg.example/id/source/a')]
        """
        return [("default-graph-uri", self.merged)] + [("named-graph-uri", g) for g in self.graphs]


def merged_graph(build_id: str) -> str:
    """The name of the merged view that the push of *build_id* wrote."""
    return MERGED + build_id


def staging_graph(build_id: str, n: int) -> str:
    """The graph a push loads its *n*-th changed graph into before the switch."""
    return f"{STAGING}{build_id}/{n}"


def pointer_update(build_id: str, merged: str, graphs, digests: dict[str, str]) -> str:
    """SPARQL Update text that makes *build_id* the current build: its *merged* graph, its named
    *graphs*, and the digest of each graph that *digests* has (the merged one too)."""
    listed = ", ".join(f"<{g}>" for g in sorted(graphs))
    more = f" ; <{NAMED_GRAPH}> {listed}" if listed else ""
    sums = "".join(f" <{g}> <{DIGEST}> {_literal(d)} ." for g, d in sorted(digests.items()))
    return (f"DROP SILENT GRAPH <{CURRENT_GRAPH}> ;\n"
            f"INSERT DATA {{ GRAPH <{CURRENT_GRAPH}> {{ <{CURRENT_GRAPH}> <{BUILD}> {_literal(build_id)} ; "
            f"<{MERGED_VIEW}> <{merged}>{more} .{sums} }} }}")


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
