"""test_dev_up.py: ./dev up on a fresh checkout shows its progress until it serves.

The quick start's promise (README.md): `./dev up` on a fresh clone prints a
line at least every 10 s until the daemon serves, names the build it runs
and, once it serves, the address. This test copies the source tree into a
scratch folder, runs `./dev up` there, timestamps every line it writes
(stdout and stderr, as a terminal shows them) and polls `GET /healthz`
until it answers 200. The gaps measured are the start to the first line,
each line to the next, and the last line to the first 200; the largest
must be under 10 s.

The copy is the files git lists (tracked, and untracked ones it does not
ignore), not a `git clone`: a clone would test the last commit, the copy
tests the work tree as it is, uncommitted edits included. In CI, itself a
clean clone, the two are the same files. No build folder comes along, so
the build is from scratch: meson setup, then every step of ninja.

The daemon listens on `127.0.0.1:0` (`./dev up --listen 127.0.0.1:0`: what
follows `up` goes to arcaded after the script's own flags, and a later flag
wins), so the kernel picks a free port at bind time: a port picked here and
held free through minutes of building could be taken by another test's
daemon meanwhile. The port is then read from the line that names the
address, which the promise says must be there anyway. The database is the
copy's data/arcaded.db, in the scratch folder.

Nothing is installed: `./dev test` installed the packages before the suite
ran, so `./dev up`'s check finds them all; a stub `apt-get` first on the
PATH fails loudly if it ever tried.

It builds everything once more (about a minute on two cores alone, two or
three beside the suite's other builds), so it is registered once, in the build without the
sanitizers (tests/e2e/meson.build), which would add nothing to what it
checks.
"""
import http.client
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time

from harness import Tap, copy_source_tree

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAP = 10.0          # seconds: the promise
BOUND = 20 * 60     # seconds: from scratch to serving, or the test fails
SERVING = re.compile(r'serving on (http://127\.0\.0\.1:(\d+))')

t = Tap()


class Output:
    """The lines a process writes, each with the monotonic time it arrived,
    read by a thread so that the test can poll meanwhile."""

    def __init__(self, stream):
        self.lines = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in iter(stream.readline, b''):
            line = raw.decode('utf-8', 'replace').rstrip('\n')
            with self.lock:
                self.lines.append((time.monotonic(), line))

    def snapshot(self):
        with self.lock:
            return list(self.lines)


def healthz(port):
    try:
        c = http.client.HTTPConnection('127.0.0.1', port, timeout=2)
        c.request('GET', '/healthz')
        status = c.getresponse().status
        c.close()
        return status
    except OSError:
        return None


def address(lines):
    for _, line in lines:
        m = SERVING.search(line)
        if m:
            return m.group(1), int(m.group(2))
    return None, None


def show(lines, t0, upto=None):
    """Every line with its time from the start, for the diagnostics."""
    for when, line in lines[:upto]:
        t.diag('%7.1f s  %s' % (when - t0, line))


def stub_apt_get(folder):
    """An apt-get first on the PATH that installs nothing and says why."""
    os.makedirs(folder)
    path = os.path.join(folder, 'apt-get')
    with open(path, 'w') as f:
        f.write('#!/bin/sh\necho "test_dev_up: apt-get $*: refused, the test installs nothing" >&2\nexit 1\n')
    os.chmod(path, stat.S_IRWXU)


def stop(proc):
    """SIGINT to the process group, as Ctrl-C sends it: (exit status or None, seconds)."""
    t1 = time.monotonic()
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    try:
        return proc.wait(15), time.monotonic() - t1
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - t1


def main():
    scratch = tempfile.mkdtemp(prefix='arcaded-dev-up-')
    proc = None
    try:
        tree = os.path.join(scratch, 'src')
        n = copy_source_tree(ROOT, tree)
        t.ok(n > 0 and os.access(os.path.join(tree, 'dev'), os.X_OK) and
             not os.path.exists(os.path.join(tree, 'build')),
             'a fresh copy of the source tree: %d files, ./dev executable, no build/' % n)
        stub_apt_get(os.path.join(scratch, 'bin'))
        # The daemon reads ARCADED_* (an ARCADED_LISTEN would be overridden,
        # others would change it); meson's MALLOC_PERTURB_ would slow every
        # compiler run, and a newcomer's shell has none of these.
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('ARCADED') and k != 'MALLOC_PERTURB_'}
        env['PATH'] = os.path.join(scratch, 'bin') + os.pathsep + env.get('PATH', '')

        t0 = time.monotonic()
        proc = subprocess.Popen(['./dev', 'up', '--listen', '127.0.0.1:0'], cwd=tree, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        out = Output(proc.stdout)
        served = url = None
        while time.monotonic() - t0 < BOUND:
            url, port = address(out.snapshot())
            # Served from the moment the answered request was sent: the
            # daemon logs that very request, and its line may arrive before
            # the answer is read.
            asked = time.monotonic()
            if port is not None and healthz(port) == 200:
                served = asked
                break
            if proc.poll() is not None:
                break
            time.sleep(0.2)
        lines = out.snapshot()
        if not t.ok(served is not None, 'from scratch to serving %s in %s' % (
                url, '%.0f s' % (served - t0) if served else 'no time: %s' % (
                    'it exited %s' % proc.returncode if proc.poll() is not None else
                    'still not serving after %d s' % BOUND))):
            show(lines, t0)
            return
        before = [(w, l) for w, l in lines if w <= served]
        times = [t0] + [w for w, _ in before] + [served]
        gaps = [(times[i + 1] - times[i], i) for i in range(len(times) - 1)]
        gap, at = max(gaps)
        where = ('before the first line' if at == 0 else
                 'after "%s"' % before[at - 1][1])
        t.ok(gap < GAP, 'a line at least every %.0f s: %d lines in %.0f s, the largest gap %.1f s (%s)' % (
            GAP, len(before), served - t0, gap, where))
        text = [l for _, l in lines]
        t.ok(not any(l.startswith('dev: installing') or 'test_dev_up: apt-get' in l for l in text),
             'it installed nothing (every package is there)')
        t.ok(any(l.startswith('dev: configuring build') for l in text) and
             any(re.match(r'dev: building build: \d+ of \d+ steps', l) for l in text),
             'it names the build: meson setup and ninja\'s steps (%s)' % next(
                 (l for l in reversed(text) if l.startswith('dev: building build:')), 'none'))
        # The daemon's migrations log between "dev: starting arcaded" and
        # the bind; the line it prints as it binds, and its log's, name the
        # address: one of them is the last before it answers.
        t.ok(SERVING.search(before[-1][1]), 'the last line before it serves names the address: %s' % before[-1][1])
        # The timeline, passed or not: what the gaps were measured on.
        t.diag('from scratch to serving: %.0f s, %d lines, the largest gap %.1f s' % (
            served - t0, len(before), gap))
        show(lines, t0)

        rc, took = stop(proc)
        t.ok(rc is not None, 'SIGINT to its process group stops it (exit %s, %.1f s)' % (rc, took))
        t.ok(healthz(port) is None, 'and nothing answers on %s any more' % url)
    finally:
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(scratch, ignore_errors=True)


main()
t.done()
