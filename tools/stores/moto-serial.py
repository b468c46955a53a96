#!/usr/bin/env python3
"""moto's server (as moto_server runs it), answering one request at a time.

  moto-serial.py -H 127.0.0.1 -p PORT

Run with the Python of moto's virtualenv. moto 5.2.5 sometimes lets two racing conditional writes of one key both
succeed (docs/stores.md, "Stores"), so the store guarantee check refuses it now and then. The tests that use moto
for something else (its IAM enforcement: test-support MotoIam) run it serialized, so that no race can be lost and
the check passes every time; what they show is about permissions, not atomicity.
"""
import argparse
import os
import signal
import sys
import threading

from werkzeug.serving import run_simple

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-H", "--host", default="127.0.0.1")
    p.add_argument("-p", "--port", type=int, required=True)
    a = p.parse_args()
    os.environ.setdefault("MOTO_PORT", str(a.port))
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))

    app = DomainDispatcherApplication(create_backend_app)
    app.debug = True
    lock = threading.Lock()

    def one_at_a_time(environ, start_response):
        with lock:
            # the whole answer is produced under the lock, body included
            return list(app(environ, start_response))

    run_simple(a.host, a.port, one_at_a_time, threaded=True, use_reloader=False,
               request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
