"""The twist job of make bench-startup: a twist plugin that does a small job
and stops.

    PYTHONPATH=. twist --log-file=twist.log benchweb --socket web.sock

twist finds this module through twisted.plugins' __path__ (every
twisted/plugins directory on sys.path), builds the service, runs the
reactor: a twisted.web site (a directory listing of docs/, a resource tree, a
template page) listens on a UNIX socket in the current directory, an Agent
client in the same process fetches a few pages through it, the responses are
summed up on stdout and the reactor stops.  No network, and the same output
on every run.
"""
import sys

from twisted.application.service import IServiceMaker, Service
from twisted.plugin import IPlugin
from twisted.python import usage
from zope.interface import implementer


class Options(usage.Options):
    optParameters = [["socket", "s", "web.sock", "the UNIX socket to serve on"]]


PAGES = [b"/", b"/hello?name=lazy", b"/docs/", b"/docs/conf.py", b"/missing"]


class JobService(Service):
    def __init__(self, socket):
        self.socket = socket

    def startService(self):
        from twisted.internet import reactor

        Service.startService(self)
        reactor.callWhenRunning(self.run, reactor)

    def run(self, reactor):
        from twisted.internet.defer import ensureDeferred

        d = ensureDeferred(self.job(reactor))

        def done(result):
            sys.__stdout__.flush()
            reactor.stop()
            return result

        d.addBoth(done)

    async def job(self, reactor):
        from twisted.internet.endpoints import UNIXServerEndpoint
        from twisted.web.client import Agent, readBody
        from twisted.web.resource import Resource
        from twisted.web.server import Site
        from twisted.web.static import File
        from twisted.web.template import Element, XMLString, renderer, renderElement

        class Page(Element):
            loader = XMLString(
                b'<html xmlns:t="http://twistedmatrix.com/ns/twisted.web.template/0.1">'
                b"<body><h1>bench</h1><ul><li t:render='items'><t:slot name='n'/></li></ul>"
                b"</body></html>")

            @renderer
            def items(self, request, tag):
                for n in ("black", "pytest", "twist"):
                    yield tag.clone().fillSlots(n=n)

        class Root(Resource):
            def render_GET(self, request):
                return renderElement(request, Page())

        class Hello(Resource):
            isLeaf = True

            def render_GET(self, request):
                name = request.args.get(b"name", [b"world"])[0]
                return b"hello, " + name + b"\n"

        root = Root()
        root.putChild(b"", root)
        root.putChild(b"hello", Hello())
        root.putChild(b"docs", File("docs"))
        port = await UNIXServerEndpoint(reactor, self.socket).listen(Site(root))
        agent = Agent.usingEndpointFactory(reactor, _Endpoints(reactor, self.socket))
        out = sys.__stdout__
        for path in PAGES:
            response = await agent.request(b"GET", b"http://bench" + path)
            body = await readBody(response)
            ctype = response.headers.getRawHeaders(b"content-type", [b"-"])[0].decode()
            out.write(f"GET {path.decode():20} {response.code} {ctype:26} {len(body):5} bytes\n")
            if path == b"/":
                out.write(body.decode() + "\n")
        await port.stopListening()


class _Endpoints:
    def __init__(self, reactor, socket):
        self.reactor, self.socket = reactor, socket

    def endpointForURI(self, uri):
        from twisted.internet.endpoints import UNIXClientEndpoint

        return UNIXClientEndpoint(self.reactor, self.socket)


@implementer(IServiceMaker, IPlugin)
class JobServiceMaker:
    tapname = "benchweb"
    description = "make bench-startup's twist job: serve and fetch a few pages, then stop"
    options = Options

    def makeService(self, options):
        return JobService(options["socket"])


maker = JobServiceMaker()
