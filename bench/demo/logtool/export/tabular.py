"""CSV and JSON Lines export."""

import csv
import json

from ..parse import Record

FIELDS = Record._fields


def record_to_dict(record):
    """Return *record* as a dict of JSON-compatible values."""
    values = record._asdict()
    values["time"] = record.time.isoformat()
    return values


def write_csv(records, path):
    """Write *records* to the CSV file *path*; return their number.

    Missing values are written as empty cells.
    """
    count = 0
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(FIELDS)
        for record in records:
            row = record_to_dict(record)
            writer.writerow(["" if row[field] is None else row[field]
                             for field in FIELDS])
            count += 1
    return count


def write_jsonl(records, path):
    """Write *records* to *path* as JSON Lines; return their number."""
    count = 0
    with open(path, "w", encoding="utf-8") as stream:
        for record in records:
            stream.write(json.dumps(record_to_dict(record)) + "\n")
            count += 1
    return count
