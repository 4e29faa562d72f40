#!/usr/bin/env python3
"""Compares actionblocks-v1's seeded draws with CPython's random.Random, as TAP.

Usage: streams_cpython.py STREAMS_TOOL

The rules (design notes, "Garbage and items"), each from its own
random.Random(text) with seed and indexes in decimal:
  piece i     bag i // 7 = "IOTSZJL" shuffled by "actionblocks-v1:{seed}:{b}"
              (p from 6 down to 1: j = int(random() * (p + 1)), swap), entry i % 7
  hole k      int(random() * 10) of "actionblocks-v1:{seed}:garbage:{k}"
  items p i   "actionblocks-v1:{seed}:items:{p}:{i}": per mino, random() * 100 <
              chance gives it an item, int(random() * sum(weights)) picks which
  odd p i     int(random() * 5) of "actionblocks-v1:{seed}:odd:{p}:{i}"
"""
import random
import subprocess
import sys

R = "actionblocks-v1"


def pieces(seed, i, n):
    out = ""
    for k in range(i, i + n):
        r = random.Random(f"{R}:{seed}:{k // 7}")
        bag = list("IOTSZJL")
        for p in range(6, 0, -1):
            j = int(r.random() * (p + 1))
            bag[p], bag[j] = bag[j], bag[p]
        out += bag[k % 7]
    return out


def hole(seed, k):
    return int(random.Random(f"{R}:{seed}:garbage:{k}").random() * 10)


def items(seed, chance, weights, seat, i):
    r = random.Random(f"{R}:{seed}:items:{seat}:{i}")
    bits = 0
    for k in range(4):
        if not r.random() * 100 < chance:
            continue
        x = int(r.random() * sum(weights))
        item = 0
        while item < 5 and x >= weights[item]:
            x -= weights[item]
            item += 1
        bits |= (item + 1) << (4 * k)
    return bits


def odd(seed, seat, i):
    return int(random.Random(f"{R}:{seed}:odd:{seat}:{i}").random() * 5)


def main():
    tool = sys.argv[1]
    rng = random.Random(20261207)
    top = 2**53 - 1
    seeds = [0, 1, 7, 42, top] + [rng.randrange(2**53) for _ in range(40)]
    queries, wants, names = [], [], []
    for s in seeds:
        queries.append(f"piece {s} 0 21")
        wants.append(pieces(s, 0, 21))
        names.append(f"seed {s}: pieces 0-20")
        queries.append(f"hole {s} 0 30")
        wants.append("".join(str(hole(s, k)) for k in range(30)))
        names.append(f"seed {s}: holes 0-29")
        chance = rng.choice([1, 10, 50, 100])
        weights = [rng.randrange(0, 4) for _ in range(6)]
        if sum(weights) == 0:
            weights[3] = 1
        for seat in range(0, 8, 3):
            for i in (0, 1, 5, 100):
                queries.append(f"items {s} {chance} {' '.join(map(str, weights))} {seat} {i}")
                wants.append(str(items(s, chance, weights, seat, i)))
                names.append(f"seed {s}: items chance {chance} seat {seat} piece {i}")
                queries.append(f"odd {s} {seat} {i}")
                wants.append(str(odd(s, seat, i)))
                names.append(f"seed {s}: odd shape seat {seat} piece {i}")
    out = subprocess.run([tool], input="\n".join(queries) + "\n", capture_output=True,
                         text=True, check=True).stdout.split("\n")
    # One test per seed and kind keeps the plan readable.
    groups = {}
    for q, want, got, name in zip(queries, wants, out, names):
        key = name.split(":")[0] + ": " + q.split()[0]
        good, detail = groups.get(key, (True, ""))
        if got != want and good:
            good, detail = False, f"{q}: got {got} want {want}"
        groups[key] = (good, detail)
    print(f"1..{len(groups)}")
    failed = 0
    for n, (name, (good, detail)) in enumerate(groups.items(), 1):
        print(f"{'ok' if good else 'not ok'} {n} - {name} agrees with CPython")
        if not good:
            failed += 1
            print(f"# {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
