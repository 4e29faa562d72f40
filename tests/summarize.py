#!/usr/bin/env python3
"""Sums meson test logs into the closing line `N passed, N failed`.

Each TAP assertion counts once (a TODO as neither); a skipped assertion or
a skipped test program counts as a failure, since a test whose real part
cannot run must fail, never pass; a test program that failed without a
failing assertion (a crash, a sanitizer report, a timeout) counts as one
more failure. Exit status 1 when anything failed. Each failure is named
again just above the closing line, with the diagnostic lines around it, so
that the tail of a long CI log says which test and which assertion it was,
and why.
"""
import json
import re
import sys

OK = re.compile(r'^ok \d+')
NOT_OK = re.compile(r'^not ok \d+')
DIAG_LINES = 6
DIAG_WIDTH = 400
SKIPPED = re.compile(r'^(ok \d+.*#\s*skip|1\.\.0\s*#\s*skip)', re.I)


def diagnostics(lines, i):
    """The diagnostic lines ('# ...') just above and just below the
    assertion at lines[i], a few and each cut short: what the test said of
    it, so that a CI log's tail shows why and not only what."""
    above = []
    j = i - 1
    while j >= 0 and lines[j].startswith('#') and len(above) < DIAG_LINES:
        above.insert(0, lines[j])
        j -= 1
    below = []
    j = i + 1
    while j < len(lines) and lines[j].startswith('#') and len(below) < DIAG_LINES:
        below.append(lines[j])
        j += 1
    return [d[:DIAG_WIDTH] for d in above + below]


def main(paths):
    passed = failed = 0
    named = []
    for path in paths:
        try:
            f = open(path)
        except OSError:
            print('summarize: no test log at %s' % path)
            failed += 1
            continue
        with f:
            for line in f:
                entry = json.loads(line)
                p = n = 0
                lines = (entry.get('stdout') or '').splitlines()
                for i, out in enumerate(lines):
                    if '# TODO' in out:
                        continue
                    if NOT_OK.match(out) or SKIPPED.match(out):
                        n += 1
                        named.append('%s (%s): %s' % (entry.get('name'), path, out.strip()))
                        named.extend('  ' + d for d in diagnostics(lines, i))
                    elif OK.match(out):
                        p += 1
                passed += p
                failed += n
                if entry.get('result') not in ('OK', 'EXPECTEDFAIL') and n == 0:
                    named.append('%s (%s): ended %s' % (entry.get('name'), path, entry.get('result')))
                    failed += 1
    for line in named:
        print('summarize: %s%s' % ('' if line.startswith('  ') else 'failed: ', line))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
