#!/usr/bin/env python3
"""What an agent reads: the bytes of the MCP text blocks of whole games.

    ARCADED=build/server/arcaded python3 tests/mcp/text_sizes.py

Starts a daemon (tests/e2e/harness.py, the agent check off so that every
game plays the same way), plays one game of each on the table to its end
through tools/call alone, with a fixed policy read from
structuredContent (so the same moves are played whatever the text
says), and prints per game the calls made, the text bytes of them all
and the average per call. docs/mcp.md keeps the figures, before and
after a change of the text blocks. Not a test: it only measures.

Policies: the games whose action route takes commands ask 'options' and
place the option with the fewest holes, then the lowest stack (HATETRIS
classic: its 'place N' of the lock with the most lines, then the lowest
top); the others play their first legal action that is not endRun or
reset (Duskcourt's 'next' included), endRun when it is the only one.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'e2e'))
from harness import Daemon  # noqa: E402

GAMES = [('stackfall', {'seed': 5}), ('duskcourt', {'seed': 7}), ('stackcraft', {'seed': 5, 'cap': 60}),
         ('hatetris', {}), ('wells', {}), ('hatetris-classic', {})]
MAX_CALLS = 600


class Player:
    def __init__(self, d):
        self.d = d
        self.calls = 0
        self.bytes = 0

    def call(self, tool, args):
        r = self.d.post('/mcp', {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
                                 'params': {'name': tool, 'arguments': args}},
                        headers={'Accept': 'application/json, text/event-stream'})
        res = r.json['result']
        self.calls += 1
        self.bytes += len(res['content'][0]['text'].encode())
        return res['structuredContent']


def continuation(s):
    """The argument that names the run: the handle where results give one."""
    return {'handle': s['handle']} if 'handle' in s else {'stateToken': s['stateToken']}


def best_option(s):
    for r in s.get('results', []):
        if r.get('options'):
            opts = r['options']
            if 'lock' in opts[0]:
                o = min(opts, key=lambda o: (o['over'], -o['lines'], -o['top']))
                return 'place %d' % o['lock']
            o = min(opts, key=lambda o: (o['holes'], o['max_height'], o['bumpiness']))
            return o['command']
    return None


def short(a):
    """A legal action as the text block writes it (docs/mcp.md)."""
    if isinstance(a, str):
        return a
    if isinstance(a.get('id'), str):
        return a['id']
    rest = [v for k, v in a.items() if k != 'type']
    return 'x'.join(str(v) for v in rest) if rest else a['type']


def play(d, game, start):
    p = Player(d)
    s = p.call('start_run', dict(start, game=game))
    commands = 'legalActions' not in s
    while s.get('status') == 'playing' or s.get('state', {}).get('phase') in ('playing', 'break'):
        if p.calls >= MAX_CALLS:
            break
        if commands:
            s = p.call('act', dict(continuation(s), game=game, action='options'))
            action = best_option(s)
            if action is None:
                break
        else:
            legal = s.get('legalActions') or []
            pick = [a for a in legal if not (isinstance(a, dict) and a.get('type') in ('endRun', 'reset'))]
            action = (pick or legal or [None])[0]
            if action is None:
                break
            action = short(action)
        s = p.call('act', dict(continuation(s), game=game, action=action))
    return p


def main():
    d = Daemon(args=['--agent-check', 'stackfall=off'])
    try:
        print('%-18s %6s %10s %9s' % ('game', 'calls', 'bytes', 'per call'))
        for game, start in GAMES:
            p = play(d, game, start)
            print('%-18s %6d %10d %9.0f' % (game, p.calls, p.bytes, p.bytes / p.calls))
    finally:
        d.stop()
        d.cleanup()


if __name__ == '__main__':
    main()
