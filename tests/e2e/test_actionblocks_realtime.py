"""ActionBlocks in real time ("clock": "ticks") over loopback, end to end:
two starter bots (examples/actionblocks_realtime.py) play a match to its
end, whose replay verifies over HTTP and with `arcaded verify` and carries
its certificate; gravity at level 1 moves a piece one row every 60 ticks
(within one tick); a grounded piece locks in its 30th grounded tick (0.5
s), and at once after its 15th lock reset (not after 14); a seat whose stream is closed is
out 2 s later (`disconnected`), and the match's result shows 4 s before it
is finished; a daemon restarted while a match plays resumes it from the
seed and the stored inputs, every acknowledged key in it; keys and clocks
refused where they do not belong.

Timing: every assertion about time is on tick numbers the server wrote
(the stream's frames, the keys' answers, the recorded inputs), never on
the test's clock, so a busy machine only makes the test slower. The one
wall-clock check is a lower bound (the result shows at least 3.5 s).

Where the numbers come from: docs/rules/actionblocks.md, "Real time". A
frame's `tick` is the ticks run when it was written: what tick k did shows
in the frame of tick k + 1; a keys answer's `tick` is the tick (0-based)
they were applied at.
"""
import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import time

from harness import Daemon, Tap, verify_cli
from matches import account

t = Tap()
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'examples')
M = '/api/matches'


class Stream:
    """A match's stream read on a thread of its own: frames into a queue."""

    def __init__(self, d, mid, key):
        self.frames = queue.Queue()
        self.conn = http.client.HTTPConnection('127.0.0.1', d.port, timeout=120)
        self.conn.request('GET', '%s/%s/stream' % (M, mid), headers=key or {})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        try:
            for line in self.resp:
                if line.startswith(b'data: '):
                    self.frames.put(json.loads(line[6:]))
        except Exception:  # noqa: BLE001 -- closed by close(): the stream ends
            pass
        self.frames.put(None)

    def until(self, cond, timeout=60):
        """Frames up to and including the first for which cond holds (None
        when the stream ended or timed out first)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                f = self.frames.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                return None
            if f is None:
                return None
            if cond(f):
                return f
        return None

    def latest(self):
        """The tick of the newest frame, once the queue is read empty."""
        tick = 0
        f = self.until(lambda f: True, timeout=5)
        while f is not None:
            tick = f['tick']
            try:
                f = self.frames.get_nowait()
            except queue.Empty:
                break
        return tick

    def close(self):
        self.conn.sock.shutdown(2)
        self.conn.close()


def keys(d, mid, key, text):
    return d.post('%s/%s/keys' % (M, mid), {'keys': text}, headers=key)


def filled(seat):
    """The seat's locked cells on the visible board."""
    return sum(10 - row.count('.') for row in seat['board'])


def piece_rows(s0, seat, timeout=30):
    """The (tick, y) of each frame in which the seat's piece changed row,
    until timeout; None once the piece changed otherwise (locked)."""
    out, last = [], None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        f = s0.until(lambda f: True, timeout=end - time.monotonic())
        if f is None:
            break
        p = f['seats'][seat]['piece']
        if p is None:
            continue
        if last is not None and (p['letter'], p['x'], p['rotation']) != last[1:]:
            break
        if last is None or p['y'] != last[0]:
            out.append((f['tick'], p['y']))
        last = (p['y'], p['letter'], p['x'], p['rotation'])
        if len(out) >= 4:
            break
    return out


