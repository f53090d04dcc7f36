"""Archives holding a CSV export and a manifest of checksums."""

import hashlib
import pathlib
import tarfile
import tempfile
import zipfile

from .tabular import write_csv

MEMBER = "requests.csv"
MANIFEST = "SHA256SUMS"


def _stage(records, directory):
    """Write the archive members into *directory*; return the record count."""
    count = write_csv(records, directory / MEMBER)
    digest = hashlib.sha256((directory / MEMBER).read_bytes()).hexdigest()
    (directory / MANIFEST).write_text(f"{digest}  {MEMBER}\n",
                                      encoding="ascii")
    return count


def write_zip(records, path):
    """Write a ZIP archive of *records* to *path*; return their number."""
    with tempfile.TemporaryDirectory(prefix="logtool-") as tmp:
        staging = pathlib.Path(tmp)
        count = _stage(records, staging)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in (MEMBER, MANIFEST):
                archive.write(staging / name, arcname=name)
    return count


def write_tar(records, path):
    """Write a gzip-compressed tar archive of *records* to *path*.

    Return the number of records written.
    """
    with tempfile.TemporaryDirectory(prefix="logtool-") as tmp:
        staging = pathlib.Path(tmp)
        count = _stage(records, staging)
        with tarfile.open(path, "w:gz") as archive:
            for name in (MEMBER, MANIFEST):
                archive.add(staging / name, arcname=name)
    return count
