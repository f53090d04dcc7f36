"""Write records to files; the format follows from the file name.

======================  ==============================================
Suffix                  Format
======================  ==============================================
``.csv``                CSV with a header row
``.jsonl``              one JSON object per line
``.xml``                an XML document, one element per request
``.zip``                ZIP archive of the CSV file and a manifest
``.tar.gz``, ``.tgz``   gzip-compressed tar archive, same contents
======================  ==============================================
"""

from .archive import write_tar, write_zip
from .markup import write_xml
from .tabular import write_csv, write_jsonl

WRITERS = {
    ".csv": write_csv,
    ".jsonl": write_jsonl,
    ".xml": write_xml,
    ".zip": write_zip,
    ".tar.gz": write_tar,
    ".tgz": write_tar,
}


def export_records(records, path):
    """Write *records* to *path* and return how many were written.

    Raise ValueError if the suffix of *path* is not one of WRITERS.
    """
    for suffix, writer in WRITERS.items():
        if path.endswith(suffix):
            return writer(records, path)
    known = ", ".join(WRITERS)
    raise ValueError(f"{path}: unknown export format (known: {known})")
