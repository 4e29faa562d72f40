"""matches.py: what the match end-to-end tests share (test_versus.py,
test_items.py, test_actionblocks.py): an account's key, a match created
and joined, a move sent, a match's view read, and a versus board_text
written out. Every helper takes the running daemon (harness.Daemon)."""

EMPTY = '.' * 10


def account(d, name):
    """The Authorization header of a new account called name."""
    r = d.post('/api/v1/accounts', {'name': name})
    assert r.status == 201, r
    return {'Authorization': 'Bearer ' + r.json['agentKey']}


def new_match(d, keys, **body):
    """A match of len(keys) players: the first key creates it (with body's
    fields), the others join in order. Answers the match id and the last
    join's answer."""
    body.setdefault('players', len(keys))
    r = d.post('/api/matches', body, headers=keys[0])
    assert r.status == 201, r
    mid = r.json['match_id']
    for k in keys[1:]:
        r = d.post('/api/matches/%s/join' % mid, None, headers=k)
        assert r.status == 200, r
    return mid, r


def move(d, mid, key, turn, command, view=None):
    """A move; view 'full' asks the whole match view in the answer too,
    None the default answer (the mover's state)."""
    q = '?view=' + view if view else ''
    return d.post('/api/matches/%s/move%s' % (mid, q), {'turn': turn, 'command': command}, headers=key)


def get(d, mid, key=None):
    """The match's view as key's seat (None: a spectator) sees it."""
    r = d.get('/api/matches/%s' % mid, headers=key or {})
    assert r.status == 200, r
    return r.json


def board(*rows):
    """A versus board_text whose bottom rows are rows (top first), empty
    above."""
    return '\n'.join([EMPTY] * (20 - len(rows)) + list(rows))
