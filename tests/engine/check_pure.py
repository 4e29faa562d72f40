#!/usr/bin/env python3
"""Checks that every engine archive is pure, as TAP.

Usage: check_pure.py NM ARCHIVE [ARCHIVE...]

The archives are all of engine/'s (engine_archives in engine/meson.build:
the shared ones and one a game), so a new game's archive is checked with no
new line. For each archive, every symbol it leaves undefined must be
defined by one of the engine's archives (a game built on the shared board,
versus on Stackfall's points), be on a short allow list (memory and string
helpers, libsodium's SHA-512) or be sanitizer instrumentation; the Glicko-2
archive alone may also call libm. That rules out the allocator, stdio,
clocks, rand and everything else by construction; the forbidden names the
house style lists are also checked one by one.
"""
import os
import subprocess
import sys

# bcmp is memcmp as clang emits it where only equality is asked
# (memcmp(...) != 0 in duskcourt_serial.c): the same pure comparison.
ALLOWED = {"crypto_hash_sha512", "memcpy", "memset", "memmove", "memcmp", "bcmp", "strlen",
           "__stack_chk_fail", "_GLOBAL_OFFSET_TABLE_"}
# Linker and sanitizer symbols are not calls into libc, nor are the
# compiler's own helpers (a popcount where the target has no instruction).
ALLOWED_PREFIXES = ("__asan", "__ubsan", "__sanitizer", "__msan", "__tsan", "__popcount")
# Per archive (by its name): what it alone may call besides. The common
# helpers' refusal formatter (engine_refuse) writes a reason into its
# caller's buffer with vsnprintf: no I/O, no allocation.
ALLOWED_IN = {"engine_glicko2": {"exp", "log", "sqrt", "fabs"},
              "engine_common": {"vsnprintf"}}
FORBIDDEN = ["malloc", "calloc", "realloc", "free", "printf", "fprintf", "puts", "time",
             "clock_gettime", "rand", "srand", "random", "gettimeofday", "fopen", "getenv"]


def symbols(nm, archive):
    out = subprocess.run([nm, archive], capture_output=True, text=True, check=True).stdout
    undefined, defined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCVWtdbr" and parts[1].isupper():
            defined.add(parts[2])
    return undefined, defined


def main():
    nm, archives = sys.argv[1], sys.argv[2:]
    table = {}
    for a in archives:
        name = os.path.basename(a)
        name = name[3:] if name.startswith("lib") else name
        table[name.rsplit(".", 1)[0]] = symbols(nm, a)
    everywhere = set().union(*(d for _, d in table.values())) if table else set()
    tests = [(len(table) >= 2, "the engine's archives are given (%s)" % ", ".join(sorted(table)), "")]
    for name in sorted(table):
        undefined, _ = table[name]
        allowed = ALLOWED | ALLOWED_IN.get(name, set())
        outside = sorted(s for s in undefined - everywhere
                         if s not in allowed and not s.startswith(ALLOWED_PREFIXES))
        tests.append((bool(undefined), f"{name}: has undefined symbols to inspect", ""))
        tests.append((not outside, f"{name}: only allowed symbols come from outside the engine",
                      " ".join(outside)))
        called = sorted(f for f in FORBIDDEN if f in undefined)
        tests.append((not called, f"{name}: calls none of " + ", ".join(FORBIDDEN), " ".join(called)))
    print(f"1..{len(tests)}")
    for i, (good, name, detail) in enumerate(tests, 1):
        print(f"{'ok' if good else 'not ok'} {i} - {name}")
        if not good and detail:
            print(f"# {detail}")
    return 0 if all(t[0] for t in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
