"""Content negotiation for the SPARQL endpoint: which format an ``Accept`` header or a
``format=`` parameter asks for.

>>> negotiate("text/csv;q=0.5, application/sparql-results+json", RESULT_MEDIA, "json")
'json'
>>> negotiate("text/html,*/*;q=0.8", GRAPH_MEDIA, "turtle")
'turtle'
>>> negotiate("image/png", RESULT_MEDIA, "json") is None
True
"""

from __future__ import annotations

#: Media types accepted for SELECT and ASK answers, in order of preference.
RESULT_MEDIA = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "text/javascript": "json",
    "application/javascript": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
#: Media types accepted for CONSTRUCT and DESCRIBE answers, in order of preference.
GRAPH_MEDIA = {
    "text/turtle": "turtle",
    "application/turtle": "turtle",
    "application/x-turtle": "turtle",
    "text/n3": "turtle",
    "text/rdf+n3": "turtle",
    "application/n3": "turtle",
    "application/n-triples": "ntriples",
    "text/plain": "ntriples",
    "application/ld+json": "jsonld",
    "application/x-json+ld": "jsonld",
    "application/json": "jsonld",
    "application/rdf+xml": "rdfxml",
    "application/xml": "rdfxml",
    "text/xml": "rdfxml",
}
#: ``format=`` / ``output=`` / ``results=`` parameter values: (SELECT/ASK format, graph format).
FORMAT_PARAMS = {
    "json": ("json", "jsonld"),
    "xml": ("xml", "rdfxml"),
    "csv": ("csv", None),
    "tsv": ("tsv", None),
    "turtle": (None, "turtle"),
    "ttl": (None, "turtle"),
    "n3": (None, "turtle"),
    "ntriples": (None, "ntriples"),
    "nt": (None, "ntriples"),
    "n-triples": (None, "ntriples"),
    "json-ld": (None, "jsonld"),
    "jsonld": (None, "jsonld"),
    "rdf+xml": (None, "rdfxml"),
    "rdfxml": (None, "rdfxml"),
}

SERVICE_FORMATS = {
    "json": "http://www.w3.org/ns/formats/SPARQL_Results_JSON",
    "xml": "http://www.w3.org/ns/formats/SPARQL_Results_XML",
    "csv": "http://www.w3.org/ns/formats/SPARQL_Results_CSV",
    "tsv": "http://www.w3.org/ns/formats/SPARQL_Results_TSV",
    "turtle": "http://www.w3.org/ns/formats/Turtle",
    "ntriples": "http://www.w3.org/ns/formats/N-Triples",
    "jsonld": "http://www.w3.org/ns/formats/JSON-LD",
    "rdfxml": "http://www.w3.org/ns/formats/RDF_XML",
}


def negotiate(accept: str | None, media: dict[str, str], default: str) -> str | None:
    """The format to answer in for an ``Accept`` header, or ``None`` if none is acceptable.

    Media ranges are tried by falling quality (``q``), then in the order given; ``*/*``
    and an empty header give *default*; ``type/*`` gives the first format of that type.
    """
    if not accept or not accept.strip():
        return default
    ranges = []
    for index, part in enumerate(accept.split(",")):
        fields = [f.strip() for f in part.split(";")]
        kind = fields[0].lower()
        if not kind:
            continue
        q = 1.0
        for param in fields[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranges.append((-q, index, kind))
    for _, _, kind in sorted(ranges):
        if kind == "*/*":
            return default
        if kind in media:
            return media[kind]
        if kind.endswith("/*"):
            prefix = kind[:-1]
            for name, fmt in media.items():
                if name.startswith(prefix):
                    return fmt
    return None


def formats_for(accept: str | None, params: dict[str, list[str]]) -> tuple[str | None, str | None]:
    """The (SELECT/ASK format, CONSTRUCT/DESCRIBE format) a request asks for.

    A recognised ``format``, ``output`` or ``results`` parameter wins over ``Accept``.

    >>> formats_for("text/csv", {})
    ('csv', None)
    >>> formats_for("text/csv", {"format": ["json"]})
    ('json', 'jsonld')
    """
    results = negotiate(accept, RESULT_MEDIA, "json")
    graph = negotiate(accept, GRAPH_MEDIA, "turtle")
    for key in ("format", "output", "results"):
        for value in params.get(key, []):
            value = value.strip().lower()
            pair = FORMAT_PARAMS.get(value) or (RESULT_MEDIA.get(value), GRAPH_MEDIA.get(value))
            if pair != (None, None):
                return pair[0] or results, pair[1] or graph
    return results, graph