def timing(d):
    k0, k1, spy = account(d, 'rt_ann'), account(d, 'rt_bob'), account(d, 'rt_cat')
    r = d.post(M, {'rules': 'actionblocks-v1', 'clock': 'ticks', 'players': 2, 'seed': 11}, headers=k0)
    t.ok(r.status == 201 and r.json.get('clock') == 'ticks' and r.json['status'] == 'lobby',
         'a match created with clock ticks is in its lobby, its view saying clock ticks')
    mid = r.json['match_id']
    t.eq(keys(d, mid, k0, 'L').error_code, 'match_not_started', 'keys in the lobby: 409 match_not_started')
    s0 = Stream(d, mid, k0)
    first = s0.until(lambda f: True, timeout=10)
    t.ok(s0.status == 200 and first is not None and first['phase'] == 'lobby',
         'a stream opened in the lobby gets its lobby frame at once')
    t.eq(d.post('%s/%s/join' % (M, mid), None, headers=k1).status, 200, 'the second seat joins: it starts')
    s1 = Stream(d, mid, k1)
    t.eq(keys(d, mid, spy, 'L').error_code, 'not_a_player', 'keys from an account without a seat: 403')
    bad = keys(d, mid, k0, 'LQ')
    t.ok(bad.status == 422 and bad.error_code == 'invalid_command' and "'Q'" in bad.json['error']['message'],
         'a key that is none: 422 invalid_command naming it (%s)' % bad.json['error']['message'])
    mv = d.post('%s/%s/move' % (M, mid), {'turn': 1, 'command': 'D'}, headers=k0)
    t.eq(mv.error_code, 'wrong_clock', 'a turn move to a real-time match: 409 wrong_clock')

    # Gravity at level 1: nothing sent, the piece falls a row every 60
    # ticks (the gravity table's fixed point makes the first row 61).
    f = s0.until(lambda f: f['phase'] == 'playing' and f['seats'][0]['piece'] is not None)
    t.ok(f is not None and f['tick'] == 181, 'the countdown is ticks 0-179: the pieces spawn at tick 180 '
         '(frame %s)' % (f and f['tick']))
    rows = piece_rows(s0, 0)
    steps = [b[0] - a[0] for a, b in zip(rows, rows[1:])]
    t.ok(len(steps) >= 2 and all(y1 == y0 - 1 for (_, y0), (_, y1) in zip(rows, rows[1:])) and
         all(abs(s - 60) <= 1 for s in steps),
         'level 1: one row down every 60 ticks, within one (%s)' % rows)

    # The lock delay: 19 soft-drop steps ground the piece at the tick the
    # keys name; it locks in its 30th grounded tick, 29 ticks later.
    a = keys(d, mid, k0, 'LLLL' + 'S' * 20)
    t.ok(a.status == 200 and a.json['seat'] == 0 and a.json['keys'] == 24,
         'keys answered 200 with the seat, the tick and how many (%s)' % a.json)
    grounded = a.json['tick']
    f = s0.until(lambda f: filled(f['seats'][0]) > 0)
    lock = f['tick'] - 1 if f else None
    t.ok(lock is not None and lock - grounded == 29,
         'grounded at tick %s, the piece locks at tick %s: 30 grounded ticks, 0.5 s' % (grounded, lock))

    # 15 resets: the next piece grounded, then moved 15 times on the
    # ground (each a reset): it locks in that very tick.
    before = filled(f['seats'][0]) if f else 0
    a = keys(d, mid, k0, 'RRRR' + 'S' * 12)
    c = keys(d, mid, k0, 'S' * 8 + 'LR' * 7 + 'L')
    f = s0.until(lambda f: filled(f['seats'][0]) > before)
    t.ok(a.status == c.status == 200 and f is not None and f['tick'] - 1 == c.json['tick'],
         'the 15th reset on the ground locks the piece at once: keys at tick %s, lock at tick %s' %
         (c.json['tick'] if c.status == 200 else c, f and f['tick'] - 1))

    # 14 resets do not lock at once: the third piece (a J with seed 11,
    # whose step left clears the O) grounded and moved 14 times in one
    # tick locks 29 ticks after it, its timer started again by each move.
    before = filled(f['seats'][0]) if f else 0
    a = keys(d, mid, k0, 'S' * 12)
    c = keys(d, mid, k0, 'S' * 8 + 'LR' * 7)
    f = s0.until(lambda f: filled(f['seats'][0]) > before)
    t.ok(a.status == c.status == 200 and f is not None and f['tick'] - 1 - c.json['tick'] == 29,
         'after 14 resets the lock waits its 0.5 s: keys at tick %s, lock at tick %s' %
         (c.json['tick'] if c.status == 200 else c, f and f['tick'] - 1))

    # A seat whose stream closes is out 2 s (120 ticks) later.
    closed_at = s0.latest()
    s1.close()
    f = s0.until(lambda f: f['phase'] == 'result', timeout=30)
    t.ok(f is not None and f['end'] == 'last_standing' and f['seats'][1]['end_reason'] == 'disconnected' and
         f['seats'][1]['place'] == 2 and f['seats'][0]['place'] == 1,
         'the seat whose stream closed is out (disconnected): place 2, the other wins')
    result_seen = time.monotonic()
    t.eq(keys(d, mid, k0, 'L').error_code, 'match_over', 'keys while the result shows: 409 match_over')
    fin = s0.until(lambda f: f['phase'] == 'finished', timeout=30)
    shown = time.monotonic() - result_seen
    t.ok(fin is not None and shown >= 3.5, 'the result shows 4 s, then the last frame, phase finished '
         '(%.1f s here)' % shown)
    t.ok(s0.until(lambda f: True, timeout=10) is None, 'and the stream ends')
    page = d.get('%s/%s/replay' % (M, mid)).json
    disc = [x for x in page['replay']['inputs'] if x[2] == 'disconnect']
    t.ok(len(disc) == 1 and disc[0][1] == 1 and 120 <= disc[0][0] - closed_at <= 300,
         'the disconnect is recorded for seat 1 at tick %s, 120 or more after the stream closed (after tick '
         '%s)' % (disc and disc[0][0], closed_at))
    recorded = [x for x in page['replay']['inputs'] if x[1] == 0]
    t.ok(len(recorded) == 24 + 16 + 23 + 12 + 22 and recorded[0][2] == 'L',
         'every acknowledged key is in the replay with its tick (%d)' % len(recorded))
    check_replay(d, page, 'timing match')


