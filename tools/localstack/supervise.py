"""Runs LocalStack (host mode) as a child that never outlives the process that started this supervisor.

Usage: python supervise.py --pid-file FILE --log FILE

Started by the JVM (test-support: io.objectcommit.testsupport.LocalStackHost) with the interpreter of the
provisioned virtualenv and LocalStack's settings in the environment (GATEWAY_LISTEN=127.0.0.1:PORT, ...).

LocalStack runs in a process group of its own. The group is terminated (SIGTERM, then SIGKILL after a grace
period) when:
  - this supervisor gets SIGTERM, SIGINT or SIGHUP (the JVM's shutdown hook destroys it);
  - the parent process goes away, even by SIGKILL (checked twice a second: the supervisor is re-parented).
PR_SET_PDEATHSIG is deliberately not used: it fires when the *thread* that started the supervisor ends, and
test frameworks run tests (and so start LocalStack) in short-lived threads (JUnit 4 timeouts, for one).
The pid of LocalStack's process group leader is written to --pid-file for tests that check the cleanup.
"""
import argparse
import os
import signal
import subprocess
import sys
import time

GRACE_SECONDS = 10


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid-file", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()

    parent = os.getppid()
    if parent == 1:  # the JVM died before we even started
        return 1

    log = open(args.log, "ab", buffering=0)
    child = subprocess.Popen(
        [sys.executable, "-m", "localstack.runtime.main"],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    with open(args.pid_file + ".tmp", "w") as f:
        f.write("%d\n" % child.pid)
    os.replace(args.pid_file + ".tmp", args.pid_file)

    def stop(reason):
        log.write(("\n[supervise] stopping LocalStack (pid %d): %s\n" % (child.pid, reason)).encode())
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
        sys.exit(0)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, _frame: stop("signal %d" % signum))

    while True:
        code = child.poll()
        if code is not None:
            log.write(("\n[supervise] LocalStack exited with code %d\n" % code).encode())
            return code if code else 1
        if os.getppid() != parent:
            stop("parent process %d is gone" % parent)
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
