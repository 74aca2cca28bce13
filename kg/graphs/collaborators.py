"""One person's collaboration: top collaborators, collaborators shared by several people, the path between two."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.graphs.common import check_graph, check_node, check_people, frame_of
from kg.graphs.rows import COLLABORATOR_COLUMNS, PATH_COLUMNS, collaborator_rows, path_rows, shared_rows

if TYPE_CHECKING:
    import networkx as nx
    import pandas as pd


def top_collaborators(graph: nx.Graph, person, n: int | None = 10) -> pd.DataFrame:
    """A person's closest collaborators: most joint works first.

    Parameters
    ----------
    graph : networkx.Graph
        A co-author graph (:func:`kg.graphs.projections.coauthor_graph`).
    person : str
        The person's node (IRI).
    n : int or None
        How many rows; ``None`` for all collaborators.

    Returns
    -------
    pandas.DataFrame
        ``collaborator`` (IRI), ``name``, ``joint_works``, ``weight`` (Newman's fractional
        weight), ``first_year``, ``last_year``, ``years``, ``venues`` (comma-separated) and
        ``works`` (titles with years, ``"; "``-separated). Sorted by joint works, then
        weight (both descending), then name.
    """
    check_graph(graph)
    check_node(graph, person)
    frame = frame_of(collaborator_rows(graph, person, n), COLLABORATOR_COLUMNS, person=person)
    return frame.astype({"first_year": "Int64", "last_year": "Int64"})


def shared_collaborators(graph: nx.Graph, people) -> pd.DataFrame:
    """Collaborators that two or more people have in common.

    Parameters
    ----------
    graph : networkx.Graph
        A co-author graph.
    people : list of str
        Two or more distinct person nodes.

    Returns
    -------
    pandas.DataFrame
        One row per person who co-authored with every one of *people* (and is not one of
        them): ``collaborator``, ``name``, ``joint_works`` (total with all of *people*), then
        one column per given person, headed by their name, with the joint works with them.
        Sorted by total joint works (descending), then name.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.Graph([("a", "c"), ("b", "c"), ("a", "b"), ("b", "d")])
    >>> shared_collaborators(g, ["a", "b"])[["collaborator", "joint_works"]]
      collaborator  joint_works
    0            c            2
    """
    check_graph(graph)
    people = check_people(graph, people)
    columns, rows = shared_rows(graph, people)
    return frame_of(rows, columns, people=people)


def collaboration_path(graph: nx.Graph, source, target) -> pd.DataFrame:
    """The shortest chain of co-authorships from one person to another, with the works.

    Among shortest paths, each hop prefers the pair with more joint works (then the
    smaller IRI), so the answer is the same every time.

    Returns
    -------
    pandas.DataFrame
        One row per hop: ``hop`` (1-based), ``from``, ``from_name``, ``to``, ``to_name``,
        ``joint_works``, ``works`` (titles with years). Empty when the two are not
        connected (``attrs["connected"]`` is then ``False``).

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("x", "y")])
    >>> list(collaboration_path(g, "a", "c")["to"])
    ['b', 'c']
    >>> collaboration_path(g, "a", "x").attrs["connected"]
    False
    """
    check_graph(graph)
    check_node(graph, source)
    check_node(graph, target)
    rows = path_rows(graph, source, target)
    return frame_of(rows or [], PATH_COLUMNS, connected=rows is not None, source=source, target=target)
