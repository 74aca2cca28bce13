"""The reader contract and the one list of readers.

A reader declares what it reads (file name suffixes, and a sniff of the first bytes for
suffixes that say little, such as ``.json`` or ``.xml``) and turns a :class:`Source`
(bytes, never decoded text) into a :class:`~kg.records.Document`. Adding a format is one
module in ``kg/sources/`` and one line in :data:`READERS`.

>>> [r.name for r in readers_for("cv.md", b"# Jane Doe")]
['text']
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from kg.records import Document

#: The first bytes of a file that sniffers see.
SNIFF_BYTES = 4096


@dataclass(frozen=True)
class SourceFile:
    """One file of a source: its provenance name (relative to the data folder) and its bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Source:
    """What one reader reads as one document: a file, or the files of a site read as one
    collection (a folder of front-matter pages). ``name`` is how provenance names it."""

    name: str
    files: tuple[SourceFile, ...]

    @classmethod
    def single(cls, name: str, data: bytes) -> Source:
        return cls(name, (SourceFile(name, data),))

    @property
    def data(self) -> bytes:
        """The bytes of a one-file source."""
        return self.files[0].data


@dataclass(frozen=True)
class Reader:
    """A document format kg reads.

    ``module`` names the module in ``kg.sources`` that holds ``read(source) -> Document``
    and, where ``sniff`` is true, ``sniff(head: bytes) -> bool``; it is imported only when
    a document of this kind turns up, so a build imports only the parsers it needs.
    ``collection`` readers read every file of theirs under one folder as one document.
    """

    name: str
    module: str
    suffixes: tuple[str, ...]
    sniff: bool = False
    collection: bool = False
    description: str = ""

    def _module(self):
        return import_module(f"kg.sources.{self.module}")

    def accepts(self, head: bytes) -> bool:
        """Whether this reader claims a file that starts with *head* (its suffix already matched)."""
        return not self.sniff or bool(self._module().sniff(head))

    def read(self, source: Source) -> Document:
        return self._module().read(source)


#: Every reader, most specific first: for a file, the first reader whose suffix matches and
#: whose sniff (if any) accepts the first bytes reads it.
READERS: tuple[Reader, ...] = (
    Reader("bibtex", "bibtex", (".bib", ".bibtex"),
           description="BibTeX bibliographies (Google Scholar, Zotero, al-folio, CVs)"),
    Reader("orcid", "orcid", (".json", ".xml"), sniff=True,
           description="ORCID records (public record JSON or XML, v2/v3)"),
    Reader("dblp", "dblp", (".xml",), sniff=True, description="dblp person pages (XML)"),
    Reader("work-json", "workjson", (".json",), sniff=True, description="OpenAlex and Crossref work records (JSON)"),
    Reader("csl-json", "csljson", (".json",), sniff=True, description="CSL-JSON items (Zotero, Mendeley, pandoc)"),
    Reader("ris", "ris", (".ris", ".txt"), sniff=True, description="RIS exports (EndNote, Zotero, Mendeley, ORCID)"),
    Reader("dspace", "dspace", (".xml",), sniff=True,
           description="thesis records from DSpace / OAI-PMH (Dublin Core, MODS, DIM)"),
    Reader("frontmatter", "frontmatter", (".md", ".markdown"), sniff=True, collection=True,
           description="a site's publication pages with YAML front matter (academicpages, Hugo/Wowchemy)"),
    # generic: after the format-specific JSON readers (CSL-JSON, ORCID, OpenAlex, Crossref)
    Reader("datafile", "datafile", (".yml", ".yaml", ".json"), sniff=True,
           description="publication data files of sites (Jekyll _data/*.yml, JSON Resume)"),
    Reader("pdf", "pdf", (".pdf",), sniff=True, description="PDF CVs and publication lists: text with its layout"),
    Reader("docx", "docx", (".docx",), sniff=True, description="Word CVs and publication lists: text with its styles"),
    Reader("html", "html", (".html", ".htm", ".xhtml"), sniff=True,
           description="web pages: schema.org items, class-marked bibliography entries, else the page's text"),
    Reader("latex", "latex", (".tex",), sniff=True, collection=True,
           description="LaTeX CVs (moderncv, awesome-cv, res.cls, thebibliography), a folder's files as one"),
    Reader("text", "plaintext", (".md", ".markdown", ".txt", ".text"),
           description="CVs, publication lists and thesis records in markdown or plain text"),
)


def _suffix_of(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > name.rfind("/") else ""


def readers_for(name: str, head: bytes) -> list[Reader]:
    """The readers that claim a file named *name* starting with *head*, best first."""
    suffix = _suffix_of(name)
    return [r for r in READERS if suffix in r.suffixes and r.accepts(head[:SNIFF_BYTES])]


def known_suffixes() -> list[str]:
    """Every suffix some reader reads, sorted."""
    return sorted({s for r in READERS for s in r.suffixes})


