"""docs/coordinates.md checked against the daemon: every drawing on the page
is what the engine really answers, and every cell the page names is a cell
the stated action really fills.

The page holds one fenced block a game, opened with ```coords GAME. A block
is a few `key: value` lines, then one or two drawings:

    start: JSON        the body of the game's init (a match: of POST /api/matches)
    play: MOVE         one a line, in order: a command text, an action id
                       (Stackcraft, Wells) or a JSON action object; in a
                       match, seat 0's move of one turn (seat 1 sends FILLER)
    cells: [[a, b]..]  the cells the last play fills, in the game's own pairs
    piece: JSON        optional: the live piece's fields before the last play
                       (ActionBlocks: the view's `piece`; HATETRIS classic:
                       `current`, `x`, `y`, `o` of the answer)
    before: / after:   a drawing follows: the text board before the last play
                       (optional) and after it, as the answer shows it

A drawing line is a board row, optionally followed by two or more spaces
and a label whose first number is that row's number in the game's
coordinates; a line of digits alone is a column ruler; a line
`(N empty rows)` stands for N rows left out, which must be empty. Duskcourt's
lines are boardText's own lines (their index columns included), unlabelled.

How a game's pairs and labels map onto the text board is written here from
the rules pages (docs/rules/*.md), not read from the code: that is what the
page claims and what this test holds it to. The last play must clear no
row, so that the cells it fills are the cells that turned from empty ('.',
or '@' for HATETRIS classic's live piece) to filled.

Run with a path to fail on purpose: COORDS_PAGE=FILE checks FILE instead.
"""
import json
import os
import re

from harness import Daemon, Tap
import matches

t = Tap()
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
PAGE = os.environ.get('COORDS_PAGE') or os.path.join(ROOT, 'docs', 'coordinates.md')
GAMES = ['stackfall', 'duskcourt', 'stackcraft', 'hatetris', 'hatetris-classic', 'wells', 'versus',
         'actionblocks']
MATCH_RULES = {'versus': 'versus-v1', 'actionblocks': 'actionblocks-v1'}
FILLER = {'versus': 'place 0 0', 'actionblocks': 'keys D'}
ID_ACTIONS = {'stackcraft', 'wells'}     # the move is a string id sent as `action`
FREE = {'.', '@'}


# ---- where a game's names land on its text board (from docs/rules/*.md) ----

def row_number(game, line, nlines):
    """The game's number for text line `line` (0 the first line)."""
    if game in ('stackfall', 'hatetris', 'versus'):
        return nlines - line                # rows 1-20 from the bottom, row 20 first
    if game == 'actionblocks':
        return nlines - 1 - line            # y 0 at the bottom, board[0] is y 19
    return line                             # stackcraft y, HATETRIS classic and Wells rows: 0 at the top


def place(game, pair, nlines):
    """The (line, character) of text board where a named cell is drawn."""
    a, b = pair
    if game in ('stackfall', 'hatetris', 'versus'):   # [row, column]
        return nlines - a, b
    if game == 'stackcraft':                          # [x, y]
        return b, a
    if game == 'actionblocks':                        # [x, y], y upwards
        return nlines - 1 - b, a
    return a, b                                       # [row, column], row 0 the top line


# ---- the page ----

def blocks(text):
    found = []
    for m in re.finditer(r'^```coords ([a-z-]+)\n(.*?)^```', text, re.S | re.M):
        game, body = m.group(1), m.group(2).split('\n')[:-1]
        b = {'game': game, 'play': [], 'drawings': {}}
        cur = None
        for line in body:
            if line in ('before:', 'after:'):
                cur = line[:-1]
                b['drawings'][cur] = []
            elif cur is not None:
                b['drawings'][cur].append(line)
            elif line.startswith('play:'):
                b['play'].append(line[5:].strip())
            elif line.split(':')[0] in ('start', 'cells', 'piece'):
                key, _, val = line.partition(':')
                b[key] = json.loads(val)
            elif line.strip():
                raise ValueError('%s: a line the block does not know: %r' % (game, line))
        found.append(b)
    return found


def read_drawing(game, lines, nlines, width):
    """(rows, problems): the board rows a drawing stands for (None where
    left out, to be checked empty), and what is wrong with its labels."""
    if game == 'duskcourt':
        return list(lines), []
    rows, problems = [], []
    for line in lines:
        m = re.fullmatch(r'\((\d+) empty rows?\)', line.strip())
        if m:
            rows += [None] * int(m.group(1))
            continue
        if re.fullmatch(r'\d+', line.strip()):
            if line.strip() != '0123456789'[:width]:
                problems.append('ruler %r is not the columns 0-%d' % (line, width - 1))
            continue
        board, label = line[:width], line[width:]
        rows.append(board)
        if label.strip():
            if not label.startswith('  '):
                problems.append('label %r not set apart by two spaces' % line)
            num = re.search(r'-?\d+', label)
            want = row_number(game, len(rows) - 1, nlines) if nlines else None
            if num is None or (want is not None and int(num.group()) != want):
                problems.append('line %d is labelled %r; that row is %s' % (len(rows) - 1, label.strip(), want))
    return rows, problems


def same_board(drawn, real):
    return len(drawn) == len(real) and all(d == r or (d is None and set(r) <= {'.'})
                                           for d, r in zip(drawn, real))


