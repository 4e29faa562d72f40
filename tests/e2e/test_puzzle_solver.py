#!/usr/bin/env python3
"""TAP test: an independent reader (puzzle_solver.py) answers agent-check
puzzles produced by the generator, read through the puzzle_dump tool.

Environment:
  PUZZLE_DUMP  path of tests/trust/puzzle_dump (set by meson)
  PUZZLE_SEED  optional: FIRST seed of the random batch (to reproduce a run)
"""

import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import puzzle_solver  # noqa: E402

EXAMPLES = [
    ("|A C|rAB cOLLEc^t/s| t/w|e/Nt^Y ~sI~x[ sHell~S IN THE mooRNINg and "
     "FoRTy ~fIivE sHELLs iN th]E EvenIng, hO[W |manY shelL|s DoES IT "
     "|hAaVvE In |tOTal?", 71),
    ("ThEre Are NINETeEN RoWS oF CCoRAal WiTH sE^v^EN f~ish Iin eaCcH RRow, "
     "HO/W MaANNY fIish [aRE thE/re inN ALL?", 133),
    ("A[ RoBOt PACKKs ]ONe HUndRe^d ]AnDD Foort/Y SsevEN boLts InTO B/OxesS~ "
     "That |HOld sSEVEn bbOlTSS EAch], HOOW MAN]y bOxeS DoESS I^T Fill?", 21),
]

_count = 0
_failed = 0


def check(cond, desc, diag=None):
    global _count, _failed
    _count += 1
    if cond:
        print("ok %d - %s" % (_count, desc))
    else:
        _failed += 1
        print("not ok %d - %s" % (_count, desc))
        for line in (diag or []):
            print("# " + line)
    sys.stdout.flush()


def dump(n, first):
    exe = os.environ.get("PUZZLE_DUMP")
    if not exe:
        print("Bail out! PUZZLE_DUMP is not set")
        sys.exit(1)
    out = subprocess.run([exe, str(n), str(first)], stdout=subprocess.PIPE,
                         check=True, timeout=120).stdout
    puzzles = []
    for line in out.decode("utf-8").splitlines():
        line = line.strip()
        if line:
            puzzles.append(json.loads(line))
    return puzzles


def score(puzzles):
    """Returns (right, list of diagnostic lines for the wrong ones)."""
    right = 0
    wrong = []
    for k, p in enumerate(puzzles):
        try:
            got = puzzle_solver.solve(p["text"])
        except ValueError as e:
            got = "ValueError: %s" % e
        if got == p["answer"]:
            right += 1
        else:
            wrong.append("#%d expected %r, got %r: %s"
                         % (k, p["answer"], got, p["text"]))
    return right, wrong


def main():
    for k, (text, answer) in enumerate(EXAMPLES, 1):
        try:
            got = puzzle_solver.solve(text)
        except ValueError as e:
            got = "ValueError: %s" % e
        check(got == answer, "example %d reads as %d" % (k, answer),
              ["got %r for %s" % (got, text)])

    seed_env = os.environ.get("PUZZLE_SEED")
    first = int(seed_env) if seed_env else random.randrange(0, 2 ** 63)
    print("# random batch: FIRST=%d (rerun with PUZZLE_SEED=%d)"
          % (first, first))
    batch = dump(100, first)
    check(len(batch) == 100, "dump tool gives 100 puzzles",
          ["got %d" % len(batch)])
    check(all(isinstance(p.get("text"), str) and
              isinstance(p.get("answer"), int) and
              not isinstance(p.get("answer"), bool) for p in batch),
          "every puzzle has a text and a whole-number answer")
    texts = [p["text"] for p in batch]
    dupes = sorted({t for t in texts if texts.count(t) > 1})
    check(not dupes, "no two of the 100 puzzles are identical",
          ["duplicate: " + t for t in dupes])
    right, wrong = score(batch)
    print("# random batch: %d/%d right" % (right, len(batch)))
    check(right >= 99, "solver answers >= 99 of 100 fresh puzzles "
          "(FIRST=%d)" % first, wrong)
    if right >= 99:  # a single miss is allowed but worth seeing
        for line in wrong:
            print("# miss " + line)

    fixed = dump(1000, 0)
    right, wrong = score(fixed)
    print("# fixed batch FIRST=0: %d/%d right" % (right, len(fixed)))
    check(len(fixed) == 1000 and right >= 990,
          "solver answers >= 990 of the 1000 puzzles from FIRST=0", wrong)
    if right >= 990:
        for line in wrong:
            print("# miss " + line)

    print("1..%d" % _count)
    return 1 if _failed else 0


if __name__ == "__main__":
    sys.exit(main())
