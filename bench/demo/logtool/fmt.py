"""Human-readable formatting: sizes, durations, bars and text tables."""

import unicodedata


def format_bytes(size):
    """Return a byte count with a binary unit.

    >>> format_bytes(512), format_bytes(1536), format_bytes(3 * 1024 ** 3)
    ('512 B', '1.5 KiB', '3.0 GiB')
    """
    if size < 1024:
        return f"{size} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        size /= 1024
        if size < 1024:
            break
    return f"{size:.1f} {unit}"


def format_duration(seconds):
    """Return a duration given in seconds as days, hours, minutes, seconds.

    Only the two most significant non-zero units are kept.

    >>> format_duration(42), format_duration(3725), format_duration(90061)
    ('42s', '1h 2m', '1d 1h')
    >>> format_duration(0)
    '0s'
    """
    remaining = int(seconds)
    parts = []
    for unit, length in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        count, remaining = divmod(remaining, length)
        if count:
            parts.append(f"{count}{unit}")
    return " ".join(parts[:2]) or "0s"


def format_percent(part, whole):
    """Return *part* as a percentage of *whole*.

    >>> format_percent(1, 3), format_percent(0, 0)
    ('33.3%', '0.0%')
    """
    return f"{100 * part / whole if whole else 0:.1f}%"


def display_width(text):
    """Return the number of terminal columns *text* occupies.

    Wide East Asian characters take two columns, combining marks none.

    >>> display_width("abc"), display_width("\u65e5\u672c")
    (3, 4)
    >>> display_width("e\u0301")
    1
    """
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def truncate(text, width):
    """Shorten *text* to *width* columns, marking the cut with ``...``.

    >>> truncate("/api/v1/search?q=lazy", 12)
    '/api/v1/s...'
    """
    if display_width(text) <= width:
        return text
    while display_width(text) > width - 3:
        text = text[:-1]
    return text + "..."


def bar(value, maximum, width):
    """Return a bar of ``#`` proportional to *value* / *maximum*.

    >>> bar(5, 10, 8), bar(0, 10, 8), bar(1, 1000, 8)
    ('####', '', '#')
    """
    if value <= 0 or maximum <= 0:
        return ""
    return "#" * max(1, round(width * value / maximum))


def render_table(headers, rows, align=None):
    """Return the lines of a table with aligned columns.

    *align* holds one character per column, ``l`` or ``r``; by default
    the first column is left-aligned and the others right-aligned.  The
    cells are converted with str().

    >>> for line in render_table(["path", "hits"], [["/", 12], ["/faq", 3]]):
    ...     print(line)
    path  hits
    /       12
    /faq     3
    """
    if align is None:
        align = "l" + "r" * (len(headers) - 1)
    table = [[str(cell) for cell in row] for row in [headers, *rows]]
    widths = [max(display_width(row[column]) for row in table)
              for column in range(len(headers))]
    lines = []
    for row in table:
        cells = []
        for cell, width, how in zip(row, widths, align):
            padding = " " * (width - display_width(cell))
            cells.append(cell + padding if how == "l" else padding + cell)
        lines.append("  ".join(cells).rstrip())
    return lines