def check_replay(d, page, what):
    v = d.post(M + '/replays/verify', {'replay': page['replay'], 'certificate': page['certificate']})
    t.ok(v.status == 200 and v.json['valid'] and v.json['certificate']['valid'] and
         v.json['certificate']['claims'].get('clock') == 'ticks',
         '%s: the replay verifies over HTTP, with its certificate (clock ticks; %d, %d inputs)'
         % (what, v.status, len(page['replay']['inputs'])))
    rc, out = verify_cli(page['replay'])
    t.ok(rc == 0 and 'real-time match replay' in out, '%s: arcaded verify says valid (%s)' % (what, out.strip()))
    bad = json.loads(json.dumps(page['replay']))
    bad['final']['players'][0]['score'] += 1
    v = d.post(M + '/replays/verify', bad)
    t.ok(v.status == 422 and v.error_code == 'invalid_replay',
         '%s: a replay with another final is 422 (%d)' % (what, v.status))


def bots(d):
    url = 'http://127.0.0.1:%d' % d.port
    env = dict(os.environ, ARCADED_URL=url)
    path = os.path.join(EXAMPLES, 'actionblocks_realtime.py')
    a = subprocess.Popen([sys.executable, path, '--seed', '3'], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    line = a.stdout.readline()
    mid = line.split()[1].rstrip(',') if line.startswith('match ') else None
    b = subprocess.Popen([sys.executable, path, '--join', str(mid)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    oa, ea = a.communicate(timeout=240)
    ob, eb = b.communicate(timeout=240)
    t.ok(a.returncode == 0 and b.returncode == 0 and 'match over' in oa and 'match over' in ob,
         'two starter bots play a real-time match to its end') or t.diag(line + oa + ea + ob + eb)
    view = d.get('%s/%s' % (M, mid)).json
    t.ok(view['status'] == 'finished' and sorted(s['place'] for s in view['seats']) in ([1, 2], [1, 1]) and
         view['certificate'], 'the match is finished with places and a certificate (%s)' % view.get('end'))
    page = d.get('%s/%s/replay' % (M, mid)).json
    t.ok(len(page['replay']['inputs']) > 0 and page['replay']['final']['ticks'] == view['turn'],
         'its replay lists %d inputs; its final ticks are the view\'s turn' % len(page['replay']['inputs']))
    check_replay(d, page, 'the bots\' match')


def restart(d):
    """A daemon stopped while a match plays: at its start it plays the
    match again from the seed and the stored inputs, every acknowledged
    key in it, and goes on; the seats open their streams again."""
    k0, k1 = account(d, 'rt_eve'), account(d, 'rt_fay')
    mid = d.post(M, {'rules': 'actionblocks-v1', 'clock': 'ticks', 'players': 2, 'seed': 5},
                 headers=k0).json['match_id']
    s0 = Stream(d, mid, k0)
    d.post('%s/%s/join' % (M, mid), None, headers=k1)
    s1 = Stream(d, mid, k1)
    s0.until(lambda f: f['phase'] == 'playing' and f['seats'][0]['piece'] is not None)
    a = keys(d, mid, k0, 'LLLLD')
    f = s0.until(lambda f: filled(f['seats'][0]) > 0)
    cells = filled(f['seats'][0]) if f else None
    s0.close()
    s1.close()
    d.restart()
    s0, s1 = Stream(d, mid, k0), Stream(d, mid, k1)
    f = s0.until(lambda f: f['phase'] == 'playing', timeout=10)
    t.ok(a.status == 200 and f is not None and filled(f['seats'][0]) == cells and f['tick'] > a.json['tick'],
         'after a restart the match plays on from its stored inputs: the piece its keys dropped is '
         'there (tick %s)' % (f and f['tick']))
    b = keys(d, mid, k0, 'RRRRD')
    f = s0.until(lambda f: filled(f['seats'][0]) > cells)
    t.ok(b.status == 200 and f is not None and b.json['tick'] >= a.json['tick'],
         'and takes keys again (tick %s)' % (b.json.get('tick') if b.status == 200 else b))
    s1.close()
    fin = s0.until(lambda f: f['phase'] == 'finished', timeout=30)
    t.ok(fin is not None and fin['seats'][1]['end_reason'] == 'disconnected',
         'then ends as any match (seat 1 closed its stream: out)')
    page = d.get('%s/%s/replay' % (M, mid)).json
    ins = [x[2] for x in page['replay']['inputs'] if x[1] == 0]
    t.eq(''.join(ins), 'LLLLDRRRRD', 'its replay holds the keys sent before and after the restart')
    check_replay(d, page, 'the restarted match')


def refusals(d):
    k = account(d, 'rt_dan')
    r = d.post(M, {'rules': 'versus-v1', 'clock': 'ticks', 'players': 2}, headers=k)
    t.eq(r.error_code, 'clock_unsupported', 'clock ticks for versus-v1 (no tick clock): 422 clock_unsupported')
    t.eq(r.status, 422, 'with status 422')
    r = d.post(M, {'rules': 'actionblocks-v1', 'clock': 'soon', 'players': 2}, headers=k)
    t.eq(r.status, 400, 'a clock that is neither turns nor ticks: 400')
    r = d.post(M, {'rules': 'actionblocks-v1', 'players': 2}, headers=k)
    t.ok(r.status == 201 and 'clock' not in r.json, 'without clock a match is turn by turn, its view as before')
    t.eq(keys(d, r.json['match_id'], k, 'L').error_code, 'wrong_clock', 'keys to a turn-by-turn match: 409')
    s = d.get('%s/%s/stream' % (M, r.json['match_id']))
    t.eq(s.error_code, 'wrong_clock', 'the stream of a turn-by-turn match: 409 (its stream is .../events)')


# A real-time replay lists every input: two bots that keep playing for
# half a minute (slower machines, the sanitizers: 16,058 inputs once) make
# one past the default 64 KiB body; verifying it over HTTP needs a larger
# --max-body (docs/rules/actionblocks.md says so).
d = Daemon(args=['--max-body', '4m'])
try:
    refusals(d)
    timing(d)
    restart(d)
    bots(d)
finally:
    d.stop()
    d.cleanup()
t.done()
