#!/usr/bin/env python3
"""arcaded-solve end to end, as TAP: solve small wells, write their strategies,
check them back with --check, and have --check refuse broken files.

Usage: test_solve_cli.py ARCADED_SOLVE

The winners expected are the seed's table's (data/seed_table.txt): 4 x 5 the
player, 4 x 4 and 6 x 5 the supplier.
"""
import os
import subprocess
import sys
import tempfile

results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def run(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def decisions(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("winner ")][0] + 1
    end = [i for i, l in enumerate(lines) if l.startswith("end ")][0]
    return lines, head, end


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for w, h, extra, winner in ((4, 5, [], "player"), (4, 4, [], "supplier"),
                                    (6, 5, ["--drop-only"], "supplier")):
            path = os.path.join(tmp, f"s{w}x{h}.txt")
            rc, out, err = run(exe, str(w), str(h), *extra, "--memory", "16M", "--strategy", path)
            ok(rc == 0 and f"winner: {winner}\n" in out,
               f"{w} x {h} {' '.join(extra)}: exit 0, the {winner} wins", out + err)
            ok("positions searched: " in out and "table: " in out and "time: " in out,
               f"{w} x {h}: positions, table and time are printed", out)
            rc, out, err = run(exe, "--check", path)
            ok(rc == 0 and out.startswith("strategy holds:") and f"the {winner} wins" in out,
               f"{w} x {h}: --check accepts the strategy it wrote", out + err)

        path = os.path.join(tmp, "s4x5.txt")
        lines, head, end = decisions(path)
        ok(end - head > 7, "4 x 5: the strategy file has decisions", str(end - head))
        fields = lines[head].split()
        ok(len(fields) == 5, "a player decision is WELL PIECE ROT COL ROW", lines[head])

        # a landing lifted one row: the piece would float, not lock
        broken = list(lines)
        f = broken[head + 3].split()
        f[4] = str(int(f[4]) - 1)
        broken[head + 3] = " ".join(f)
        bad = os.path.join(tmp, "lifted.txt")
        write(bad, broken)
        rc, out, err = run(exe, "--check", bad)
        ok(rc == 1 and out.startswith("strategy refused:") and "not a landing" in out,
           "--check refuses a landing lifted one row", out + err)

        # a decision taken out (the end count fixed to match)
        broken = lines[:head + 2] + lines[head + 3:]
        broken = [l if not l.startswith("end ") else f"end {end - head - 1}" for l in broken]
        bad = os.path.join(tmp, "missing.txt")
        write(bad, broken)
        rc, out, err = run(exe, "--check", bad)
        ok(rc == 1 and "strategy refused:" in out, "--check refuses a strategy missing a decision",
           out + err)

        # truncated: no end line
        bad = os.path.join(tmp, "truncated.txt")
        write(bad, lines[:end])
        rc, out, err = run(exe, "--check", bad)
        ok(rc == 1 and "truncated" in err, "--check refuses a file with no end line", out + err)

        # the wrong winner claimed
        bad = os.path.join(tmp, "winner.txt")
        write(bad, [l if l != "winner player" else "winner supplier" for l in lines])
        rc, out, err = run(exe, "--check", bad)
        ok(rc == 1, "--check refuses the player's strategy claimed for the supplier", out + err)

        rc, out, err = run(exe, "6", "6", "--memory", "4K", "--quiet")
        ok(rc == 3 and "winner: unknown: memory" in out, "a 4 KiB table: unknown: memory, exit 3",
           out + err)
        rc, out, err = run(exe, "6", "6", "--budget", "50", "--quiet")
        ok(rc == 3 and "winner: unknown: budget" in out, "a budget of 50: unknown: budget, exit 3",
           out + err)
        rc, out, err = run(exe, "3", "5")
        ok(rc == 2 and "usage" in err, "width 3: usage, exit 2", out + err)

    print(f"1..{len(results)}")
    for i, (good, name, detail) in enumerate(results, 1):
        print(f"{'ok' if good else 'not ok'} {i} - {name}")
        if not good and detail:
            for l in detail.splitlines()[:10]:
                print(f"# {l}")
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
