"""arcaded_client.py: what every starter bot in examples/ shares.

A starter imports this module from its own folder and keeps to its game:
this file holds the plumbing, so that each bot reads top to bottom as the
game it plays. It gives:

- options(): an argparse parser with the options every bot takes: --url
  (else ARCADED_URL, else http://127.0.0.1:8080), --key (else ARCADED_KEY:
  the bot's runs belong to that key's account and show on its page),
  --new-account NAME (create the account first and play with its key, which
  is printed once: keep it) and --stdio (play under `arcaded play`, offline);
- connect(args): a Client for those options, creating the account when
  --new-account asks for one (or, for the bots that cannot play without a
  key, when no key was given); under --stdio a StdioClient instead;
- Client.call()/ok()/get()/post(): one JSON request, with the agent key;
  ok() and the two short forms raise ApiError on a refusal. A 429 is waited
  out as its Retry-After says (at most MAX_WAIT seconds a time, TRIES times);
  an answer's agent-check puzzle is read and answered on the next request,
  and a 428 (a wrong or stale answer) is tried again with the fresh puzzle;
- solve_puzzle(): a reader of the agent-check puzzle (docs/api.md, "The
  agent check"), which Stackfall asks by default and the other games when
  the operator turns it on;
- command(main): runs the bot with its output written line by line (so an
  id it prints reaches another shell at once, even through a pipe or a
  file), and turns any failure into one line on stderr and exit status 1.

Python 3 with the standard library only, like the bots.
"""
import argparse
import json
import os
import random
import re
import sys
import time

TRIES = 20      # requests sent for one call, 429s and 428s included
MAX_WAIT = 60   # seconds; a longer Retry-After (a daily quota) ends the bot instead
TIMEOUT = 60    # seconds for one answer; a match's long poll answers within 25


class ApiError(Exception):
    """A request the server refused: its route, status and error."""

    def __init__(self, method, path, status, reply):
        err = reply.get('error') if isinstance(reply, dict) else None
        err = err if isinstance(err, dict) else {'message': str(reply)[:200]}
        super().__init__('%s %s: %d %s: %s' % (method, path.split('?')[0], status,
                                               err.get('code', ''), err.get('message', '')))
        self.status, self.code, self.reply = status, err.get('code'), reply


# --- The agent-check puzzle ---------------------------------------------------
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
    """The whole-number answer of a puzzle; ValueError when it reads no two numbers."""
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


# --- HTTP -----------------------------------------------------------------------

class Client:
    def __init__(self, url, key=None):
        self.url, self.key = url.rstrip('/'), key
        self.check = None  # the last agent-check puzzle seen, answered on the next request

    def call(self, method, path, body=None):
        """(status, answer) of one request, after waiting out 429s and retrying 428s."""
        import urllib.error  # here, not at the top: a bot under --stdio starts faster without
        import urllib.request
        wrong = 0
        for _ in range(TRIES):
            headers = {'Accept': 'application/json'}
            if body is not None:
                headers['Content-Type'] = 'application/json'
            if self.key:
                headers['Authorization'] = 'Bearer ' + self.key
            if self.check:
                headers['X-Agent-Check'] = self.check['token']
                headers['X-Agent-Answer'] = str(solve_puzzle(self.check['puzzle']))
            data = json.dumps(body).encode() if body is not None else None
            req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
                    status, raw, retry = r.status, r.read(), None
            except urllib.error.HTTPError as e:
                status, raw, retry = e.code, e.read(), e.headers.get('Retry-After')
            except urllib.error.URLError as e:  # no daemon there, or no answer at all
                raise ConnectionError('%s %s: no answer from %s (%s)' % (method, path, self.url, e.reason))
            try:
                reply = json.loads(raw or b'{}')
            except ValueError:
                reply = {'error': {'message': raw[:200].decode(errors='replace')}}
            if isinstance(reply, dict) and reply.get('agent_check'):
                # Every judged answer brings a fresh puzzle; a 429 shows the
                # one presented again, unspent.
                self.check = reply['agent_check']
            if status == 429 and int(retry or 1) <= MAX_WAIT:
                wait = int(retry or 1)
                print('429 on %s %s: waiting %d s as Retry-After asks' % (method, path, wait),
                      file=sys.stderr, flush=True)
                time.sleep(wait)
                continue
            if status == 428 and wrong < 3:
                wrong += 1
                print('428 on %s %s: %s' % (method, path, reply['error']['message']),
                      file=sys.stderr, flush=True)
                continue
            return status, reply
        return status, reply

    def ok(self, method, path, body=None):
        """The answer of a request that must succeed; ApiError otherwise."""
        status, reply = self.call(method, path, body)
        if status >= 300:
            raise ApiError(method, path, status, reply)
        return reply

    def get(self, path):
        return self.ok('GET', path)

    def post(self, path, body=None):
        return self.ok('POST', path, {} if body is None else body)


