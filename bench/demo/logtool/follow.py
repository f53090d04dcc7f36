"""Follow a growing log, or the output of a command, and print live counts.

Every few seconds one line gives the number of requests seen so far per
status class, until the input ends or the process is interrupted::

    12:00:05  41 requests: 2xx 38, 4xx 3
"""

import asyncio
import collections
import os
import shlex
import signal
import subprocess
import sys
import time

from .parse import parse_line

#: Seconds between two checks of a followed file for new lines.
POLL_INTERVAL = 0.5


async def _file_lines(path):
    """Yield the lines appended to *path* from now on.

    Rotated or truncated files are not detected: follow the output of
    ``tail -F`` with a command for that.
    """
    with open(path, encoding="utf-8", errors="replace") as stream:
        stream.seek(0, os.SEEK_END)
        pending = ""
        while True:
            pending += stream.readline()
            if pending.endswith("\n"):
                yield pending
                pending = ""
            else:
                await asyncio.sleep(POLL_INTERVAL)


async def _command_lines(command):
    """Yield the lines written by the shell-like *command* to its stdout."""
    process = await asyncio.create_subprocess_exec(
        *shlex.split(command),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    try:
        async for line in process.stdout:
            yield line.decode("utf-8", errors="replace")
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


async def _count(lines, counts):
    """Count the status classes of the requests in *lines*."""
    async for line in lines:
        record = parse_line(line)
        counts["malformed" if record is None
               else f"{record.status // 100}xx"] += 1


def format_counts(counts):
    """Return the progress line for *counts*, by status class.

    >>> format_counts({"4xx": 3, "2xx": 38})[8:]
    '  41 requests: 2xx 38, 4xx 3'
    """
    line = f"{time.strftime('%H:%M:%S')}  {sum(counts.values())} requests"
    if counts:
        line += ": " + ", ".join(f"{name} {counts[name]}"
                                 for name in sorted(counts))
    return line


async def _follow(lines, interval, out):
    """Count *lines*, printing the counts to *out* every *interval*."""
    counts = collections.Counter()
    stopped = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopped.set)
    counter = asyncio.create_task(_count(lines, counts))
    waiter = asyncio.create_task(stopped.wait())
    done = ()
    try:
        while not done:
            done, _ = await asyncio.wait(
                {counter, waiter}, timeout=interval,
                return_when=asyncio.FIRST_COMPLETED)
            print(format_counts(counts), file=out, flush=True)
    finally:
        counter.cancel()
        waiter.cancel()
    if counter in done:
        counter.result()


def follow(path=None, *, command=None, interval=5.0, out=None):
    """Print counts of new requests every *interval* seconds.

    The requests are read from the lines appended to the file *path*, or
    from the output of *command*.  Stop at the end of the command's
    output or on SIGTERM; SIGINT raises KeyboardInterrupt as usual.
    The counts go to *out*, by default the standard output.
    """
    lines = _command_lines(command) if command else _file_lines(path)
    asyncio.run(_follow(lines, interval, out or sys.stdout))
