"""Aggregate statistics over access log records."""

from __future__ import annotations

import calendar
import collections
import ipaddress
import statistics
from typing import Any, Iterable, Iterator

from .fmt import (bar, format_bytes, format_duration, format_percent,
                  render_table, truncate)
from .parse import Record

#: Network prefix lengths used by ``clients="network"``.
PREFIX_LENGTHS = {4: 24, 6: 48}

_HISTOGRAM_WIDTH = 40
_PATH_WIDTH = 48


def sample(records: Iterable[Record], ratio) -> Iterator[Record]:
    """Yield an evenly spread fraction *ratio* of *records*.

    The selection is systematic, not random, so that repeated runs agree:
    with a ratio of 1/3 every third record is kept.

    >>> from fractions import Fraction
    >>> list(sample(range(10), Fraction(1, 3)))
    [2, 5, 8]
    """
    for index, record in enumerate(records):
        if int((index + 1) * ratio) > int(index * ratio):
            yield record


def client_key(address, grouping):
    """Return the key under which *address* is counted.

    *grouping* is ``"address"`` or ``"network"``; in the latter case IP
    addresses are replaced by their network (see PREFIX_LENGTHS).  Host
    names are always counted as they are.

    >>> client_key("198.51.100.23", "network")
    '198.51.100.0/24'
    >>> client_key("2001:db8:4f2::1", "network")
    '2001:db8:4f2::/48'
    >>> client_key("crawler.example", "network")
    'crawler.example'
    """
    if grouping == "address":
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    prefix = PREFIX_LENGTHS[ip.version]
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def _ranked(counter, top):
    """Return the *top* most common items, ties in key order."""
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))[:top]


def _latency(durations):
    """Return statistics of request durations in milliseconds."""
    if not durations:
        return None
    milliseconds = [1000 * duration for duration in durations]
    if len(milliseconds) > 1:
        percentiles = statistics.quantiles(milliseconds, n=100,
                                           method="inclusive")
        p95, p99 = percentiles[94], percentiles[98]
    else:
        p95 = p99 = milliseconds[0]
    return {
        "mean": round(statistics.fmean(milliseconds), 1),
        "median": round(statistics.median(milliseconds), 1),
        "p95": round(p95, 1),
        "p99": round(p99, 1),
        "max": round(max(milliseconds), 1),
    }


def summarize(records: Iterable[Record], *, top: int = 10,
              clients: str = "address",
              histogram: str = "hour") -> dict[str, Any]:
    """Return a JSON-serialisable summary of *records*.

    *top* limits the lists of paths and clients, *clients* is passed to
    client_key(), and *histogram* is ``"hour"`` (hour of the day, in the
    time zone of the log) or ``"weekday"``.
    """
    count = 0
    total_bytes = 0
    first = last = None
    statuses = collections.Counter()
    methods = collections.Counter()
    paths = collections.Counter()
    path_bytes = collections.Counter()
    hosts = collections.Counter()
    buckets = collections.Counter()
    durations = []
    for record in records:
        count += 1
        total_bytes += record.size
        if first is None or record.time < first:
            first = record.time
        if last is None or record.time > last:
            last = record.time
        statuses[record.status] += 1
        methods[record.method] += 1
        path = record.path.partition("?")[0]
        paths[path] += 1
        path_bytes[path] += record.size
        hosts[client_key(record.client, clients)] += 1
        if histogram == "hour":
            buckets[record.time.hour] += 1
        else:
            buckets[record.time.weekday()] += 1
        if record.duration is not None:
            durations.append(record.duration)

    if histogram == "hour":
        labels = [f"{hour:02d}" for hour in range(24)]
    else:
        labels = list(calendar.day_abbr)
    errors = collections.Counter()
    for status, number in statuses.items():
        if status >= 400:
            errors[f"{status // 100}xx"] += number
    return {
        "requests": count,
        "first": first.isoformat() if first else None,
        "last": last.isoformat() if last else None,
        "span_seconds": int((last - first).total_seconds()) if first else 0,
        "bytes": total_bytes,
        "status": {str(status): statuses[status]
                   for status in sorted(statuses)},
        "methods": dict(_ranked(methods, len(methods))),
        "errors": {kind: errors[kind] for kind in ("4xx", "5xx")},
        "latency_ms": _latency(durations),
        "top_paths": [
            {"path": path, "requests": number, "bytes": path_bytes[path]}
            for path, number in _ranked(paths, top)
        ],
        "top_clients": [
            {"client": client, "requests": number}
            for client, number in _ranked(hosts, top)
        ],
        "histogram": {
            "by": histogram,
            "buckets": [[label, buckets[index]]
                        for index, label in enumerate(labels)],
        },
    }


def format_text(summary: dict[str, Any]) -> str:
    """Return a summary made by summarize() as a plain text report."""
    requests = summary["requests"]
    lines = [f"Requests      {requests:,}"]
    rejected = summary.get("rejected_lines")
    if rejected:
        lines[0] += f" ({rejected:,} malformed lines skipped)"
    if not requests:
        return "\n".join(lines) + "\n"
    period = format_duration(summary["span_seconds"])
    errors = summary["errors"]
    lines += [
        f"Period        {summary['first']} .. {summary['last']} ({period})",
        f"Transferred   {format_bytes(summary['bytes'])}",
        "Errors        " + ", ".join(
            f"{kind} {format_percent(number, requests)}"
            for kind, number in errors.items()),
    ]
    latency = summary["latency_ms"]
    if latency:
        lines.append("Latency (ms)  " + "  ".join(
            f"{name} {value:.1f}" for name, value in latency.items()))

    lines.append("")
    lines += render_table(
        ["Status", "Requests", "Share"],
        [[status, f"{number:,}", format_percent(number, requests)]
         for status, number in summary["status"].items()])

    lines.append("")
    lines += render_table(
        ["Method", "Requests"],
        [[method, f"{number:,}"]
         for method, number in summary["methods"].items()])

    lines.append("")
    lines += render_table(
        ["Top paths", "Requests", "Transferred"],
        [[truncate(entry["path"], _PATH_WIDTH), f"{entry['requests']:,}",
          format_bytes(entry["bytes"])]
         for entry in summary["top_paths"]])

    lines.append("")
    lines += render_table(
        ["Top clients", "Requests", "Share"],
        [[entry["client"], f"{entry['requests']:,}",
          format_percent(entry["requests"], requests)]
         for entry in summary["top_clients"]])

    histogram = summary["histogram"]
    peak = max(number for _, number in histogram["buckets"])
    lines.append("")
    lines += render_table(
        [f"Per {histogram['by']}", "Requests", ""],
        [[label, f"{number:,}", bar(number, peak, _HISTOGRAM_WIDTH)]
         for label, number in histogram["buckets"]],
        align="lrl")
    return "\n".join(lines) + "\n"
