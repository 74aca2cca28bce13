"""HTTP to one SPARQL server: POST a query, an update or a graph, with credentials from the
environment or ``~/.netrc``, TLS verified, and every refusal turned into one line.

Credentials never come from the command line: ``KG_STORE_USER`` and ``KG_STORE_PASSWORD``, else
the ``~/.netrc`` entry (or ``$NETRC``) for the server's host. A URL with ``user:password@`` is
refused, and every URL in a message is shown without them (:func:`redact`).
"""

from __future__ import annotations

import netrc
import os
import socket
import urllib.error
import urllib.parse
import urllib.request

from kg.errors import UserError


def setting(name: str, default: int) -> int:
    """The whole number above 0 in the environment variable *name*, else *default*; read when used,
    so a notebook or test that sets it later is heard.

    >>> setting("KG_NO_SUCH_SETTING", 600)
    600
    """
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) == 0:
        raise UserError(f"{name}={text!r} is not a whole number above 0; unset it, or give one like {default}")
    return int(text)


#: Seconds to wait for a server's answer by default (a query on a big graph can take long): KG_STORE_TIMEOUT.
TIMEOUT = 600
RESULTS_JSON = "application/sparql-results+json"
N_TRIPLES = "application/n-triples"
#: The header with which Virtuoso says it cut an answer at its ResultSetMaxRows.
MAX_ROWS_HEADER = "X-SPARQL-MaxRows"


def redact(url: str) -> str:
    """*url* without the ``user:password@`` part, for messages.

    >>> redact("https://ann:secret@sparql.example/q?x=1")
    'https://sparql.example/q?x=1'
    """
    parts = urllib.parse.urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urllib.parse.urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def is_endpoint_url(location) -> bool:
    """Whether a store location is a server's URL (``http://`` or ``https://``) rather than a folder.

    >>> is_endpoint_url("http://127.0.0.1:7878/query"), is_endpoint_url("out")
    (True, False)
    """
    return isinstance(location, str) and location.split("://", 1)[0].lower() in ("http", "https")


def credentials(url: str) -> tuple[str, str] | None:
    """(user, password) for *url*: from ``KG_STORE_USER``/``KG_STORE_PASSWORD``, else netrc, else None."""
    user = os.environ.get("KG_STORE_USER")
    if user:
        return user, os.environ.get("KG_STORE_PASSWORD", "")
    host = urllib.parse.urlsplit(url).hostname or ""
    try:
        entry = netrc.netrc(os.environ.get("NETRC") or None).authenticators(host)
    except (FileNotFoundError, netrc.NetrcParseError, OSError):
        return None
    if entry is None:
        return None
    login, _, password = entry
    return (login or "", password or "")


class AnswerCut(UserError):
    """A server cut an answer at its row cap, :attr:`rows` (kg's paged reads then ask smaller pages)."""

    def __init__(self, rows: int, message: str):
        super().__init__(message)
        self.rows = rows


class Endpoint:
    """One SPARQL server URL that kg POSTs to, and nothing else.

    Parameters
    ----------
    url : str
        The endpoint's URL exactly as the user gave it (``http(s)://host[:port]/path``).
    """

    def __init__(self, url: str):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise UserError(f"store {redact(url)!r} is not a SPARQL endpoint URL; give http(s)://host[:port]/path")
        if parts.username is not None or parts.password is not None:
            raise UserError(f"store URL {redact(url)} carries a user name or password; give credentials in "
                            "KG_STORE_USER and KG_STORE_PASSWORD or in ~/.netrc, never on the command line")
        self.url = url
        handlers: list = []
        found = credentials(url)
        if found is not None:
            passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            passwords.add_password(None, url, *found)
            handlers += [urllib.request.HTTPBasicAuthHandler(passwords),
                         urllib.request.HTTPDigestAuthHandler(passwords)]
        # redirects are not followed: requests go to the URL given and nowhere else
        handlers.append(_NoRedirect())
        self._opener = urllib.request.build_opener(*handlers)

    def __repr__(self) -> str:
        return f"Endpoint({redact(self.url)!r})"

    def post(self, body: bytes, content_type: str, accept: str | None = None, what: str = "request",
             graph: str | None = None) -> bytes:
        """POST *body* to the endpoint and return the answer's bytes (see :meth:`post_answer`)."""
        return self.post_answer(body, content_type, accept, what, graph)[0]

    def post_answer(self, body: bytes, content_type: str, accept: str | None = None,
                    what: str = "request", graph: str | None = None) -> tuple[bytes, str, int | None]:
        """POST *body* to the endpoint (with ``?graph=`` *graph*, the Graph Store Protocol's parameter, if
        given); the answer's bytes, its media type (without parameters), and the row limit the server
        says it cut the answer at (Virtuoso's ``X-SPARQL-MaxRows``), or None.

        Raises
        ------
        UserError
            One line naming the server and why it refused: no connection, authentication,
            a body too large, a read-only server, or its own message.
        """
        url = self.url
        if graph is not None:
            url += ("&" if urllib.parse.urlsplit(url).query else "?") + urllib.parse.urlencode({"graph": graph})
        request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": content_type})
        if accept:
            request.add_header("Accept", accept)
        try:
            with self._opener.open(request, timeout=setting("KG_STORE_TIMEOUT", TIMEOUT)) as answer:
                media = (answer.headers.get("Content-Type") or "").split(";")[0].strip().lower()
                cut = answer.headers.get(MAX_ROWS_HEADER, "").strip()
                return answer.read(), media, int(cut) if cut.isdigit() else None
        except urllib.error.HTTPError as err:
            raise UserError(self._refusal(err, what)) from None
        except (urllib.error.URLError, OSError, socket.timeout) as err:
            reason = getattr(err, "reason", err)
            raise UserError(f"the SPARQL server at {redact(self.url)} did not answer the {what}: "
                            f"{_short(str(reason))}; check that it is running and the URL is right") from None

    def _refusal(self, err: urllib.error.HTTPError, what: str) -> str:
        where = redact(self.url)
        try:
            detail = _short(err.read().decode("utf-8", "replace"))
        except OSError:
            detail = ""
        if err.code in (401, 403):
            return (f"the SPARQL server at {where} refused the {what} (HTTP {err.code}: not authorized); give "
                    "credentials in KG_STORE_USER and KG_STORE_PASSWORD or ~/.netrc, with the right to write")
        if err.code == 413:
            return (f"the SPARQL server at {where} refused the {what} as too large (HTTP 413); "
                    "lower KG_STORE_BATCH (triples per request) or raise the server's request size limit")
        if err.code in (404, 405, 415):
            return (f"the SPARQL server at {where} does not take this {what} (HTTP {err.code}); for writing give "
                    "its SPARQL Update endpoint (--store-update or KG_STORE_UPDATE), or the server is read-only")
        return f"the SPARQL server at {where} refused the {what} (HTTP {err.code}): {detail or err.reason}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are refused: kg sends requests to the URL it was given and nowhere else."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise urllib.error.HTTPError(req.full_url, code, f"redirected to {redact(newurl)} (not followed)",
                                     headers, fp)


def _short(text: str, limit: int = 300) -> str:
    """*text* on one line, cut to *limit* characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 3] + "..."
