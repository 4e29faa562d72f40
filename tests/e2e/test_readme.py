"""The README's curl sessions, run exactly as written against a fresh daemon.

Each block after a `<!-- readme-test: NAME -->` line is run with bash from
a scratch folder that links the repository's tests/ (the Stackfall session
calls tests/e2e/puzzle_solver.py), with ARCADED_URL pointing at the daemon.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import Daemon, Tap

t = Tap()
root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
with open(os.path.join(root, 'README.md')) as f:
    readme = f.read()
blocks = dict(re.findall(r'<!-- readme-test: (\w+) -->\n```sh\n(.*?)```', readme, re.S))
t.ok({'duskcourt', 'stackfall', 'replay', 'stackcraft'} <= set(blocks),
     'the README has the curl sessions (%s)' % sorted(blocks))


def run(name, d):
    scratch = tempfile.mkdtemp(prefix='arcaded-readme-')
    try:
        os.symlink(os.path.join(root, 'tests'), os.path.join(scratch, 'tests'))
        # ./build/server/arcaded, as the quick start builds it.
        os.symlink(os.path.dirname(os.path.dirname(os.environ['ARCADED'])), os.path.join(scratch, 'build'))
        env = dict(os.environ, ARCADED_URL=d.base)
        p = subprocess.run(['bash', '-euo', 'pipefail', '-c', blocks[name]], cwd=scratch, env=env,
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if shutil.which('jq') is None or shutil.which('curl') is None:
    t.ok(True, '# skip jq or curl is not installed')
    t.done()

d = Daemon()
try:
    rc, out, err = run('duskcourt', d)
    t.eq(rc, 0, 'the Duskcourt session runs without an error')
    lines = out.splitlines()
    t.ok(any(l == '{"phase":"done","score":90}' for l in lines),
         'it clears rung 1 for 90 points and ends the run')
    final = [json.loads(l) for l in lines if l.startswith('{"runId"')]
    t.ok(final and final[0]['final']['phase'] == 'done' and final[0]['final']['score'] == 90,
         'finish answers the final summary')
    t.ok(lines and lines[-1].startswith('v4.public.'), 'and a certificate')
    if rc != 0:
        t.diag(err[-2000:])

    rc, out, err = run('replay', d)
    t.eq(rc, 0, 'the replay session runs without an error')
    t.ok('"rules":"duskcourt-v1","seed":7' in out and '"review":8' in out,
         'it downloads the Duskcourt session\'s run with its review and replay')
    t.ok('valid: duskcourt replay, 3 actions' in out, 'arcaded verify accepts it')
    t.ok('{"valid":true' in out and '"certificate":true}' in out,
         'the server verifies it and its certificate')
    if rc != 0:
        t.diag(err[-2000:])

    rc, out, err = run('stackfall', d)
    t.eq(rc, 0, 'the Stackfall session runs without an error')
    t.ok('{"status":"over","end_reason":"resigned"' in out, 'its batch ends the game with resign')
    t.ok('"final":{' in out and '"status":"over"' in out, 'finish answers the final summary')
    if rc != 0:
        t.diag(err[-2000:])

    # The Stackcraft session's game, played by the rules' Python model
    # (tests/stackcraft/kat_gen.py) with the same choice: the largest y,
    # the first listed among equals.
    sys.path.insert(0, os.path.join(root, 'tests', 'stackcraft'))
    import kat_gen as model
    g = model.Game(42, 12)
    while not g.end:
        g.step(max(g.legal(), key=lambda m: m[3])[0])
    rc, out, err = run('stackcraft', d)
    t.eq(rc, 0, 'the Stackcraft session runs without an error')
    lines = out.splitlines()
    t.ok('"code":"illegal_action"' in out, 'an id that is not listed is refused as illegal_action')
    t.ok(json.dumps({'status': 'over', 'end_reason': 'capped', 'score': g.score, 'lines': g.lines,
                     'pieces': 12}, separators=(',', ':')) in lines,
         'it plays to its cap of 12 pieces, with the model\'s score and lines')
    t.ok(['%s' % ''.join(str(v) if v else '.' for v in row) for row in g.board[16:]] ==
         [l for l in lines if re.fullmatch(r'[.0-7]{10}', l)], 'its bottom rows are the model\'s board')
    t.ok(any(l.startswith('{"score":') and '"cap":12' in l and '"seed":42' in l for l in lines),
         'finish answers the final summary with the cap and seed')
    t.ok('valid: stackcraft replay, 12 actions' in out, 'arcaded verify accepts its replay')
    t.ok(any(l.startswith('{"valid":true,"actions":12') for l in lines), 'and so does the server')
    if rc != 0:
        t.diag(err[-2000:])
finally:
    d.cleanup()
t.done()
