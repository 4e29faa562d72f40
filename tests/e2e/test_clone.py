"""A game is its own folders: one copied under a new name is a new game.

This test copies the source tree into a scratch folder, copies Stackcraft's
two folders (engine/stackcraft/ and api/stackcraft/: its rules, its adapter
and its contract fragment) to engine/blockcraft/ and api/blockcraft/ with
every file and identifier renamed, adds the one line `blockcraft` to
api/games.txt, and touches nothing else. Then it generates the contract,
builds the daemon and serves the new game: listed, its rules, an init, an
action, a finish with its certificate, and its replay verified. If adding
a game takes an edit anywhere else, this test fails at the step that
needed it (docs/architecture.md, "Adding a game").

It builds the daemon once more (about half a minute on two cores), so it
is in the e2e suite on SQLite only.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from harness import Daemon, Tap, checked, copy_source_tree

OLD, NEW = 'stackcraft', 'blockcraft'
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

t = Tap()


def renamed(text):
    return text.replace(OLD, NEW).replace(OLD.capitalize(), NEW.capitalize()).replace(OLD.upper(), NEW.upper())


def copy_game(src_root, dst_root, layer):
    """engine/stackcraft -> engine/blockcraft (or api/), names and contents
    renamed; returns the files written."""
    src = os.path.join(src_root, layer, OLD)
    written = []
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding='utf-8') as f:
            text = f.read()
        out = os.path.join(dst_root, layer, NEW, renamed(name))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, 'w', encoding='utf-8') as f:
            f.write(renamed(text))
        written.append(os.path.relpath(out, dst_root))
    return written


def run(cmd, cwd, timeout=900):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        t.diag('$ %s\n%s%s' % (' '.join(cmd), p.stdout[-4000:], p.stderr[-4000:]))
    return p.returncode == 0


def main():
    scratch = tempfile.mkdtemp(prefix='arcaded-clone-')
    try:
        tree = os.path.join(scratch, 'src')
        copy_source_tree(ROOT, tree)
        added = copy_game(ROOT, tree, 'engine') + copy_game(ROOT, tree, 'api')
        with open(os.path.join(tree, 'api', 'games.txt'), 'a', encoding='utf-8') as f:
            f.write(NEW + '\n')
        t.ok(any(a.endswith('.c') for a in added) and
             os.path.exists(os.path.join(tree, 'api', NEW, NEW + '.yaml')),
             'the copy: %s' % ', '.join(added))

        # The contract comes from the list and the fragment.
        ok = run([sys.executable, 'api/openapi/generate.py'], tree)
        contract = ''
        if ok:
            with open(os.path.join(tree, 'openapi.yaml'), encoding='utf-8') as f:
                contract = f.read()
        t.ok(ok and '/api/games/%s/init:' % NEW in contract and '/api/games/%s/init:' % OLD in contract,
             'the contract is generated with the new game\'s routes beside the old')

        build = os.path.join(scratch, 'build')
        ok = run(['meson', 'setup', build, tree], scratch) and \
            run(['ninja', '-C', build, 'server/arcaded'], scratch)
        binary = os.path.join(build, 'server', 'arcaded')
        if not t.ok(ok and os.access(binary, os.X_OK), 'the tree with one more line builds the daemon'):
            return
        os.environ['ARCADED'] = binary
        serve(binary)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def serve(binary):
    d = Daemon()
    try:
        games = d.get('/api/games').json
        names = [g['name'] for g in games.get('games', [])] if isinstance(games, dict) else []
        t.ok(names[-1:] == [NEW] and OLD in names, 'GET /api/games lists %s last (%s)' % (NEW, ', '.join(names)))
        rules = d.get('/api/games/%s/rules' % NEW)
        t.ok(rules.status == 200 and rules.json.get('rules') == NEW + '-v1',
             'its rules answer, rules version %s-v1' % NEW)
        base = '/api/games/%s/' % NEW
        r = d.post(base + 'init', {'seed': 7, 'cap': 1})
        t.ok(r.status == 200 and r.json.get('game') == NEW and r.json.get('stateToken'),
             'init: a run of %s with a cap of one piece' % NEW)
        if r.status != 200:
            return
        legal = r.json.get('legalActions') or r.json.get('state', {}).get('legalActions') or []
        first = legal[0]['id'] if legal and isinstance(legal[0], dict) else (legal[0] if legal else None)
        a = d.post(base + 'action', {'stateToken': r.json['stateToken'], 'action': first},
                   headers=checked(d, r))
        t.ok(a.status == 200 and a.json.get('game') == NEW, 'an action: the first legal one, %s' % first)
        if a.status != 200:
            return
        f = d.post(base + 'finish', {'stateToken': a.json['stateToken'], 'rating': 8,
                                     'review': 'Cloned and played.'}, headers=checked(d, a))
        t.ok(f.status == 200 and str(f.json.get('certificate', '')).startswith('v4.public.'),
             'finish: the capped run is over and gets a certificate')
        if f.status != 200:
            return
        page = d.get(base + 'runs/' + a.json['runId'])
        rep = page.json.get('replay') if page.status == 200 else None
        v = d.post(base + 'replays/verify', {'replay': rep, 'certificate': f.json['certificate']})
        t.ok(v.status == 200 and v.json.get('valid') is True and v.json.get('game') == NEW and
             v.json['certificate']['valid'] is True,
             'its replay and certificate verify (%s actions)' % (v.json or {}).get('actions'))
        other = d.post('/api/games/%s/replays/verify' % OLD, rep)
        t.ok(other.status in (400, 422) and other.json.get('valid') is not True,
             'the replay is %s\'s alone: the game it was copied from refuses it' % NEW)
    finally:
        d.cleanup()


main()
t.done()
