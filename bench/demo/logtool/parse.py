"""Parsing of access log lines into records.

The accepted format is the NCSA combined log format, optionally followed
by the request duration in seconds, as written by nginx with
``log_format ... $request_time``::

    192.0.2.1 - - [04/Mar/2024:09:00:03 +0000] "GET / HTTP/1.1" 200 512
    "-" "curl/8.5.0" 0.004

Files ending in ``.gz``, ``.bz2`` or ``.xz`` are decompressed on the fly,
and ``-`` stands for the standard input.
"""

from __future__ import annotations

import bz2
import collections
import datetime
import gzip
import lzma
import os
import re
import sys
from typing import Iterable, Iterator, TextIO

Record = collections.namedtuple("Record", [
    "client", "user", "time", "method", "path", "protocol", "status",
    "size", "referrer", "agent", "duration",
])
Record.__doc__ = """One request of an access log.

*size* is the response size in bytes, *duration* the request time in
seconds or None when the log does not record it; *user*, *referrer* and
*agent* are None when logged as ``-``.
"""

_LINE_RE = re.compile(r"""
    (?P<client>\S+) \s \S+ \s (?P<user>\S+) \s
    \[ (?P<day>\d\d) / (?P<month>[A-Z][a-z][a-z]) / (?P<year>\d{4})
       : (?P<hour>\d\d) : (?P<minute>\d\d) : (?P<second>\d\d)
       \s (?P<offset>[+-]\d{4}) \] \s
    " (?P<method>[A-Z]+) \s (?P<path>\S+) \s (?P<protocol>HTTP/[\d.]+) " \s
    (?P<status>\d{3}) \s (?P<size>\d+|-) \s
    " (?P<referrer>[^"]*) " \s " (?P<agent>[^"]*) "
    (?: \s (?P<duration>\d+(?:\.\d+)?) )?
    \s* $
""", re.VERBOSE)

_MONTHS = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        start=1,
    )
}

# Parsed UTC offsets, keyed by their text: a log rarely uses more than two.
_timezones = {}


class ParseError(ValueError):
    """A line that is not in the expected format."""

    def __init__(self, filename, lineno, line):
        super().__init__(f"{filename}:{lineno}: cannot parse {line[:60]!r}")
        self.filename = filename
        self.lineno = lineno
        self.line = line


def _timezone(offset):
    """Return the timezone of a ``+HHMM`` or ``-HHMM`` offset."""
    tz = _timezones.get(offset)
    if tz is None:
        minutes = int(offset[1:3]) * 60 + int(offset[3:5])
        if offset[0] == "-":
            minutes = -minutes
        tz = _timezones[offset] = datetime.timezone(
            datetime.timedelta(minutes=minutes))
    return tz


def _optional(field):
    """Return None for a field logged as ``-``, else the field."""
    return None if field == "-" else field


def parse_line(line: str) -> Record | None:
    """Return the Record of one log line, or None if it is malformed.

    >>> record = parse_line('192.0.2.1 - - [04/Mar/2024:09:00:03 +0100] '
    ...                     '"GET /?q=1 HTTP/1.1" 200 512 "-" "curl/8.5.0" '
    ...                     '0.004')
    >>> record.status, record.path, record.size, record.duration
    (200, '/?q=1', 512, 0.004)
    >>> record.time.isoformat()
    '2024-03-04T09:00:03+01:00'
    >>> parse_line('garbage') is None
    True
    """
    match = _LINE_RE.match(line)
    if match is None:
        return None
    group = match.group
    month = _MONTHS.get(group("month"))
    if month is None:
        return None
    try:
        time = datetime.datetime(
            int(group("year")), month, int(group("day")),
            int(group("hour")), int(group("minute")), int(group("second")),
            tzinfo=_timezone(group("offset")),
        )
    except ValueError:
        return None
    size = group("size")
    duration = group("duration")
    return Record(
        client=group("client"),
        user=_optional(group("user")),
        time=time,
        method=group("method"),
        path=group("path"),
        protocol=group("protocol"),
        status=int(group("status")),
        size=0 if size == "-" else int(size),
        referrer=_optional(group("referrer")),
        agent=_optional(group("agent")),
        duration=None if duration is None else float(duration),
    )


def open_log(path: str) -> TextIO:
    """Open the log file *path* for reading text, decompressing it if needed.

    Undecodable bytes are replaced rather than rejected: logs record
    whatever clients send.
    """
    options = {"encoding": "utf-8", "errors": "replace"}
    extension = os.path.splitext(path)[1]
    if extension == ".gz":
        return gzip.open(path, "rt", **options)
    if extension == ".bz2":
        return bz2.open(path, "rt", **options)
    if extension in (".xz", ".lzma"):
        return lzma.open(path, "rt", **options)
    return open(path, **options)


class LogReader:
    """Iterate over the records of one or more log files, in order.

    Malformed lines are counted in the *rejected* attribute, or raise
    ParseError when *strict* is true.  Blank lines are ignored.
    """

    def __init__(self, paths: Iterable[str], *, strict: bool = False):
        self.paths = list(paths)
        self.strict = strict
        self.rejected = 0

    def __iter__(self) -> Iterator[Record]:
        for path in self.paths:
            if path == "-":
                yield from self._read(sys.stdin, "<stdin>")
            else:
                with open_log(path) as stream:
                    yield from self._read(stream, path)

    def _read(self, stream, name):
        for lineno, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            record = parse_line(line)
            if record is not None:
                yield record
            elif self.strict:
                raise ParseError(name, lineno, line)
            else:
                self.rejected += 1
