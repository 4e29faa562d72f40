#!/usr/bin/env python3
"""Checks that engine archives are pure, as TAP.

Usage: check_pure.py NM ARCHIVE [ARCHIVE...] [--allow NAME,NAME...]

Every symbol the archives leave undefined must be defined by one of them, be
on a short allow list (memory and string helpers, libsodium's SHA-512, the
shared engine.c helpers: the refusal formatter, the move sentence appender,
the little-endian fields and the checksum) or be sanitizer
instrumentation. That rules out the allocator, stdio, clocks, rand and
everything else by construction; the forbidden names the house style lists
are also checked one by one. An archive built on another passes both (the
versus engine with Stackfall's). --allow adds names for this call only: the
Glicko-2 archive's libm functions.
"""
import subprocess
import sys

# Linker and sanitizer symbols are not calls into libc.
ALLOWED = {"crypto_hash_sha512", "engine_refuse", "engine_put_le", "engine_get_le", "engine_crc16",
           "engine_crc32", "engine_put_decimal",
           "engine_msg_start", "engine_msg_str", "engine_msg_uint", "engine_msg_char",
           "memcpy", "memset", "memmove", "memcmp", "strlen", "__stack_chk_fail", "_GLOBAL_OFFSET_TABLE_"}
ALLOWED_PREFIXES = ("__asan", "__ubsan", "__sanitizer", "__msan", "__tsan")
FORBIDDEN = ["malloc", "calloc", "realloc", "free", "printf", "fprintf", "puts", "time",
             "clock_gettime", "rand", "srand", "random", "gettimeofday", "fopen", "getenv"]


def symbols(nm, archive, flag):
    out = subprocess.run([nm, flag, archive], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] in ("U",) and flag == "-u":
            names.add(parts[-1])
        elif flag == "--defined-only" and len(parts) == 3:
            names.add(parts[2])
    return names


def main():
    nm, args = sys.argv[1], sys.argv[2:]
    allowed = set(ALLOWED)
    if "--allow" in args:
        i = args.index("--allow")
        allowed |= set(args[i + 1].split(","))
        args = args[:i] + args[i + 2:]
    undefined, defined = set(), set()
    for archive in args:
        undefined |= symbols(nm, archive, "-u")
        defined |= symbols(nm, archive, "--defined-only")
    outside = sorted(s for s in undefined - defined
                     if s not in allowed and not s.startswith(ALLOWED_PREFIXES))
    tests = [(bool(undefined), "the archive has undefined symbols to inspect", "")]
    tests.append((not outside, "only allowed symbols come from outside the archive",
                  " ".join(outside)))
    for name in FORBIDDEN:
        tests.append((name not in undefined, f"no call to {name}", ""))
    print(f"1..{len(tests)}")
    for i, (good, name, detail) in enumerate(tests, 1):
        print(f"{'ok' if good else 'not ok'} {i} - {name}")
        if not good and detail:
            print(f"# {detail}")
    return 0 if all(t[0] for t in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
