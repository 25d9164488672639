"""Starts a real "factbase serve" for the tests: $FACTBASE_BIN, else one built from the
repository with "go build" (once per test run), on a free loopback port, with a fresh
SQLite database in a temporary directory and keys made by "keys create"."""
import atexit
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # clients/python
REPO = PACKAGE_ROOT.parents[1]
TESTDATA = REPO / "clients" / "testdata"
sys.path.insert(0, str(PACKAGE_ROOT))

_binary = None
_shared = None


def binary():
    """The factbase binary the tests run."""
    global _binary
    if _binary is None:
        _binary = os.environ.get("FACTBASE_BIN")
        if not _binary:
            tmp = tempfile.mkdtemp(prefix="factbase-py-")
            atexit.register(shutil.rmtree, tmp, True)
            _binary = os.path.join(tmp, "factbase")
            print("support: go build -o %s ./cmd/factbase" % _binary, file=sys.stderr)
            subprocess.run(["go", "build", "-o", _binary, "./cmd/factbase"], cwd=str(REPO), check=True)
    return _binary


def new_user():
    return str(uuid.uuid4())


class Server:
    """A running "factbase serve"; extra are more serve flags (the default lifts the rate limit)."""

    def __init__(self, *extra):
        self.dir = tempfile.mkdtemp(prefix="factbase-py-test-")
        env = dict(os.environ, FACTBASE_DB=os.path.join(self.dir, "factbase.db"))
        self.key = self._key(env, "--name", "py-tests")
        self.user_key_user = new_user()
        self.user_key = self._key(env, "--name", "py-tests-user", "--user", self.user_key_user)
        self._log_path = os.path.join(self.dir, "serve.log")
        self._log = open(self._log_path, "wb")
        args = [binary(), "serve", "--addr", "127.0.0.1:0"] + list(extra or ("--rate-limit", "-1"))
        self.proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=self._log,
                                     stdin=subprocess.DEVNULL, text=True)
        self.url = self._listening()

    @staticmethod
    def _key(env, *args):
        run = subprocess.run([binary(), "keys", "create"] + list(args), env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError("factbase keys create failed: " + run.stderr)
        return run.stdout.strip()

    def _listening(self):
        lines = queue.Queue()

        def read():  # reads stdout to its end, so the server never blocks on it
            for line in self.proc.stdout:
                lines.put(line)
            lines.put(None)

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        while True:
            try:
                line = lines.get(timeout=30)
            except queue.Empty:
                line = None
            if line is None:
                self.stop(keep=True)
                with open(self._log_path, encoding="utf-8", errors="replace") as f:
                    tail = "".join(f.readlines()[-20:])
                shutil.rmtree(self.dir, ignore_errors=True)
                raise RuntimeError("factbase serve did not say where it listens; its log:\n" + tail)
            m = re.match(r"factbase: listening on (http://\S+)", line)
            if m:
                return m.group(1)

    def stop(self, keep=False):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(timeout=10)
        self.proc.stdout.close()
        self._log.close()
        if not keep:
            shutil.rmtree(self.dir, ignore_errors=True)


def shared():
    """One server for the whole test run, stopped at exit."""
    global _shared
    if _shared is None:
        _shared = Server()
        atexit.register(_shared.stop)
    return _shared
