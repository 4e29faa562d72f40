#!/usr/bin/env python3
"""The golden corpus replayed: plays drive.py's session against the daemon
being tested and compares every exchange, in order, with
tests/golden/corpus.jsonl (recorded before a refactor that must not change
an answer byte). TAP: one line a part of the session (stackfall, versus,
mcp...), the first difference shown as the request and a unified diff of
the two answers, then the session stops and the test fails.

Also: the corpus holds at least 2,000 exchanges, and covers every game the
daemon lists in GET /api/games. A game the corpus lacks although it was on
the table when the corpus was recorded is a failure; a game added since is
a diagnostic (the corpus has nothing to compare it with; see README.md).
"""
import difflib
import gzip
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(os.path.dirname(HERE), 'e2e'))

from harness import BACKEND, Tap  # noqa: E402
import drive  # noqa: E402

MIN_EXCHANGES = 2000
tap = Tap()


def load_corpus():
    for name in ('corpus.jsonl', 'corpus.jsonl.gz'):
        path = os.path.join(HERE, name)
        if os.path.exists(path):
            opener = gzip.open if name.endswith('.gz') else open
            with opener(path, 'rt', encoding='utf-8') as f:
                return path, [line.rstrip('\n') for line in f if line.strip()]
    return None, []


def line(ex):
    """An exchange as the corpus writes it (drive.py's main)."""
    return json.dumps(ex, ensure_ascii=False)


def pretty(ex):
    """The answer side of an exchange, one field a line, for the diff."""
    keep = {k: ex.get(k) for k in ('status', 'answer_headers', 'form', 'answer', 'answer_text') if k in ex}
    return json.dumps(keep, indent=1, ensure_ascii=False).splitlines()


def games_listed(exchanges):
    """The game names of the first GET /api/games answered 200."""
    for ex in exchanges:
        if ex.get('method') == 'GET' and ex.get('path') == '/api/games' and ex.get('status') == 200 and \
                isinstance(ex.get('answer'), dict):
            return [g.get('name') for g in ex['answer'].get('games', [])]
    return None


def played(exchanges, game):
    """Whether a run of game was started and moved on the token routes."""
    init = action = False
    for ex in exchanges:
        if ex.get('status') != 200:
            continue
        if ex.get('path', '').startswith('/api/games/%s/init' % game):
            init = True
        if ex.get('path') == '/api/games/%s/action' % game:
            action = True
    return init and action


path, corpus = load_corpus()
if not tap.ok(path is not None, 'the corpus is in tests/golden (corpus.jsonl or corpus.jsonl.gz)'):
    tap.done()
recorded = [json.loads(x) for x in corpus]
tap.ok(len(corpus) >= MIN_EXCHANGES, 'the corpus holds at least %d exchanges (%d)' % (MIN_EXCHANGES, len(corpus)))
at_recording = games_listed(recorded) or []
tap.ok(len(at_recording) > 0, 'the corpus holds GET /api/games: the table when it was recorded (%s)'
       % ', '.join(at_recording))
for g in at_recording:
    tap.ok(played(recorded, g), 'the corpus plays %s (init and actions answered 200)' % g)

# ---- the session, compared as it goes ----

state = {'n': 0, 'kind': None, 'kind_count': 0, 'diff': None, 'live': []}


def close_kind():
    if state['kind'] is not None:
        tap.ok(True, '%s: %d exchanges as recorded' % (state['kind'], state['kind_count']))


def sink(ex):
    n = state['n']
    state['n'] += 1
    state['live'].append(ex)
    if ex['kind'] != state['kind']:
        close_kind()
        state['kind'], state['kind_count'] = ex['kind'], 0
    want = corpus[n] if n < len(corpus) else None
    got = line(ex)
    if got == want:
        state['kind_count'] += 1
        return
    state['diff'] = (n, ex, json.loads(want) if want is not None else None)
    raise drive.Stop()


t0 = time.monotonic()
error = None
try:
    drive.session(sink)
except Exception:  # the session broke on an answer it did not expect: a difference too
    error = traceback.format_exc()
elapsed = time.monotonic() - t0

if state['diff'] is not None:
    n, got, want = state['diff']
    tap.ok(False, '%s: exchange %d differs from the corpus' % (got['kind'], n + 1))
    tap.diag('request: %s %s' % (got['method'], got['path']))
    if got.get('headers'):
        tap.diag('headers: %s' % json.dumps(got['headers'], ensure_ascii=False))
    if got.get('body') is not None:
        tap.diag('body: %s' % json.dumps(got['body'], ensure_ascii=False)[:2000])
    if want is None:
        tap.diag('the corpus ends before this exchange (%d exchanges)' % len(corpus))
    else:
        if (want['method'], want['path'], want.get('body')) != (got['method'], got['path'], got.get('body')):
            tap.diag('the corpus has another request here: %s %s %s' %
                     (want['method'], want['path'], json.dumps(want.get('body'), ensure_ascii=False)[:500]))
        diff = list(difflib.unified_diff(pretty(want), pretty(got), 'corpus', 'now', lineterm='', n=3))
        for d in diff[:200]:
            tap.diag(d)
        if len(diff) > 200:
            tap.diag('... (%d more diff lines)' % (len(diff) - 200))
elif error is not None:
    tap.ok(False, 'the session ran to its end (it broke after %d exchanges)' % state['n'])
    tap.diag(error)
    if state['live']:
        tap.diag('the last exchange: %s' % line(state['live'][-1])[:2000])
else:
    close_kind()
    tap.eq(state['n'], len(corpus), 'the session made as many exchanges as the corpus holds')
tap.diag('%d exchanges compared on %s in %.1f s' % (state['n'], BACKEND, elapsed))

# ---- the table of games now, against the corpus ----

now = games_listed(state['live'])
if tap.ok(now is not None, 'the session read GET /api/games'):
    for g in now:
        if g in at_recording:
            continue
        # Not a failure: the corpus predates the game, so nothing can be
        # compared; the gap is shown so that someone records it on purpose.
        tap.diag('not in the corpus: game %s was added to the table after the recording '
                 '(see tests/golden/README.md)' % g)
    for g in at_recording:
        tap.ok(g in now, '%s, on the table at the recording, is on it now' % g)

tap.done()
