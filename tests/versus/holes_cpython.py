#!/usr/bin/env python3
"""Compares versus_garbage_hole() with CPython's random.Random, as TAP.

Usage: holes_cpython.py HOLES_TOOL

The rule: the hole column of block k of a match on seed is
int(random() * 10) for the first random() of
random.Random(f"versus-v1:{seed}:garbage:{k}"). For edge and random seeds
over 0..2^53-1 it asks the C tool for blocks 0-39 and a few far ones, and
computes the same here; it also checks that the columns are spread over all
ten.
"""
import random
import subprocess
import sys


def hole(seed, k):
    return int(random.Random(f"versus-v1:{seed}:garbage:{k}").random() * 10)


def main():
    tool = sys.argv[1]
    top = 2**53 - 1
    rng = random.Random(20261025)
    seeds = [0, 1, 7, 42, 2**32, top - 1, top] + [rng.randrange(2**53) for _ in range(150)]
    ranges = [(0, 40), (1000, 5), (2**32 - 5, 5)]
    lines = [f"{s} {k} {n}\n" for s in seeds for k, n in ranges]
    out = subprocess.run([tool], input="".join(lines), capture_output=True, text=True,
                         check=True).stdout.split("\n")
    tests = []
    counts = [0] * 10
    i = 0
    for s in seeds:
        good = True
        for k, n in ranges:
            want = "".join(str(hole(s, k + j)) for j in range(n))
            if out[i] != want:
                good = False
                detail = f"blocks {k}..{k + n - 1}: got {out[i]} want {want}"
            for ch in want:
                counts[int(ch)] += 1
            i += 1
        tests.append((good, f"seed {s}: blocks 0-39, 1000-1004, 2^32-5..2^32-1",
                      "" if good else detail))
    total = sum(counts)
    tests.append((min(counts) > total / 10 * 0.8, "every column is a hole about a tenth of the time",
                  f"counts {counts}"))
    print(f"1..{len(tests)}")
    failed = 0
    for n, (good, name, detail) in enumerate(tests, 1):
        print(f"{'ok' if good else 'not ok'} {n} - {name}")
        if not good:
            failed += 1
            print(f"# {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
