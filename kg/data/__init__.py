"""Package data: the ontology, the SHACL shapes and the example SPARQL queries.

They ship inside the package and are found with :mod:`importlib.resources`, so an
installed wheel finds them as a checkout does.

>>> b"owl:Ontology" in ontology_ttl(), sorted(q.name for q in queries_dir().iterdir())[0].endswith(".rq")
(True, True)
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def resource(name: str) -> Traversable:
    """A file or folder of ``kg/data``."""
    return files(__package__).joinpath(name)


def ontology_ttl() -> bytes:
    """``ontology.ttl``: the kg ontology, in Turtle."""
    return resource("ontology.ttl").read_bytes()


def shapes_ttl() -> bytes:
    """``shapes.ttl``: the SHACL shapes every build must satisfy, in Turtle."""
    return resource("shapes.ttl").read_bytes()


def queries_dir() -> Traversable:
    """The folder of example queries (``*.rq``)."""
    return resource("queries")
