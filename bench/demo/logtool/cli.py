"""Command line interface: ``python -m logtool COMMAND ...``."""

import argparse
import enum
import fractions
import json
import locale
import logging
import os
import pdb
import sys

from . import __version__, config, diff, follow, notify, parallel, report
from . import selftest, serve
from .db import Store
from .export import export_records
from .fmt import render_table
from .net import fetch, list_logs
from .parse import LogReader


class ExitStatus(enum.IntEnum):
    """Exit statuses of the logtool command."""

    OK = 0
    FAILURE = 1
    INTERRUPTED = 130


#: Environment variable holding the secret that signs webhook requests.
WEBHOOK_SECRET_VARIABLE = "LOGTOOL_WEBHOOK_SECRET"


def _ratio(text):
    """Parse a sampling ratio such as ``1/10`` or ``0.25`` (argparse type)."""
    try:
        ratio = fractions.Fraction(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < ratio <= 1:
        raise argparse.ArgumentTypeError(f"not between 0 and 1: {text}")
    return ratio


def read(args):
    """Return the records of the files named in *args* and the reject count.

    Files are parsed in parallel when ``--jobs`` asks for it.
    """
    if args.jobs > 1 and len(args.files) > 1:
        records, rejected = parallel.read_files(
            args.files, jobs=args.jobs, strict=args.strict)
    else:
        reader = LogReader(args.files, strict=args.strict)
        records = list(reader)
        rejected = reader.rejected
    if args.sample is not None:
        records = list(report.sample(records, args.sample))
    return records, rejected


def summary_of(args):
    """Return the summary of the files named in *args*."""
    records, rejected = read(args)
    summary = report.summarize(records, top=args.top, clients=args.clients,
                               histogram=args.histogram)
    summary["rejected_lines"] = rejected
    return summary


def cmd_summary(args):
    """Print a summary of the logs."""
    summary = summary_of(args)
    if args.format == "json":
        print(json.dumps(summary, indent=2))
    else:
        print(report.format_text(summary), end="")
    return ExitStatus.OK


def cmd_export(args):
    """Convert the logs to another format."""
    records, _ = read(args)
    count = export_records(records, args.output)
    print(f"{args.output}: {count:,} requests written")
    return ExitStatus.OK


def cmd_ingest(args):
    """Add the logs to a SQLite database."""
    records, _ = read(args)
    with Store(args.database) as store:
        result = store.ingest(records)
    print(f"{args.database}: {result.inserted:,} requests added, "
          f"{result.duplicates:,} already present (run {result.run})")
    return ExitStatus.OK


def cmd_query(args):
    """Run an SQL query on a database made by the ingest command."""
    with Store(args.database) as store:
        columns, rows = store.query(args.sql)
    for line in render_table(columns, rows, align="l" * len(columns)):
        print(line)
    return ExitStatus.OK


def cmd_fetch(args):
    """Download logs, or list those of a remote directory."""
    settings = config.load_config(args.config)["fetch"]
    options = {"timeout": args.timeout or settings["timeout"],
               "verify": settings["verify_tls"] and not args.insecure}
    if args.list:
        for url in list_logs(args.url, **options):
            print(url)
    else:
        print(fetch(args.url, args.output, **options))
    return ExitStatus.OK


def cmd_diff(args):
    """Compare two summaries saved as JSON."""
    lines = diff.diff_summaries(args.old, args.new, context=args.context)
    for line in lines:
        print(line)
    return ExitStatus.FAILURE if lines else ExitStatus.OK


def cmd_notify(args):
    """Send a summary by e-mail, to a webhook or to an XML-RPC server."""
    if not (args.mail_to or args.webhook or args.xmlrpc):
        args.parser.error(
            "give at least one of --mail-to, --webhook and --xmlrpc")
    summary = summary_of(args)
    if args.mail_to:
        settings = config.load_config(args.config)["mail"]
        message = notify.build_message(
            report.format_text(summary), subject=args.subject,
            recipients=args.mail_to, sender=settings["sender"])
        notify.send_mail(message, settings)
    if args.webhook:
        secret = os.environ.get(WEBHOOK_SECRET_VARIABLE)
        notify.post_webhook(summary, args.webhook, secret=secret)
    if args.xmlrpc:
        notify.push_xmlrpc(summary, args.xmlrpc)
    return ExitStatus.OK


def cmd_follow(args):
    """Print live counts of the requests appended to a log."""
    if (args.file is None) == (args.command is None):
        args.parser.error("give either a FILE or --command")
    follow.follow(args.file, command=args.command, interval=args.interval)
    return ExitStatus.OK


def cmd_serve(args):
    """Serve a summary of the logs over HTTP."""
    serve.serve(summary_of(args), title=", ".join(args.files),
                host=args.host, port=args.port)
    return ExitStatus.OK


def cmd_selftest(args):
    """Run the built-in tests."""
    return ExitStatus(selftest.run(verbosity=1 + args.verbose))


def _add_input_arguments(parser):
    """Add the arguments that select and read log files."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="access log, possibly compressed; - for stdin")
    parser.add_argument("--strict", action="store_true",
                        help="stop at the first malformed line")
    parser.add_argument("--sample", type=_ratio, metavar="RATIO",
                        help="only use this fraction of the requests, "
                             "e.g. 1/10")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="parse the files in this many processes")


def _add_summary_arguments(parser):
    """Add the arguments that shape a summary."""
    _add_input_arguments(parser)
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="length of the top lists (default: %(default)s)")
    parser.add_argument("--clients", choices=("address", "network"),
                        default="address",
                        help="count clients by address or by network")
    parser.add_argument("--histogram", choices=("hour", "weekday"),
                        default="hour", help="histogram of the requests")


def build_parser():
    """Return the argument parser of the logtool command."""
    parser = argparse.ArgumentParser(
        prog="logtool",
        description="Summarise, convert and ship web server access logs.")
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="log what is done; twice for debugging output")
    parser.add_argument("--config", metavar="FILE",
                        help="configuration file (default: "
                             "~/.config/logtool/config.toml)")
    parser.add_argument("--locale", metavar="NAME",
                        help="locale for names of days (default: C)")
    parser.add_argument("--pdb", action="store_true",
                        help="start the debugger when an error occurs")
    commands = parser.add_subparsers(title="commands", required=True,
                                     metavar="COMMAND")

    def add_command(name, function):
        command = commands.add_parser(name, help=function.__doc__,
                                      description=function.__doc__)
        command.set_defaults(function=function, parser=command)
        return command

    command = add_command("summary", cmd_summary)
    _add_summary_arguments(command)
    command.add_argument("--format", choices=("text", "json"),
                         default="text", help="output format")

    command = add_command("export", cmd_export)
    _add_input_arguments(command)
    command.add_argument("-o", "--output", required=True,
                         help="output file: .csv, .jsonl, .xml, .zip "
                              "or .tar.gz")

    command = add_command("ingest", cmd_ingest)
    _add_input_arguments(command)
    command.add_argument("-d", "--database", required=True,
                         help="SQLite database, created if needed")

    command = add_command("query", cmd_query)
    command.add_argument("database", help="database made by ingest")
    command.add_argument("sql", help="SQL query, e.g. 'SELECT count(*) "
                                     "FROM requests'")

    command = add_command("fetch", cmd_fetch)
    command.add_argument("url", help="http, https or ftp URL")
    command.add_argument("-o", "--output", help="file to write")
    command.add_argument("--list", action="store_true",
                         help="list the logs linked from the page at URL")
    command.add_argument("--timeout", type=float,
                         help="network timeout in seconds")
    command.add_argument("-k", "--insecure", action="store_true",
                         help="accept any TLS certificate")

    command = add_command("diff", cmd_diff)
    command.add_argument("old", help="summary saved with --format json")
    command.add_argument("new", help="summary to compare with OLD")
    command.add_argument("-U", "--context", type=int, default=3,
                         help="lines of context (default: %(default)s)")

    command = add_command("notify", cmd_notify)
    _add_summary_arguments(command)
    command.add_argument("--mail-to", action="append", metavar="ADDRESS",
                         help="mail the report to ADDRESS (repeatable)")
    command.add_argument("--subject", default="Access log report",
                         help="subject of the mail")
    command.add_argument("--webhook", metavar="URL",
                         help="POST the summary as JSON, signed with "
                              f"${WEBHOOK_SECRET_VARIABLE} if set")
    command.add_argument("--xmlrpc", metavar="URL",
                         help="submit the summary to an XML-RPC server")

    command = add_command("follow", cmd_follow)
    command.add_argument("file", nargs="?", help="log file to follow")
    command.add_argument("--command", help="follow the output of a command "
                                           "instead, e.g. 'tail -F x.log'")
    command.add_argument("--interval", type=float, default=5.0,
                         help="seconds between reports (default: "
                              "%(default)s)")

    command = add_command("serve", cmd_serve)
    _add_summary_arguments(command)
    command.add_argument("--host", default="127.0.0.1",
                         help="address to listen on (default: %(default)s)")
    command.add_argument("--port", type=int, default=8000,
                         help="port to listen on, 0 for any "
                              "(default: %(default)s)")

    add_command("selftest", cmd_selftest)
    return parser


def main(argv=None):
    """Run the logtool command with *argv* and return its exit status."""
    args = build_parser().parse_args(argv)
    if args.verbose:
        logging.basicConfig(
            level=logging.DEBUG if args.verbose > 1 else logging.INFO,
            format="%(name)s: %(levelname)s: %(message)s")
    if args.locale:
        locale.setlocale(locale.LC_ALL, args.locale)
    try:
        return args.function(args)
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        # The reader of the output went away, as "| head" does.  Send what
        # is still buffered to the void, lest flushing it at exit fails.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitStatus.FAILURE
    except Exception as exc:
        if args.pdb:
            pdb.post_mortem(exc.__traceback__)
        if not isinstance(exc, (OSError, ValueError)):
            raise
        print(f"logtool: error: {exc}", file=sys.stderr)
        return ExitStatus.FAILURE
