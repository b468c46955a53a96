"""Runs a server (LocalStack, moto, S3Proxy, S3Mock) as a child that never outlives the process that started this
supervisor (the test JVM, or a shell script).

Usage: python3 supervise.py --pid-file FILE --log FILE [--netns-forward PORT:INNER_PORT] [--job] [--watch-pid PID]
       -- COMMAND ARGS...

Started by test-support (io.objectcommit.testsupport.SupervisedServer, for LocalStackHost and StoreHost) and by
examples/run-pyspark-example. The server's settings travel in its command line and environment (LocalStack:
GATEWAY_LISTEN=127.0.0.1:PORT, ...; command: PYTHON localstack-loopback.py, which runs localstack.runtime.main).

The server runs in a process group of its own. The group is terminated (SIGTERM, then SIGKILL after a grace
period) when:
  - this supervisor gets SIGTERM, SIGINT or SIGHUP (the JVM's shutdown hook destroys it);
  - the parent process goes away, even by SIGKILL (checked twice a second: the supervisor is re-parented), or,
    with --watch-pid, the process PID does (the build's Maven JVM, for the one LocalStack a whole build shares:
    test-support BuildEndpoint; the test JVM that started the supervisor may exit before the build does).
PR_SET_PDEATHSIG is deliberately not used: it fires when the *thread* that started the supervisor ends, and
test frameworks run tests (and so start servers) in short-lived threads (JUnit 4 timeouts, for one).
The pid of the server's process group leader is written to --pid-file for tests that check the cleanup.

--netns-forward: for servers that bind every interface whatever they are told (Adobe S3Mock's plain-HTTP
connector). The supervisor first listens on 127.0.0.1:PORT, then moves itself into a new network namespace that
has only a loopback interface (unshare(CLONE_NEWNET), needs root or unprivileged user namespaces), starts the
server there (listening on INNER_PORT inside that namespace, unreachable from any network), and forwards each
connection accepted on 127.0.0.1:PORT (a socket that stays in the original namespace) to 127.0.0.1:INNER_PORT.

--job: the command is a job, not a server (a spark-submit of the cluster tests, test-support
SparkStandaloneCluster): the supervisor exits with the command's own exit code (a server's exit 0 is reported as 1)
and, once the command has exited, kills what is left of its process group (a killed driver's Python child).
"""
import argparse
import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time

GRACE_SECONDS = 10
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000


def enter_private_netns():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        uid, gid = os.getuid(), os.getgid()
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNET) failed: run as root or allow user namespaces")
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write("0 %d 1" % uid)
        with open("/proc/self/gid_map", "w") as f:
            f.write("0 %d 1" % gid)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s, how in ((dst, socket.SHUT_WR), (src, socket.SHUT_RD)):
            try:
                s.shutdown(how)
            except OSError:
                pass


def serve_forwarder(listener, inner_port):
    while True:
        client, _ = listener.accept()
        try:
            upstream = socket.create_connection(("127.0.0.1", inner_port), timeout=10)
            upstream.settimeout(None)
        except OSError:
            client.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--netns-forward")
    parser.add_argument("--job", action="store_true")
    parser.add_argument("--watch-pid", type=int)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command and args.command[0] == "--" else args.command
    if not command:
        parser.error("no command")

    parent = os.getppid()
    if parent == 1:  # the parent died before we even started
        return 1
    watched = args.watch_pid

    def watched_gone():
        if watched is None:
            return os.getppid() != parent
        try:
            os.kill(watched, 0)
            return False
        except ProcessLookupError:
            return True
        except PermissionError:
            return False

    log = open(args.log, "ab", buffering=0)
    listener = None
    if args.netns_forward:
        outer, inner = (int(p) for p in args.netns_forward.split(":"))
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", outer))
        listener.listen(128)
        enter_private_netns()
        log.write(("[supervise] listening on 127.0.0.1:%d, forwarding into a private network namespace to"
                   " 127.0.0.1:%d\n" % (outer, inner)).encode())
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
    with open(args.pid_file + ".tmp", "w") as f:
        f.write("%d\n" % child.pid)
    os.replace(args.pid_file + ".tmp", args.pid_file)
    if listener is not None:
        threading.Thread(target=serve_forwarder, args=(listener, inner), daemon=True).start()

    def stop(reason):
        log.write(("\n[supervise] stopping pid %d: %s\n" % (child.pid, reason)).encode())
        for sig, wait in ((signal.SIGTERM, GRACE_SECONDS), (signal.SIGKILL, 5)):
            try:
                os.killpg(child.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and child.poll() is None:
                time.sleep(0.1)
            if child.poll() is not None:
                # the leader is gone; make sure nothing of its group survives it
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                break
        os._exit(0)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, _frame: stop("signal %d" % signum))

    while True:
        code = child.poll()
        if code is not None:
            log.write(("\n[supervise] server exited with code %d\n" % code).encode())
            if args.job:
                try:
                    os.killpg(child.pid, signal.SIGKILL)  # what is left of the job's process group
                except (ProcessLookupError, PermissionError):
                    pass
                return code if code >= 0 else 128 - code
            return code if code else 1
        if watched_gone():
            stop("%s process %d is gone" % ("watched" if watched else "parent", watched or parent))
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
