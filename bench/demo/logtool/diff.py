"""Compare two summaries saved with ``summary --format json``."""

import difflib
import json
import pprint


def load_summary(path):
    """Return the summary stored as JSON in *path*."""
    with open(path, encoding="utf-8") as stream:
        return json.load(stream)


def diff_summaries(old_path, new_path, *, context=3):
    """Return the lines of a unified diff between two saved summaries.

    The summaries are pretty-printed with sorted keys first, so that the
    diff shows which values changed rather than how the files are laid
    out.
    """
    old, new = (pprint.pformat(load_summary(path), width=72).splitlines()
                for path in (old_path, new_path))
    return list(difflib.unified_diff(old, new, old_path, new_path,
                                     n=context, lineterm=""))
