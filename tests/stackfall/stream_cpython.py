#!/usr/bin/env python3
"""Compares the C piece stream with CPython's own random.Random, as TAP.

Usage: stream_cpython.py STREAM_TOOL

For 1000+ seeds spread over 0..2^53-1 (edges included) it asks the C tool for
bags 0-5 and two far bags and computes the same bags here with random.Random
and the descending Fisher-Yates of the Stackcraft v1 rules. It also compares
raw 32-bit outputs and random() doubles for a few strings, past the first
twist of the generator.
"""
import random
import subprocess
import sys

PIECES = "IOTSZJL"


def bag(seed, b):
    r = random.Random(f"stackcraft-v1:{seed}:{b}")
    out = list(PIECES)
    for p in range(6, 0, -1):
        j = int(r.random() * (p + 1))
        out[p], out[j] = out[j], out[p]
    return "".join(out)


def seeds():
    top = 2**53 - 1
    edges = [0, 1, 2, 7, 42, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1,
             10**15, top - 1, top]
    rng = random.Random(20240611)
    spread = [rng.randrange(2**53) for _ in range(700)]
    # Uniform seeds are mostly 16 digits long: add every length too.
    by_bits = [rng.getrandbits(rng.randrange(1, 54)) for _ in range(300)]
    return edges + spread + by_bits


def main():
    tool = sys.argv[1]
    tests = []
    far = [1000, 123456789]
    plan = seeds()
    lines = []
    for s in plan:
        lines.append(f"{s} 0 6\n")
        for b in far:
            lines.append(f"{s} {b} 1\n")
    out = subprocess.run([tool, "bags"], input="".join(lines), capture_output=True,
                         text=True, check=True).stdout.split("\n")
    k = 0
    for s in plan:
        got = out[k].split() + out[k + 1].split() + out[k + 2].split()
        k += 3
        want = [bag(s, b) for b in range(6)] + [bag(s, b) for b in far]
        tests.append((got == want, f"seed {s}: bags 0-5, 1000, 123456789",
                      f"got {got} want {want}"))

    strings = ["", "a", "\u00e9t\u00e9", "stackcraft-v1:0:0",
               "stackcraft-v1:9007199254740991:123456789", "x" * 1000,
               # 64 and 65 key words with the digest: either side of the
               # short keys the C side assembles on its stack.
               "y" * 192, "y" * 193]
    n = 700  # more than 624 outputs: crosses a twist
    for s in strings:
        got = subprocess.run([tool, "random", s, str(n)], capture_output=True,
                             text=True, check=True).stdout.split()
        r = random.Random(s)
        want_u32 = [r.getrandbits(32) for _ in range(n)]
        r = random.Random(s)
        want_dbl = [r.random() for _ in range(n)]
        got_u32 = [int(x) for x in got[:n]]
        got_dbl = [float(x) for x in got[n:]]
        label = repr(s) if len(s) < 50 else f"'x' * {len(s)}"
        tests.append((got_u32 == want_u32, f"Random({label}): {n} getrandbits(32)", ""))
        tests.append((got_dbl == want_dbl, f"Random({label}): {n} random()", ""))

    print(f"1..{len(tests)}")
    failed = 0
    for i, (good, name, detail) in enumerate(tests, 1):
        print(f"{'ok' if good else 'not ok'} {i} - {name}")
        if not good:
            failed += 1
            print(f"# {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
