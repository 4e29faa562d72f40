"""The README's curl sessions, run exactly as written against a fresh daemon
(and its "Write a bot" session, which runs two starter bots of examples/,
against a daemon with the default rate limits).

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
t.ok({'duskcourt', 'stackfall', 'replay', 'stackcraft', 'hatetris', 'hatetris_classic', 'wells', 'versus', 'bots',
      'mcp'} <= set(blocks),
     'the README has the curl sessions (%s)' % sorted(blocks))


def run(name, d):
    scratch = tempfile.mkdtemp(prefix='arcaded-readme-')
    try:
        os.symlink(os.path.join(root, 'tests'), os.path.join(scratch, 'tests'))
        os.symlink(os.path.join(root, 'examples'), os.path.join(scratch, 'examples'))
        # ./build/server/arcaded, as the quick start builds it.
        os.symlink(os.path.dirname(os.path.dirname(os.environ['ARCADED'])), os.path.join(scratch, 'build'))
        env = dict(os.environ, ARCADED_URL=d.base)
        p = subprocess.run(['bash', '-euo', 'pipefail', '-c', blocks[name]], cwd=scratch, env=env,
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if shutil.which('jq') is None or shutil.which('curl') is None:
    t.ok(False, 'jq and curl are installed (./dev test installs them; a missing tool fails, never skips)')
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

    # Connect an AI agent: the same Duskcourt run, through the MCP tools.
    rc, out, err = run('mcp', d)
    t.eq(rc, 0, 'the MCP session runs without an error')
    lines = out.splitlines()
    t.ok('legal actions: 0x3 0x4 4x0' in lines and 'R . . N    0  1  2  3' in lines,
         'start_run\'s text shows the court, its index grid and the legal actions written short')
    t.ok('{"phase":"done","score":90}' in lines, 'act: two captures and endRun end the run with 90 points')
    t.ok(any(l.startswith('{"status":"finished","final":{"score":90') for l in lines),
         'finish_run answers the final summary')
    t.ok(lines and lines[-1] == '{"status":"done","score":90,"moves":3,"certificate":true}',
         'the REST route has the run, done, with its three moves and a certificate')
    if rc != 0:
        t.diag(err[-2000:])

    rc, out, err = run('hatetris', d)
    t.eq(rc, 0, 'the HATETRIS session runs without an error')
    lines = out.splitlines()
    t.ok(lines and lines[0] == '{"current":"S","depth":1,"lines":0,"pieces":0}', 'it starts with S')
    end = [json.loads(l) for l in lines if l.startswith('{"status"')]
    # The first known answer (tests/hatetris/data/hatetris_kat.txt) is the naive
    # model's "left" policy at depth 1: the first legal rotation, then column,
    # which is the first entry of options.
    with open(os.path.join(root, 'tests', 'hatetris', 'data', 'hatetris_kat.txt')) as f:
        kat = [l.split('|') for l in f if not l.startswith('#')][0]
    t.ok(end and end[0]['status'] == 'over' and
         (end[0]['end_reason'], end[0]['lines'], end[0]['pieces']) == (kat[5], int(kat[3]), int(kat[4])),
         'it plays the run to its end as the model says (%s)' % (end[0] if end else None))
    t.ok(any(l.startswith('{"lines":') and '"seed":0' in l for l in lines),
         'finish answers the final summary, seed 0')
    t.ok(lines and lines[-1].startswith('valid: hatetris replay, %d actions' % (end[0]['pieces'] if end else -1)),
         'arcaded verify accepts the replay')
    if rc != 0:
        t.diag(err[-2000:])

    # HATETRIS classic: the worked example of docs/rules/hatetris-classic.md
    # (23 keys, the S upright against the right wall on rows 17-19, S again),
    # then the first option's keys to the end; the run's record, imported
    # on the server, must play to the same end.
    rc, out, err = run('hatetris_classic', d)
    t.eq(rc, 0, 'the HATETRIS classic session runs without an error')
    lines = out.splitlines()
    t.ok(lines[:1] == ['{"current":"S","x":3,"y":0,"o":0,"lines":0,"keys":0}'],
         'it starts with S at its spawn, x 3, y 0')
    t.ok(lines[1:5] == ['{"current":"S","pieces":2,"keys":23,"played":{"applied":23,"ignored":0,"locks":1,"lines":0}}',
                        '........#.', '........##', '.........#'],
         'the worked example: 23 keys, one lock on rows 17-19 against the right wall, S again') or t.diag(out[:600])
    end = [json.loads(l) for l in lines if l.startswith('{"status"')]
    record = [json.loads(l) for l in lines if l.startswith('{"keys"')]
    imported = d.post('/api/games/hatetris-classic/replays/import', {'record': record[0]['hex']}) if record else None
    t.ok(end and end[0]['status'] == 'over' and end[0]['end_reason'] == 'top_out' and imported is not None and
         imported.status == 200 and
         (imported.json['lines'], imported.json['pieces'], imported.json['end_reason']) ==
         (end[0]['lines'], end[0]['pieces'], end[0]['end_reason']),
         'it plays to a top out (%s), and the run\'s record, imported, plays to the same end' %
         (end[0] if end else None)) or t.diag(imported)
    t.ok(lines and lines[-1].startswith('valid: hatetris-classic replay, %d actions' %
                                        (end[0]['pieces'] if end else -1)),
         'arcaded verify accepts the replay, one action a lock')
    if rc != 0:
        t.diag(err[-2000:])

    # Wells: on 4 x 6 the lowest landing is best play, so the row comes in
    # line_in landings, line_in counting down by one each time.
    rc, out, err = run('wells', d)
    t.eq(rc, 0, 'the Wells session runs without an error')
    lines = out.splitlines()
    first = json.loads(lines[0]) if lines and lines[0].startswith('{') else {}
    t.ok(first.get('width') == 4 and first.get('height') == 6 and first.get('line_in') == 3,
         'the 4 x 6 well: a row 3 landings away under best play (%s)' % first)
    steps = [json.loads(l)['line_in'] for l in lines if l.startswith('{"landed"')]
    end = [json.loads(l) for l in lines if l.startswith('{"status"')]
    t.ok(steps == list(range(first.get('line_in') or 0))[::-1] and end and
         end[0] == {'status': 'over', 'end_reason': 'line', 'pieces': len(steps)},
         'line_in counts down %s to a row after as many landings' % steps)
    t.ok(any(l.startswith('{"lines":1,') and '"seed":406' in l for l in lines),
         'finish answers the final summary, seed 406')
    t.ok(lines and lines[-1].startswith('valid: wells replay, %d actions' % len(steps)), 'arcaded verify accepts it')
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

    # The versus session: both seats play the six placements of
    # tests/e2e/test_versus.py, whose boards are worked out there by hand.
    rc, out, err = run('versus', d)
    t.eq(rc, 0, 'the versus session runs without an error')
    lines = out.splitlines()
    t.ok(lines and lines[0].startswith('{"status":"playing","turn":0,"you":1') and
         '"next":["Z","T","L"]' in lines[0] and '"next":null' in lines[0],
         'the second seat starts the match; Bob sees his own preview only')
    t.ok(lines[1:7] == ['{"turn":%d,"resolved":true}' % i for i in range(1, 7)],
         'Bob\'s move resolves each of the six turns')
    t.ok('{"seat":0,"lines":2,"attack":1,"sent":1,"target":1}' in lines and
         '{"seat":1,"lines":2,"attack":1,"sent":1,"target":0}' in lines,
         'turn 6: each double sends one line to the other seat')
    t.ok(lines[-7:-4] == ['J........I', 'JJJZ.J...I', 'GG.GGGGGGG'],
         'turn 7: Bob\'s grey row rises, open at column 2')
    t.ok(any(l.startswith('{"status":"finished","end":"last_standing","seats":[{"place":2,"score":300,'
                          '"lines_sent":1,"lines_received":1},{"place":1') for l in lines),
         'Ann resigns: Bob wins, each sent and received one line')
    t.ok('valid: versus-v1 match replay, 8 turns' in out and
         '{"valid":true,"turns":8,"certificate":true}' in lines,
         'its replay verifies with arcaded verify and on the server, with its certificate')
    if rc != 0:
        t.diag(err[-2000:])
finally:
    d.cleanup()

# "Write a bot": the two starter bots, against a daemon with the default
# rate limits, as a newcomer's ./dev up would have them.
d = Daemon(rate_limits=True)
try:
    rc, out, err = run('bots', d)
    t.eq(rc, 0, 'the "Write a bot" session runs without an error')
    t.ok('rung 3 cleared' in out and re.search(r'game over \((piece_limit|top_out)\)', out) and
         out.count('finished: {') == 2 and out.count('certificate: v4.public.') == 2,
         'the Duskcourt bot clears three courts, the Stackfall bot plays its game to the end; both finish') or \
        t.diag(out[-1500:])
    t.ok('429' not in err and '428' not in err, 'neither meets a rate limit nor misreads a puzzle')
    # The Duskcourt run was played with the key the Stackfall bot printed.
    name = re.search(r'^account (\S+) created', out, re.M)
    dusk = re.search(r'^run (\d+) on seed 7', out, re.M)
    r = d.get('/api/games/duskcourt/runs/%s' % dusk.group(1)) if dusk else None
    t.ok(name and r is not None and r.status == 200 and r.json.get('account') == name.group(1),
         'the Duskcourt run belongs to the account the Stackfall bot created (%s)' %
         (name.group(1) if name else None))
    if rc != 0:
        t.diag(err[-2000:])
finally:
    d.cleanup()
t.done()
