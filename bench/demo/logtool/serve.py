"""Serve a summary over HTTP: a report page at / and JSON at /summary.json."""

import functools
import html
import http.server
import json
import string

from . import __version__
from .report import format_text

PAGE = string.Template("""\
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>$title</title></head>
<body>
<h1>$title</h1>
<pre>$report</pre>
<p><a href="summary.json">summary.json</a></p>
</body>
</html>
""")


class SummaryHandler(http.server.BaseHTTPRequestHandler):
    """Answer GET requests with the summary given to the constructor."""

    server_version = f"logtool/{__version__}"

    def __init__(self, *args, summary, title, **kwargs):
        self.summary = summary
        self.title = title
        super().__init__(*args, **kwargs)

    def do_GET(self):
        path = self.path.partition("?")[0]
        if path == "/":
            report = format_text(self.summary)
            page = PAGE.substitute(title=html.escape(self.title),
                                   report=html.escape(report))
            self._send(page, "text/html")
        elif path == "/summary.json":
            self._send(json.dumps(self.summary, indent=2), "application/json")
        else:
            self.send_error(404)

    def _send(self, text, content_type):
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", f"{content_type}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(summary, *, title, host="127.0.0.1", port=8000):
    """Serve *summary* on *host* and *port* until interrupted."""
    handler = functools.partial(SummaryHandler, summary=summary, title=title)
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        print(f"serving {title} on http://{host}:{server.server_port}/",
              flush=True)
        server.serve_forever()
