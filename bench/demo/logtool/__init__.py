"""logtool: summarise, convert and ship web server access logs.

The logs are read in the combined log format, optionally followed by the
request duration (see logtool.parse).  ``python -m logtool --help`` lists
the commands; the library interface is::

    from logtool import LogReader, summarize
    summary = summarize(LogReader(["access.log"]))
"""

__version__ = "1.4.0"

from .parse import LogReader, Record, parse_line
from .report import summarize

__all__ = ["LogReader", "Record", "parse_line", "summarize"]
