"""Parse several log files at once, in worker processes."""

import concurrent.futures
import multiprocessing

from .parse import LogReader


def _read_file(path, strict):
    """Return the records of one file and its number of malformed lines."""
    reader = LogReader([path], strict=strict)
    return list(reader), reader.rejected


def read_files(paths, *, jobs, strict=False):
    """Return the records of *paths*, in order, and the number of rejects.

    The files are parsed by up to *jobs* processes.  They are started with
    the "spawn" method, which behaves the same on every platform and is
    safe in a process that runs threads.
    """
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs, mp_context=context) as pool:
        results = list(pool.map(_read_file, paths, [strict] * len(paths)))
    records = [record for file_records, _ in results
               for record in file_records]
    return records, sum(rejected for _, rejected in results)