# --- Offline: arcaded play ------------------------------------------------------
# `arcaded play GAME --bot "python3 examples/X_bot.py --stdio"` plays the bot
# on the engine without a daemon (docs/play.md): one observation a line on
# stdin (the answer the action route would give, its stateToken null), one
# action a line on stdout (the body the route would take). The bot's own
# prints go to stderr, so that stdout carries only its actions. The runner
# picks the seed and the options (its --seed and --option), not the bot.

class StdioClient(Client):
    """A Client whose init, action and finish are lines to `arcaded play`."""

    STATUS = {'invalid_json': 400, 'invalid_request': 400}

    def __init__(self):
        super().__init__('stdio:')
        self.out, sys.stdout = sys.stdout, sys.stderr
        self.last = None

    def read(self):
        line = sys.stdin.readline()
        if not line:
            raise RuntimeError('arcaded play closed the game (no observation on stdin)')
        self.last = json.loads(line)
        return self.last

    def call(self, method, path, body=None):
        route = path.split('?')[0].rstrip('/').rsplit('/', 1)[-1]
        if route in ('init', 'new'):  # the runner has started the run: its first line
            return 200, self.read()
        if route in ('action', 'act'):
            move = {k: v for k, v in (body or {}).items() if k != 'stateToken'}
            self.out.write(json.dumps(move) + '\n')
            self.out.flush()
            reply = self.read()
            err = reply.get('error')
            return (self.STATUS.get(err.get('code'), 422) if err else 200), reply
        if route == 'finish':  # nothing to send: the last observation has the end
            if 'final' not in self.last:
                return 409, {'error': {'code': 'run_not_over', 'message': 'the run is not over yet'}}
            return 200, dict(self.last, certificate='(none offline)')
        raise RuntimeError('arcaded play answers only a run\'s init, action and finish, not %s' % path)


# --- Options, accounts and the command ------------------------------------------

def options(description):
    """The parser every bot starts from; a bot adds its own options to it."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument('--url', default=os.environ.get('ARCADED_URL', 'http://127.0.0.1:8080'),
                    help='the daemon (default: $ARCADED_URL, else http://127.0.0.1:8080)')
    ap.add_argument('--key', default=os.environ.get('ARCADED_KEY'),
                    help='an agent key, arcd_...: the runs belong to its account (default: $ARCADED_KEY)')
    ap.add_argument('--new-account', metavar='NAME',
                    help='create the account NAME first and play with its key (printed once: keep it)')
    ap.add_argument('--stdio', action='store_true',
                    help='play under `arcaded play` (JSON lines on stdin and stdout), no daemon')
    return ap


def connect(args, need_key=False, prefix='bot'):
    """A Client for the parsed options. It creates an account when
    --new-account names one (its key replaces any other), or when need_key is
    set and no key was given (then named prefix_NNNNNN); the new key is
    printed for --key. Under --stdio: a StdioClient, and no account."""
    if args.stdio:
        return StdioClient()
    c = Client(args.url, args.key)
    name = args.new_account
    if not name and need_key and not c.key:
        name = '%s_%06d' % (prefix, random.randrange(10 ** 6))
    if name:
        c.key = c.post('/api/v1/accounts', {'name': name})['agentKey']
        # New accounts are limited (10 at once, 30 an hour per address): keep the key.
        print('account %s created; play as it again with --key %s (or ARCADED_KEY)' % (name, c.key))
    return c


def match_result(view):
    """Prints a finished match's view: its end, each seat's place and
    figures, and the start of its certificate."""
    print('match over after %d turns (%s)' % (view['turn'], view['end']))
    for s in view['seats']:
        print('  seat %d (%s): place %s, score %d, lines %d, sent %d, %s' % (
            s['seat'], s['account'], s['place'], s['score'], s['lines'], s['lines_sent'],
            s['end_reason'] or 'still in'))
    print('certificate: %s...' % (view['certificate'] or '')[:40])


def command(main):
    """Runs main() as the bot's command: exit 0 when it returns, 1 with one line otherwise."""
    sys.stdout.reconfigure(line_buffering=True)  # each line out at once, even into a pipe
    prog = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    try:
        main()
    except KeyError as e:
        sys.exit('%s: an answer has no field %s' % (prog, e))
    except (ApiError, OSError, ValueError, RuntimeError) as e:
        sys.exit('%s: %s' % (prog, e))
    except KeyboardInterrupt:
        sys.exit(130)
