"""SQLite storage of requests, for ad-hoc queries with SQL."""

import dataclasses
import datetime
import hashlib
import logging
import sqlite3
import uuid

logger = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    inserted INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS requests (
    digest TEXT PRIMARY KEY,
    run TEXT NOT NULL REFERENCES runs (id),
    client TEXT NOT NULL,
    user TEXT,
    time TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    protocol TEXT NOT NULL,
    status INTEGER NOT NULL,
    size INTEGER NOT NULL,
    referrer TEXT,
    agent TEXT,
    duration REAL
);
CREATE INDEX IF NOT EXISTS requests_time ON requests (time);
"""

_INSERT = """
INSERT OR IGNORE INTO requests
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""


@dataclasses.dataclass(frozen=True)
class IngestResult:
    """What Store.ingest() did."""

    run: str
    inserted: int
    duplicates: int


def record_digest(record):
    """Return a digest identifying *record*, to skip re-ingested lines."""
    return hashlib.sha256(repr(tuple(record)).encode()).hexdigest()


class Store:
    """A SQLite database of requests.

    Use it as a context manager: the changes are committed when the block
    ends without an exception and rolled back otherwise.
    """

    def __init__(self, path):
        self.path = path
        self._connection = None

    def __enter__(self):
        self._connection = sqlite3.connect(self.path)
        self._connection.executescript(SCHEMA)
        return self

    def __exit__(self, exc_type, exc, traceback):
        try:
            if exc_type is None:
                self._connection.commit()
            else:
                self._connection.rollback()
        finally:
            self._connection.close()
            self._connection = None

    def ingest(self, records):
        """Add *records*, skipping those already stored, as a new run."""
        run = uuid.uuid4().hex
        created = datetime.datetime.now(datetime.timezone.utc).isoformat()
        connection = self._connection
        connection.execute("INSERT INTO runs VALUES (?, ?, 0)", (run, created))
        inserted = duplicates = 0
        for record in records:
            values = record._replace(time=record.time.isoformat())
            cursor = connection.execute(
                _INSERT, (record_digest(record), run, *values))
            if cursor.rowcount:
                inserted += 1
            else:
                duplicates += 1
        connection.execute("UPDATE runs SET inserted = ? WHERE id = ?",
                           (inserted, run))
        logger.info("run %s: %d requests added, %d already stored",
                    run, inserted, duplicates)
        return IngestResult(run, inserted, duplicates)

    def query(self, sql, parameters=()):
        """Return the column names and the rows of an SQL query."""
        cursor = self._connection.execute(sql, parameters)
        columns = [column[0] for column in cursor.description or ()]
        return columns, cursor.fetchall()
