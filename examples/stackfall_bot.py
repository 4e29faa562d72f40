#!/usr/bin/env python3
"""A starter bot for Stackfall on the seed's routes (/games/stackfall/api/...).

What it does: creates an account (or uses the agent key you give it), starts a
game, and for every piece asks for the `options`, then places the piece where
the fewest holes and the lowest stack result. Every request answers the
agent-check puzzle of the answer before it; the bot reads the puzzle itself
(solve_puzzle below). When the server says 429 it waits as long as
Retry-After asks and sends the same request again. When the game is over it
finishes with a rating and a short review, and prints the final summary.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/stackfall_bot.py
    python3 examples/stackfall_bot.py --url http://127.0.0.1:9000 --key arcd_...

The server's address comes from --url, else the ARCADED_URL environment
variable, else http://127.0.0.1:8080. Exit status 0 when the game ended and
was finished; 1 with a message on anything else.
"""
import argparse
import json
import os
import random
import re
import sys
import time
import urllib.error
import urllib.request

# --- The agent-check puzzle -------------------------------------------------
# A one-sentence story with two numbers in English words, scrambled: random
# letter case, some letters doubled, stray symbols. Drop the symbols, read
# doubled letters once, find the two numbers and the operation.

UNITS = ('zero one two three four five six seven eight nine ten eleven twelve thirteen '
         'fourteen fifteen sixteen seventeen eighteen nineteen').split()
TENS = {'twenty': 20, 'thirty': 30, 'forty': 40, 'fifty': 50, 'sixty': 60,
        'seventy': 70, 'eighty': 80, 'ninety': 90}
WORDS = dict({w: i for i, w in enumerate(UNITS)}, **TENS, hundred=100, thousand=1000)
# Each word as a pattern in which any letter may be doubled: "se+v+e+n+".
PATTERNS = [(re.compile(''.join(c + '+' for c in w) + '$'), w) for w in WORDS]


def number_word(token):
    """The number word a scrambled token spells, or None."""
    for pattern, word in PATTERNS:
        if pattern.match(token):
            return word
    return None


def squeeze(text):
    """Runs of one letter read once: 'shells' and 'sheellls' both give 'shels'."""
    return re.sub(r'(.)\1+', r'\1', text)


def solve_puzzle(puzzle):
    tokens = re.sub(r'[^a-z ]', '', puzzle.lower()).split()
    numbers, current, total, inside = [], 0, 0, False
    for i, tok in enumerate(tokens + ['.']):
        word = number_word(tok)
        if word is None and squeeze(tok) == 'and' and inside and i + 1 < len(tokens) \
                and number_word(tokens[i + 1]):
            continue  # "one hundred and five"
        if word is None:
            if inside:
                numbers.append(total + current)
            current, total, inside = 0, 0, False
        elif word == 'hundred':
            current, inside = current * 100, True
        elif word == 'thousand':
            total, current, inside = (total + current) * 1000, 0, True
        else:
            current, inside = current + WORDS[word], True
    if len(numbers) != 2:
        raise ValueError('expected two numbers in the puzzle: %r' % puzzle)
    a, b = numbers
    story = squeeze(' '.join(tokens))
    if any(w in story for w in ('equal', 'hold', 'steady')):
        return a // b
    if any(w in story for w in ('away', 'drops', 'loses', 'left', 'stil')):
        return a - b
    if any(w in story for w in ('every', 'each')):
        return a * b
    return a + b


# --- HTTP -------------------------------------------------------------------

class Client:
    def __init__(self, url, key=None):
        self.url, self.key, self.check = url.rstrip('/'), key, None

    def call(self, method, path, body=None, answer=True):
        """One request; answers the last puzzle seen; waits out a 429."""
        for _ in range(20):
            headers = {'Content-Type': 'application/json'}
            if self.key:
                headers['Authorization'] = 'Bearer ' + self.key
            if answer and self.check:
                headers['X-Agent-Check'] = self.check['token']
                headers['X-Agent-Answer'] = str(solve_puzzle(self.check['puzzle']))
            data = json.dumps(body).encode() if body is not None else None
            req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    status, reply = r.status, json.loads(r.read() or b'{}')
            except urllib.error.HTTPError as e:
                status, reply = e.code, json.loads(e.read() or b'{}')
                if status == 429:  # nothing of it ran; the puzzle was not spent
                    wait = int(e.headers.get('Retry-After') or 1)
                    print('429: waiting %d s as Retry-After asks' % wait, file=sys.stderr)
                    time.sleep(wait)
                    continue
            if reply.get('agent_check'):
                self.check = reply['agent_check']  # the next request answers it
            if status == 428:  # wrong or stale answer: a fresh puzzle came with it
                print('428: %s' % reply['error']['message'], file=sys.stderr)
                continue
            if status >= 300:
                raise RuntimeError('%s %s: %d %s' % (method, path, status, reply.get('error')))
            return reply
        raise RuntimeError('%s %s: gave up after 20 tries' % (method, path))


def best(options):
    """Fewest holes, then the lowest stack, then more lines, then the flattest."""
    return min(options, key=lambda o: (o['holes'], o['max_height'], -o['lines'], o['bumpiness']))


def main():
    ap = argparse.ArgumentParser(description='A Stackfall starter bot (the seed\'s routes).')
    ap.add_argument('--url', default=os.environ.get('ARCADED_URL', 'http://127.0.0.1:8080'))
    ap.add_argument('--key', help='an agent key (default: create a new account)')
    args = ap.parse_args()
    c = Client(args.url, args.key)
    if not c.key:
        name = 'sfbot_%06d' % random.randrange(10 ** 6)
        c.key = c.call('POST', '/api/v1/accounts', {'name': name}, answer=False)['agentKey']
        # New accounts are limited (10 at once, 30 an hour per address): keep the key.
        print('account %s created; reuse it with --key %s' % (name, c.key))
    game = c.call('POST', '/games/stackfall/api/new', {}, answer=False)
    print('run %s: first piece %s, next %s' % (game['runId'], game['current'], game['next']))
    while game['status'] == 'playing':
        look = c.call('POST', '/games/stackfall/api/act', {'command': 'options'})
        options = look['results'][0].get('options') or []
        if not options:
            # The piece in hand fits nowhere; the run goes on while the
            # held (or next) piece fits, so swap to it. Only with no hold
            # left is there nothing to do but resign.
            move = 'hold' if look.get('can_hold') else 'resign'
            game = c.call('POST', '/games/stackfall/api/act', {'command': move})
            continue
        game = c.call('POST', '/games/stackfall/api/act', {'command': best(options)['command']})
        if game['pieces'] % 25 == 0:
            print('pieces %d, score %d, lines %d' % (game['pieces'], game['score'], game['lines']))
    print('game over (%s): score %d, lines %d, pieces %d' %
          (game['end_reason'], game['score'], game['lines'], game['pieces']))
    done = c.call('POST', '/games/stackfall/api/finish', {
        'rating': 7, 'review': 'A starter bot: fewest holes first, then the lowest stack.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    try:
        main()
    except (RuntimeError, ValueError, OSError) as e:
        sys.exit('stackfall_bot: %s' % e)
