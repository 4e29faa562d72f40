#!/usr/bin/env python3
"""Runs a store test program against a throwaway PostgreSQL cluster.

usage: with_pg.py PROGRAM [ARGS...]

Starts a cluster (tests/e2e/pgtest.py), creates an empty database, runs
PROGRAM with ARCADED_TEST_DB set to its URL, passes the program's TAP
output through and exits with its status. A cluster that does not start
is a failure (one failing TAP line), never a skip.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e'))
import pgtest  # noqa: E402


def main():
    try:
        cluster = pgtest.Cluster()
    except RuntimeError as e:
        print('not ok 1 - a throwaway PostgreSQL cluster starts: %s' % str(e).replace('\n', ' '))
        print('1..1')
        sys.exit(1)
    try:
        env = dict(os.environ, ARCADED_TEST_DB=cluster.create_db('unit'))
        rc = subprocess.run(sys.argv[1:], env=env).returncode
    finally:
        cluster.stop()
    sys.exit(rc)


if __name__ == '__main__':
    main()
