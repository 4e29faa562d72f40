"""The starter bots of examples/, each run as a bot author would run it:
a subprocess against the real daemon with the shipped default rate limits
(rate_limits=True passes no --rate-limit, so RATELIMIT_DEFAULTS apply), to
the end of its game. Afterwards the plain routes must show what the bot
claims: the run over and finished with its review, a score and a
certificate, its replay verified by the server with that certificate, and
the account it was played for (by --key, ARCADED_KEY or --new-account);
the daemon asks the agent-check puzzle of Wells too, so the shared
module's reader answers it on a token route.
For versus: two unmodified copies started side by side meet in the
quick-match queue, items on, and play their match to the end; a match made
with --create and taken with --join, whose id the creator prints while it
waits (so its output must reach a pipe at once); ActionBlocks on the turn
clock, a short match played by keys and ended by a resignation. Every
match must finish with places, a certificate and a replay that verifies.
The TypeScript starter is built as its header says (its client's types
generated from the served contract, `tsc --strict`) and played too.
A bot that met a rate limit (429) or misread a puzzle (428) says so on
stderr, which fails the test. Last, a bot with a bad key, or no daemon to
talk to, exits 1 with a message naming the problem.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from harness import Daemon, Tap

t = Tap()
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'examples')


def env_for(url, key=None):
    env = {k: v for k, v in os.environ.items() if k != 'ARCADED_KEY'}
    env['ARCADED_URL'] = url
    if key:
        env['ARCADED_KEY'] = key
    return env


def bot(name, *args, url=None, key=None, timeout=240):
    """Runs one bot to its end: (exit status, stdout, stderr, seconds)."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)] + list(args), env=env_for(url, key),
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def start(name, *args, url=None, key=None):
    return subprocess.Popen([sys.executable, os.path.join(EXAMPLES, name)] + list(args), env=env_for(url, key),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def match_line(p):
    """What the bot printed up to its 'match ID, seat N' line, read while it
    plays, and the match id."""
    seen = ''
    for line in iter(p.stdout.readline, ''):
        seen += line
        m = re.match(r'match (\d+), seat \d', line)
        if m:
            return seen, m.group(1)
    return seen, None


def finish(p, timeout=240):
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return out, err


def run_id(out):
    m = re.search(r'^run (\d+)', out, re.M)
    return m.group(1) if m else None


def check_run(d, game, out, err, rc, secs, what, account=None):
    """The bot's run, read back over the plain routes."""
    t.ok(rc == 0, '%s: exits 0 (%.1f s)' % (what, secs)) or t.diag(out + err)
    t.ok('429' not in err and '428' not in err, '%s: met no rate limit and read every puzzle' % what) or \
        t.diag(err)
    rid = run_id(out)
    r = d.get('/api/games/%s/runs/%s' % (game, rid)) if rid else None
    run = r.json if r is not None and r.status == 200 else {}
    t.ok(run.get('over') is True and run.get('finishedAt') and isinstance(run.get('score'), int) and
         (run.get('review') or {}).get('rating') is not None,
         '%s: the run is over and finished, with its score (%s) and review' % (what, run.get('score'))) or \
        t.diag(repr(run)[:600])
    cert = run.get('certificate') or ''
    t.ok(cert.startswith('v4.public.'), '%s: the run has a result certificate' % what)
    v = d.post('/api/games/%s/replays/verify' % game, {'replay': run.get('replay'), 'certificate': cert})
    t.ok(v.status == 200 and v.json.get('valid') is True and (v.json.get('certificate') or {}).get('valid'),
         '%s: the server replays it to the same result, and the certificate names that replay' % what) or \
        t.diag(v.body[:400])
    if account:
        t.eq(run.get('account'), account, '%s: the run belongs to the account of its key' % what)
    return run


def check_match(d, mid, outs, what):
    """The match, read back: finished with places, a certificate and a replay that verifies."""
    view = d.get('/api/matches/%s' % mid).json if mid else {}
    seats = view.get('seats') or []
    places = sorted(s.get('place') or 0 for s in seats)
    t.ok(view.get('status') == 'finished' and view.get('end') in ('last_standing', 'all_out', 'turn_cap') and
         len(seats) == 2 and places[0] == 1 and all(places),
         '%s: the match ended (%s after %s turns) with places %s' % (what, view.get('end'), view.get('turn'), places))
    r = d.get('/api/matches/%s/replay' % mid) if mid else None
    v = d.post('/api/matches/replays/verify', {'replay': r.json['replay'], 'certificate': r.json['certificate']}) \
        if r is not None and r.status == 200 else None
    t.ok(v is not None and v.status == 200 and v.json.get('valid') is True and
         v.json['certificate'].get('valid') is True,
         '%s: the match has a certificate, and its replay verifies with it' % what)
    t.ok(all('match over after %s turns' % view.get('turn') in out for out in outs),
         '%s: both bots report the same end as the server' % what)
    return view, (r.json['replay'] if r is not None and r.status == 200 else {})


# The agent check on for Wells too (it is on for Stackfall by default), so
# the shared module's puzzle reader serves a token-route game as well.
d = Daemon(['--agent-check', 'wells=on'], rate_limits=True)
try:
    url = d.base
    # Two accounts of the test's own, whose keys the bots are given.
    ann = d.post('/api/v1/accounts', {'name': 'ann_examples'}).json['agentKey']
    bob = d.post('/api/v1/accounts', {'name': 'bob_examples'}).json['agentKey']

    rc, out, err, secs = bot('stackfall_bot.py', url=url)
    run = check_run(d, 'stackfall', out, err, rc, secs, 'stackfall_bot')
    t.ok(run.get('end_reason') in ('piece_limit', 'top_out') and run.get('account'),
         'stackfall_bot: a keyed run (a new account) played to its end (%s, %s pieces)' %
         (run.get('end_reason'), run.get('pieces')))

    rc, out, err, secs = bot('duskcourt_bot.py', '--seed', '7', '--rungs', '4', '--key', ann, url=url)
    run = check_run(d, 'duskcourt', out, err, rc, secs, 'duskcourt_bot --key', account='ann_examples')
    t.eq((run.get('rung'), run.get('lives'), run.get('status')), (4, 3, 'done'),
         'duskcourt_bot: climbed 4 rungs of seed 7 without losing a life, then ended the run')

    rc, out, err, secs = bot('stackcraft_bot.py', '--cap', '50', '--seed', '42', url=url, key=ann)
    run = check_run(d, 'stackcraft', out, err, rc, secs, 'stackcraft_bot with ARCADED_KEY', account='ann_examples')
    t.ok(run.get('end_reason') in ('capped', 'top_out') and run.get('pieces', 0) > 0 and
         run.get('pieces', 99) <= 50, 'stackcraft_bot: the capped episode played to its end (%s, %s pieces)' %
         (run.get('end_reason'), run.get('pieces')))

    rc, out, err, secs = bot('hatetris_bot.py', url=url, key=ann)
    run = check_run(d, 'hatetris', out, err, rc, secs, 'hatetris_bot', account='ann_examples')
    t.eq(run.get('end_reason'), 'top_out', 'hatetris_bot: played until the supplier won')

    # Wells on the 4 x 6 well, where the player forces a row in 3 landings
    # (line_in, which the bot prints from the server's first answer), with
    # a puzzle to answer on every action and the finish.
    rc, out, err, secs = bot('wells_bot.py', '--width', '4', '--height', '6', '--new-account', 'wells_examples',
                             url=url)
    run = check_run(d, 'wells', out, err, rc, secs, 'wells_bot --new-account', account='wells_examples')
    rules = d.get('/api/games/wells/rules').json or {}
    t.ok(rules.get('agentCheck') is True and rules.get('agent_check'),
         'wells_bot: played with the agent check on (its rules say so and hand out a puzzle)')
    m = re.search(r'a row in (\d+) landings under best play', out)
    t.ok(m and run.get('end_reason') == 'line' and run.get('pieces') == int(m.group(1)) and
         (run.get('replay') or {}).get('seed') == 406,
         'wells_bot: on the 4 x 6 well it completes a row in %s landings, as best play does (%s)' %
         (run.get('pieces'), m.group(1) if m else None)) or t.diag(out)

    rc, out, err, secs = bot('hatetris_classic_bot.py', url=url, key=ann)
    run = check_run(d, 'hatetris-classic', out, err, rc, secs, 'hatetris_classic_bot', account='ann_examples')
    t.ok(run.get('end_reason') == 'top_out' and run.get('pieces', 0) > 0 and
         (run.get('replay') or {}).get('final', {}).get('keys', 0) > run.get('pieces', 0),
         'hatetris_classic_bot: played by keys (%s keys) until a piece locked in the bar (%s pieces, %s lines)' %
         ((run.get('replay') or {}).get('final', {}).get('keys'), run.get('pieces'), run.get('lines'))) or \
        t.diag(repr(run)[:600])

    # The TypeScript starter, as its header says to build it, in a scratch
    # copy of its folder (the PostgreSQL run of this test builds at the same
    # time): its client's types generated from the daemon's served contract,
    # `tsc --strict`, then the bot to the end of its run. Its npm packages
    # come from its package-lock.json (./dev test installs them).
    ts = os.path.join(EXAMPLES, 'typescript')
    scratch = tempfile.mkdtemp(prefix='arcaded-ts-')
    try:
        for name in ('package.json', 'tsconfig.json', 'stackcraft_bot.ts'):
            shutil.copy(os.path.join(ts, name), scratch)
        os.symlink(os.path.join(ts, 'node_modules'), os.path.join(scratch, 'node_modules'))
        bin_ = os.path.join(ts, 'node_modules', '.bin')
        steps = [[os.path.join(bin_, 'openapi-typescript'), url + '/openapi.yaml', '-o', 'arcaded.d.ts'],
                 [os.path.join(bin_, 'tsc'), '--strict', '-p', '.']]
        built = shutil.which('node') is not None and os.path.isdir(bin_)
        for step in steps if built else []:
            p = subprocess.run(step, cwd=scratch, capture_output=True, text=True, timeout=180)
            built = built and p.returncode == 0
            if not built:
                t.diag('%s: %s' % (os.path.basename(step[0]), (p.stdout + p.stderr)[-1500:]))
                break
        t.ok(built, 'typescript/stackcraft_bot.ts: its client generated from GET /openapi.yaml, it compiles '
             'with tsc --strict (node and the locked packages of examples/typescript are installed)')
        # The types are the contract's: an action sent as `command`, which
        # Stackcraft does not take, does not compile.
        src = os.path.join(scratch, 'stackcraft_bot.ts')
        with open(src) as f:
            good = f.read()
        with open(src, 'w') as f:
            f.write(good.replace('{ stateToken: run.stateToken, action }',
                                 '{ stateToken: run.stateToken, command: action }'))
        p = subprocess.run([steps[1][0], '--strict', '--noEmit', '-p', '.'], cwd=scratch, capture_output=True,
                           text=True, timeout=180) if built else None
        t.ok(p is not None and p.returncode != 0 and "'command' does not exist" in p.stdout and
             good.count('{ stateToken: run.stateToken, action }') == 1,
             'typescript/stackcraft_bot.ts: tsc refuses an action sent as `command`, as the contract does') or \
            t.diag(p.stdout[-800:] if p else 'not built')
        with open(src, 'w') as f:
            f.write(good)
        t0 = time.monotonic()
        cmd = ['node', os.path.join(scratch, 'dist', 'stackcraft_bot.js'), '--cap', '50', '--seed', '42']
        p = subprocess.run(cmd, env=env_for(url, ann), capture_output=True, text=True, timeout=120) if built else None
        rc, out, err = (p.returncode, p.stdout, p.stderr) if p else (1, '', 'not built')
        run = check_run(d, 'stackcraft', out, err, rc, time.monotonic() - t0, 'typescript/stackcraft_bot',
                        account='ann_examples')
        t.ok(run.get('end_reason') in ('capped', 'top_out') and 0 < run.get('pieces', 0) <= 50,
             'typescript/stackcraft_bot: the capped episode played to its end (%s, %s pieces)' %
             (run.get('end_reason'), run.get('pieces')))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    # Versus: two copies, the same command, started side by side, meet in
    # the quick-match queue (items on) and play their match to the end.
    t0 = time.monotonic()
    pair = [start('versus_bot.py', url=url), start('versus_bot.py', url=url)]
    heads = [match_line(p) for p in pair]
    ends = [finish(p) for p in pair]
    secs = time.monotonic() - t0
    outs = [h[0] + e[0] for h, e in zip(heads, ends)]
    errs = [e[1] for e in ends]
    t.ok(all(p.returncode == 0 for p in pair) and not any('429' in e for e in errs),
         'versus_bot: two copies started side by side both exit 0 and meet no rate limit (%.1f s)' % secs) or \
        t.diag(''.join(outs + errs)[-3000:])
    mid = heads[0][1]
    t.ok(mid and heads[1][1] == mid and all('(the queue)' in h[0] for h in heads),
         'versus_bot: both found the same match in the queue and printed its id while playing (%s)' % mid)
    view, replay = check_match(d, mid, outs, 'versus_bot (quick)')
    t.ok(view.get('queue') is True and isinstance(view.get('items'), dict) and
         view['items'].get('chance', 0) > 0 and replay.get('items'),
         'versus_bot: a queue match with items on (%s)' % view.get('items'))
    uses = sum(1 for turn in replay.get('turns') or [] for move in turn if (move or '').startswith('use '))
    t.diag('items used in the quick match: %d' % uses)

    # An explicit match: one creates it and prints the id while it waits;
    # a second joins it with that id, then resigns after 5 turns.
    t0 = time.monotonic()
    first = start('versus_bot.py', '--create', '--seed', '7', url=url, key=ann)
    head, mid = match_line(first)
    t.ok(mid is not None and 'seat 0' in head,
         'versus_bot --create: creates a match and prints its id while it waits (%r)' % head.splitlines()[-1:])
    rc2, out2, err2, _ = bot('versus_bot.py', '--join', mid or '0', '--resign-after', '5', url=url, key=bob)
    out1, err1 = finish(first)
    t.ok(first.returncode == 0 and rc2 == 0 and '429' not in err1 + err2,
         'versus_bot --create / --join: both bots exit 0 (%.1f s)' % (time.monotonic() - t0)) or \
        t.diag(head + out1 + err1 + out2 + err2)
    view, replay = check_match(d, mid, [out1, out2], 'versus_bot (create and join)')
    t.ok(not view.get('queue') and replay.get('seed') == 7 and view.get('turn') == 6 and
         [s.get('account') for s in view.get('seats') or []] == ['ann_examples', 'bob_examples'] and
         [s.get('end_reason') for s in view.get('seats') or []][1] == 'resigned',
         'versus_bot --create / --join: seed 7, ann in seat 0, bob joined and resigned on turn 6')

    # ActionBlocks on the turn clock: the same two-shell dance; the joiner
    # resigns after 30 turns, so the match is a short one (played out, two
    # of these bots go on for hundreds of turns).
    t0 = time.monotonic()
    first = start('actionblocks_turns.py', '--seed', '7', url=url)
    head, mid = match_line(first)
    t.ok(mid is not None and 'seat 0' in head,
         'actionblocks_turns: creates a match and prints its id (%r)' % head.splitlines()[-1:])
    rc2, out2, err2, _ = bot('actionblocks_turns.py', '--join', mid or '0', '--resign-after', '30', url=url)
    out1, err1 = finish(first)
    secs = time.monotonic() - t0
    t.ok(first.returncode == 0 and rc2 == 0 and '429' not in err1 + err2,
         'actionblocks_turns: both bots exit 0 and meet no rate limit (%.1f s)' % secs) or \
        t.diag(head + out1 + err1 + out2 + err2)
    view, _ = check_match(d, mid, [out1, out2], 'actionblocks_turns')
    seats = view.get('seats') or []
    t.ok(view.get('rules') == 'actionblocks-v1' and view.get('status') == 'finished' and
         view.get('end') == 'last_standing' and view.get('turn') == 31 and
         [s.get('place') for s in seats] == [1, 2] and seats[1].get('end_reason') == 'resigned' and
         seats[0].get('lines_sent', 0) + seats[0].get('lines', 0) > 0,
         'actionblocks_turns: an actionblocks-v1 match played 30 turns by keys, clearing rows (%s), then the '
         'joiner resigned: %s, places %s' % (seats[0].get('lines') if seats else None, view.get('end'),
                                            [s.get('place') for s in seats]))

    # Errors: a clear message and exit status 1.
    rc, out, err, _ = bot('stackfall_bot.py', '--key', 'arcd_not_a_key', url=url)
    t.ok(rc == 1 and err.startswith('stackfall_bot: ') and '401' in err and len(err.splitlines()) == 1,
         'a bot with a bad agent key exits 1 and says why in one line: %s' % err.strip()[:120])
finally:
    d.cleanup()

# No daemon at the address: the bot says so and exits 1.
rc, out, err, _ = bot('duskcourt_bot.py', url='http://127.0.0.1:9', timeout=60)
t.ok(rc == 1 and err.startswith('duskcourt_bot: ') and 'no answer from' in err and len(err.splitlines()) == 1,
     'a bot with no daemon to talk to exits 1: %s' % err.strip()[:120])

t.done()
