"""Where kg keeps a build on a SPARQL server: graph names, and the pointer to the current build.

On a server the merged view cannot be "the default graph" (Virtuoso's and QLever's default
graph is the union of all graphs), so it is the named graph :data:`MERGED_GRAPH`; each source
document keeps its graph IRI, and the ontology its graph. The small graph :data:`CURRENT_GRAPH`
says which build is current and lists its graphs; readers pass them as the SPARQL protocol's
``default-graph-uri`` and ``named-graph-uri``, so every query sees exactly what the embedded
store holds, and nothing else on the server.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.vocab import DATA

MERGED_GRAPH = str(DATA["graph/merged"])
CURRENT_GRAPH = str(DATA["graph/current"])
#: Staging graphs of pushes that have not switched yet (dropped by the next push if one failed).
PENDING_GRAPH = str(DATA["graph/pending"])
STAGING = str(DATA["graph/staging/"])
#: The pointer's few terms, outside the ontology (they describe the server's layout, not the data).
STORE_NS = "https://kg.example/ns/store#"
BUILD = STORE_NS + "build"
NAMED_GRAPH = STORE_NS + "namedGraph"
STAGED = STORE_NS + "staged"
#: The value of BUILD while a push is moving its graphs in; readers wait and ask again.
SWITCHING = "switching"

POINTER_QUERY = (f"SELECT ?build ?graph WHERE {{ GRAPH <{CURRENT_GRAPH}> {{ <{CURRENT_GRAPH}> <{BUILD}> ?build "
                 f"OPTIONAL {{ <{CURRENT_GRAPH}> <{NAMED_GRAPH}> ?graph }} }} }}")
BUILD_QUERY = f"SELECT ?build WHERE {{ GRAPH <{CURRENT_GRAPH}> {{ <{CURRENT_GRAPH}> <{BUILD}> ?build }} }}"
PENDING_QUERY = f"SELECT ?graph WHERE {{ GRAPH <{PENDING_GRAPH}> {{ <{PENDING_GRAPH}> <{STAGED}> ?graph }} }}"


@dataclass(frozen=True)
class Build:
    """The current build on a server: its id and its named graphs (sources and ontology)."""

    id: str
    graphs: tuple[str, ...] = ()

    @property
    def switching(self) -> bool:
        return self.id == SWITCHING

    def dataset(self) -> list[tuple[str, str]]:
        """The SPARQL protocol parameters that make a query see this build as the embedded store.

        >>> Build("b1", ("https://kg.example/id/source/a",)).dataset()  # doctest: +NORMALIZE_WHITESPACE
        [('default-graph-uri', 'https://kg.example/id/graph/merged'),
         ('named-graph-uri', 'https://kg.example/id/source/a')]
        """
        return [("default-graph-uri", MERGED_GRAPH)] + [("named-graph-uri", g) for g in self.graphs]


def staging_graph(build_id: str, n: int) -> str:
    """The graph a push loads its *n*-th graph into before the switch."""
    return f"{STAGING}{build_id}/{n}"


def pointer_update(build_id: str, graphs) -> str:
    """SPARQL Update text that makes *build_id* (with named *graphs*) the current build."""
    listed = ", ".join(f"<{g}>" for g in sorted(graphs))
    more = f" ; <{NAMED_GRAPH}> {listed}" if listed else ""
    return (f"DROP SILENT GRAPH <{CURRENT_GRAPH}> ;\n"
            f"INSERT DATA {{ GRAPH <{CURRENT_GRAPH}> {{ <{CURRENT_GRAPH}> <{BUILD}> {_literal(build_id)}{more} }} }}")


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