# ---- playing a block ----

class Game:
    """One run (or a 2-seat match) as a block states it; board() is the text
    board as the answer shows it, a list of lines."""

    def __init__(self, d, b):
        self.d, self.game, self.last = d, b['game'], None
        if self.game in MATCH_RULES:
            self.keys = [matches.account(d, 'coords-%s-%d' % (self.game, i)) for i in (0, 1)]
            body = dict(b['start'], rules=MATCH_RULES[self.game])
            self.mid, _ = matches.new_match(d, self.keys, **body)
            self.turn = 0
            self.view = matches.get(d, self.mid, self.keys[0])
        else:
            r = d.post('/api/games/%s/init' % self.game, b['start'])
            assert r.status == 200, r
            self.last = r.json

    def play(self, move):
        if self.game in MATCH_RULES:
            self.turn += 1
            a = matches.move(self.d, self.mid, self.keys[0], self.turn, move)
            z = matches.move(self.d, self.mid, self.keys[1], self.turn, FILLER[self.game])
            self.view = matches.get(self.d, self.mid, self.keys[0])
            return a.status == 200 and z.status == 200 and self.view['turn'] == self.turn
        body = {'stateToken': self.last['stateToken']}
        if move.startswith('{'):
            body['action'] = json.loads(move)
        elif self.game in ID_ACTIONS:
            body['action'] = move
        else:
            body['command'] = move
        r = self.d.post('/api/games/%s/action' % self.game, body)
        ok = r.status == 200 and all(x.get('ok', True) for x in r.json.get('results', []))
        self.last = r.json
        return ok

    def board(self):
        if self.game == 'versus':
            return self.view['seats'][0]['board_text'].split('\n')
        if self.game == 'actionblocks':
            return list(self.view['seats'][0]['board'])
        if self.game == 'wells':
            return list(self.last['state']['well'])
        if self.game in ('stackcraft', 'duskcourt'):
            return self.last['boardText'].split('\n')
        return self.last['board_text'].split('\n')

    def piece(self):
        if self.game == 'actionblocks':
            return self.view['seats'][0]['piece']
        return self.last

    def size(self):
        return self.last['state']['size'] if self.game == 'duskcourt' else None


def check(d, b):
    game = b['game']
    g = Game(d, b)
    for move in b['play'][:-1]:
        t.ok(g.play(move), '%s: %s is played' % (game, move))
    before, legal = g.board(), (g.last or {}).get('legalActions')
    if 'piece' in b:
        live = g.piece() or {}
        t.eq({k: live.get(k) for k in b['piece']}, b['piece'],
             '%s: before %s the piece stands at %s' % (game, b['play'][-1], b['piece']))
    last = b['play'][-1]
    t.ok(g.play(last), '%s: %s is played' % (game, last))
    after = g.board()
    width = len(after[0])
    for name, real in (('before', before), ('after', after)):
        if name not in b['drawings']:
            continue
        drawn, problems = read_drawing(game, b['drawings'][name], len(real), width)
        t.ok(game == 'duskcourt' or not problems, '%s: the drawing %s %s labels its rows and columns as the rules count them%s'
             % (game, name, last, ''.join('; ' + p for p in problems)))
        if not t.ok(same_board(drawn, real), '%s: the drawing %s %s is the board the answer shows' % (game, name, last)):
            t.diag('answer:\n' + '\n'.join(real))
            t.diag('drawing:\n' + '\n'.join('(left out)' if r is None else r for r in drawn))
    cells = b['cells']
    if game == 'duskcourt':
        size, move = g.size(), json.loads(last)
        frm, to = [r * size + c for r, c in cells]
        t.ok((frm, to) == (move['from'], move['to']),
             'duskcourt: cells %s are squares %d and %d (row x size + column), the capture\'s from and to'
             % (cells, frm, to))
        letter = before[cells[0][0]][2 * cells[0][1]]
        t.ok(letter not in '.#' and after[cells[0][0]][2 * cells[0][1]] == '.' and
             after[cells[1][0]][2 * cells[1][1]] == letter,
             'duskcourt: the idol %s leaves row %d column %d and stands on row %d column %d'
             % (letter, cells[0][0], cells[0][1], cells[1][0], cells[1][1]))
        return
    named = {place(game, c, len(after)) for c in cells}
    filled = {(i, j) for i in range(len(after)) for j in range(width)
              if before[i][j] in FREE and after[i][j] not in FREE}
    if not t.ok(named == filled and len(named) == 4,
                '%s: %s fills exactly the cells %s' % (game, last, cells)):
        t.diag('named at (line, char) %s; filled %s' % (sorted(named), sorted(filled)))
    if game in ID_ACTIONS:
        listed = [a['cells'] for a in legal or [] if a['id'] == last]
        t.eq(listed, [cells], '%s: legalActions lists %s with these cells, in this order' % (game, last))


text = open(PAGE).read()
found = blocks(text)
t.eq(sorted(b['game'] for b in found), sorted(GAMES), 'the page has one coords block a game')
d = Daemon(['--agent-check', 'stackfall=off'])
try:
    for b in found:
        try:
            check(d, b)
        except (AssertionError, KeyError, IndexError, ValueError) as e:
            t.ok(False, '%s: the block could be played (%r)' % (b['game'], e))
finally:
    d.stop()
    d.cleanup()
t.done()
