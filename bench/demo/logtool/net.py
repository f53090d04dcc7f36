"""Download logs over HTTP(S) or FTP, and list remote log directories."""

import ftplib
import html.parser
import http.client
import logging
import mimetypes
import os
import platform
import shutil
import ssl
import urllib.parse
import urllib.request

from . import __version__

logger = logging.getLogger(__name__)

USER_AGENT = f"logtool/{__version__} ({platform.system()})"

#: File name suffixes of the logs that list_logs() reports.
LOG_SUFFIXES = (".log", ".log.gz", ".log.bz2", ".log.xz")


class _LinkParser(html.parser.HTMLParser):
    """Collect the targets of the links of an HTML page."""

    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def _ssl_context(verify):
    """Return the TLS context for HTTPS; *verify* false disables checks."""
    context = ssl.create_default_context()
    if not verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def _open_url(url, *, timeout, verify):
    """Return the response to a GET of *url*, raising OSError on failure."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        return urllib.request.urlopen(request, timeout=timeout,
                                      context=_ssl_context(verify))
    except http.client.HTTPException as exc:
        raise OSError(f"{url}: {exc!r}") from exc


def list_logs(url, *, timeout=30.0, verify=True):
    """Return the URLs of the logs linked from the index page *url*.

    This reads the directory listings of Apache, nginx and the like.
    """
    with _open_url(url, timeout=timeout, verify=verify) as response:
        charset = response.headers.get_content_charset() or "utf-8"
        page = response.read().decode(charset, errors="replace")
    parser = _LinkParser()
    parser.feed(page)
    parser.close()
    return [urllib.parse.urljoin(url, link) for link in parser.links
            if link.endswith(LOG_SUFFIXES)]


def _local_name(url_path, content_type):
    """Return a file name for a download, from its URL or content type."""
    name = os.path.basename(url_path)
    if name:
        return name
    return "download" + (mimetypes.guess_extension(content_type) or "")


def fetch(url, destination=None, *, timeout=30.0, verify=True):
    """Download *url* into the file *destination* and return its name.

    *url* is an ``http``, ``https`` or ``ftp`` URL; FTP logs in
    anonymously unless the URL holds a user name and password.  Without
    *destination* the file is named after the URL.  *verify* false
    accepts any TLS certificate.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "ftp":
        destination = destination or _local_name(parts.path, "")
        with ftplib.FTP(timeout=timeout) as ftp:
            ftp.connect(parts.hostname, parts.port or ftplib.FTP_PORT)
            ftp.login(urllib.parse.unquote(parts.username or "anonymous"),
                      urllib.parse.unquote(parts.password or ""))
            with open(destination, "wb") as stream:
                ftp.retrbinary(f"RETR {parts.path}", stream.write)
    elif parts.scheme in ("http", "https"):
        with _open_url(url, timeout=timeout, verify=verify) as response:
            destination = destination or _local_name(
                parts.path, response.headers.get_content_type())
            with open(destination, "wb") as stream:
                shutil.copyfileobj(response, stream)
    else:
        raise ValueError(f"{url}: unsupported URL scheme {parts.scheme!r}")
    logger.info("fetched %s into %s", url, destination)
    return destination
