"""Runs LocalStack's runtime (``python -m localstack.runtime.main``) with its Twisted gateway bound to the host of
GATEWAY_LISTEN (127.0.0.1 for the test harness) instead of every interface.

LocalStack's default gateway server is Twisted, which costs less CPU per S3 request than the Hypercorn gateway
(docs/development.md, "Where CI's time goes"). Its Twisted runtime server
(localstack/runtime/server/twisted.py, 2026.3.0) creates IPv4 endpoints without an interface, so it listens on
0.0.0.0 whatever GATEWAY_LISTEN's host says. Tests talk to 127.0.0.1 only, so this wrapper gives every IPv4
server endpoint that names no interface the listen host, then runs LocalStack's own entry point unchanged.

Usage: GATEWAY_SERVER=twisted GATEWAY_LISTEN=127.0.0.1:PORT python localstack-loopback.py
"""

import os
import runpy
import sys


def listen_host():
    listen = os.environ.get("GATEWAY_LISTEN", "")
    host = listen.split(",")[0].rpartition(":")[0]
    if not host or host in ("0.0.0.0", "::"):
        sys.exit("localstack-loopback.py: GATEWAY_LISTEN must name one host to bind (got %r)" % listen)
    return host


def bind_ipv4_endpoints_to(host):
    from twisted.internet import endpoints

    original_init = endpoints.TCP4ServerEndpoint.__init__

    def init(self, reactor, port, backlog=50, interface=""):
        original_init(self, reactor, port, backlog, interface or host)

    endpoints.TCP4ServerEndpoint.__init__ = init


if __name__ == "__main__":
    bind_ipv4_endpoints_to(listen_host())
    runpy.run_module("localstack.runtime.main", run_name="__main__", alter_sys=True)
