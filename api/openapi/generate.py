#!/usr/bin/env python3
"""Builds openapi.yaml from its hand-written sources in api/openapi/.

The contract repeats, for every game, the same shapes under the game's own
name (its five routes, its run and error answers, its replay, claims, steps,
live view and leaderboard entry). Those shapes are written once, in
game.yaml.in; what a game says differently (its prose, its examples, its
state's fields) is in its fragment, api/<folder>/<game>.yaml in the game's
own folder (<folder> is the name with '-' as '_'); the rest of the
document is the frame openapi.yaml.in and the shared sections it places,
paths.yaml.in, schemas.yaml.in and responses.yaml.in (each from column 0,
with the places where each game's parts go); text that many routes repeat
word for word whatever the game (the headers of a JSON answer, the status
codes any route can answer, the error envelope) is common.yaml.in. README.md beside
this file tells how to edit them. The games and their order are the one
list of games, api/games.txt (the game table's).

The syntax, the same in every source (no YAML is parsed: the sources are
text, and the output is checked by the linter and the contract test):

  ## ...             at column 0: a comment of the source, never written out
  {{game}}           the game's name in routes and values (hatetris)
  {{Game}}           its prefix in schema names and operation ids (Hatetris)
  {{Title}}          its name in prose (HATETRIS)
  {{rules}}          its rules version: a fragment's "#> rules: ...", else {{game}}-v1
  {{name}}           within a line, in a game: the fragment's one-line value
                     "#> name: ..." (its summary for the overview, say)
  {{games}}          anywhere: every game's name, in order, comma-separated
  {{rules_list}}     anywhere: every game's rules version, the same way
  {{match_rules}}    anywhere: every match ruleset's name (a line "<folder>
                     match" of games.txt: <folder>-v1), the same way
  {{NAME}}           alone on a line: the game's block NAME, indented as the
                     placeholder is; {{NAME?}} when a game may have none
  {{>NAME}}          alone on a line: shared block NAME (common.yaml.in,
                     paths.yaml.in, schemas.yaml.in, responses.yaml.in;
                     anywhere) or section NAME of game.yaml.in (for the game
                     in hand), indented as the placeholder is
  {{>NAME A=V ...}}  alone on a line: shared block NAME with its
                     arguments: {{$A}} in the block is V, verbatim (quoted, a
                     [list], or plain text to the next " A=" or the end); a
                     line with {{$A?}} is dropped when A is not given
  - {{>NAME A=V ...}} shared block NAME as an item of a list
  {{#NAME A=V ...}} ... {{/NAME}}  on lines of their own, at one depth:
                     shared block NAME with the lines between where it says
                     {{$body}} ({{#json}}: a JSON answer around its content;
                     {{#object required=[...]}}: a closed object around its
                     properties)
  {{#each}} ... {{/each}}  on lines of their own: the lines between, once per
                     game, in the order of games.txt
  {{#each_match}} ... {{/each_match}}  the same, once per match ruleset that
                     has a fragment (api/<folder>/<folder>.yaml: its own
                     shapes, {{Game}}Match...), in the list's order
  $ref: KIND/NAME    $ref: '#/components/KIND/NAME' (KIND: schemas, responses,
                     parameters, headers), also inside {...}
  'NNN': NAME        alone on a line: the status NNN answered by the component
                     response NAME ('NNN': and $ref: '#/components/responses/NAME')
  {{N * TEXT}}       alone on a line: N lines of TEXT, indented as it is

A fragment's "#> kind: ..." names its kinds (flat, state, seedless): where
it has no block NAME, the block "KIND.NAME" of kinds.yaml.in of the first of
its kinds that has one fills {{NAME}}, else "any.NAME" (not for {{NAME?}}).

Every source but openapi.yaml.in is a list of blocks: a line "#> NAME"
opens block NAME, which runs to the next "#>" line; "#> NAME: VALUE" is a
one-line value. A block's common indentation (its {{#each}} and {{/each}}
lines aside) and its trailing blank lines are dropped, so a block may be
written at any depth. Every block is expanded as it is placed, so a
fragment's block may use the game's names and the shared blocks too.

usage: generate.py [--check] [--out PATH]
  writes openapi.yaml at the top of the repository (or PATH); with --check,
  writes nothing and exits 1, with a summary of the differences, when the
  committed file is not what the sources make.
"""
import argparse
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
API = os.path.dirname(HERE)
ROOT = os.path.dirname(API)

MARKER = re.compile(r'^#> ([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?)(?::(?: (.*))?)?$')
PLACE = re.compile(r'^( *)\{\{(>?)([A-Za-z][A-Za-z0-9_]*)(\??)((?: [a-z]+=.*)?)\}\}$')
# An include's arguments: NAME=VALUE, the value a quoted YAML scalar, a
# flow list, or plain text up to the next " NAME=" or the end; put back
# verbatim where the block says {{$NAME}}.
ARG = re.compile(r' ([a-z]+)=(\'(?:[^\']|\'\')*\'|"(?:[^"\\]|\\.)*"|\[[^\]]*\]'
                 r'|[^ \'"\[](?:(?! [a-z]+=).)*)')
PARAM = re.compile(r'\{\{\$([a-z]+)(\??)\}\}')
# {{#NAME A=V ...}} ... {{/NAME}}: the shared block NAME, its {{$body}} the
# lines between (written at the depth of the two).
WRAP = re.compile(r'^( *)\{\{#((?!each(?:_match)?\}\})[A-Za-z][A-Za-z0-9_]*)((?: [a-z]+=.*)?)\}\}$')
LOOP = ('{{#each}}', '{{/each}}', '{{#each_match}}', '{{/each_match}}')
LOOPS = {'{{#each}}': '{{/each}}', '{{#each_match}}': '{{/each_match}}'}
# - {{>NAME A=V ...}}: the shared block NAME as an item of a list.
ITEM = re.compile(r'^( *)- \{\{>([A-Za-z][A-Za-z0-9_]*)((?: [a-z]+=.*)?)\}\}$')
REPEAT = re.compile(r'^( *)\{\{([1-9][0-9]*) \* (.+)\}\}$')
# A reference to a component by its kind and name, and a status that
# answers a component response by its name alone.
REF = re.compile(r'\$ref: (schemas|responses|parameters|headers)/([A-Za-z0-9_.-]+)')
STATUS = re.compile(r"^( *)'([1-5][0-9][0-9])': ([A-Z][A-Za-z0-9]*)$")
NAMES = ('game', 'Game', 'Title')
# The files of shared blocks, which {{>NAME}} puts anywhere: text many
# places repeat, and the sections of the document that no game repeats,
# each written from column 0.
SHARED = ('common.yaml.in', 'paths.yaml.in', 'schemas.yaml.in', 'responses.yaml.in')
ORIGIN = {}
LISTS = ('games', 'rules_list', 'match_rules')
MATCH_RULES = []  # the match rulesets' names, in the list's order (load)
MATCH_FRAGMENTS = []  # the keys of the rulesets' fragments in fragments (load)
INLINE = re.compile(r'\{\{([A-Za-z][A-Za-z0-9_]*)\}\}')
ANY = re.compile(r'\{\{[^}]*\}\}')


class SourceError(Exception):
    pass


def rules_of(blocks):
    """A game's rules version: its "#> rules: ..." or <game>-v1."""
    return blocks['rules'] if isinstance(blocks.get('rules'), str) else blocks['game'] + '-v1'


def inline(line, here, ctx, game):
    """A line with its inline placeholders put back: the lists of games
    anywhere, a game's names and one-line values inside a game."""
    games, fragments = ctx[0], ctx[1]

    def value(m):
        name = m.group(1)
        if name == 'games':
            return ', '.join(games)
        if name == 'rules_list':
            return ', '.join(rules_of(fragments[g][1]) for g in games)
        if name == 'match_rules':
            return ', '.join(MATCH_RULES)
        if game is None:
            raise SourceError('%s: {{%s}} outside {{#each}}' % (here, name))
        path, blocks = fragments[game]
        if name == 'rules':
            return rules_of(blocks)
        if isinstance(blocks.get(name), str):
            return blocks[name]
        raise SourceError('%s: %s has no one-line value %s' % (here, os.path.relpath(path, ROOT), name))

    return INLINE.sub(value, line)


def read_lines(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if text and not text.endswith('\n'):
        text += '\n'
    # Source comments go first, so that a block never holds one.
    return [line for line in text.split('\n')[:-1] if not line.startswith('##')]


def dedent(lines):
    """A block from column 0; its {{#each}} and {{/each}} lines, which may
    stand at column 0 in any block, do not count."""
    while lines and not lines[-1].strip():
        lines.pop()
    depth = min((len(l) - len(l.lstrip(' ')) for l in lines if l.strip() and l.strip() not in LOOP), default=0)
    return [l.strip() if l.strip() in LOOP else l[depth:] if l.strip() else '' for l in lines]


def read_blocks(path):
    """The blocks and one-line values of a block file, by name."""
    blocks = {}
    name, body = None, []

    def close():
        if name is not None:
            blocks[name] = dedent(body)

    for number, line in enumerate(read_lines(path), 1):
        m = MARKER.match(line)
        if m:
            close()
            name, body = None, []
            if m.group(1) in blocks:
                raise SourceError('%s:%d: block %s twice' % (path, number, m.group(1)))
            if m.group(2) is not None:
                blocks[m.group(1)] = m.group(2)
            else:
                name = m.group(1)
            continue
        if line.startswith('#>'):
            raise SourceError('%s:%d: a "#>" line must be "#> NAME" or "#> NAME: VALUE"' % (path, number))
        if name is not None:
            body.append(line)
        elif line.strip() and not line.startswith('#'):
            raise SourceError('%s:%d: text outside a block' % (path, number))
    close()
    return blocks


def load():
    games = []
    with open(os.path.join(API, 'games.txt'), encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            # "<folder> match" is a match ruleset: its contract is the
            # shared sections' (the match routes), not a game's fragment;
            # its name is <folder>-v1 ({{match_rules}}).
            if line and len(line.split()) == 1:
                games.append(line)
            elif line.split()[1:] == ['match'] and line.split()[0] + '-v1' not in MATCH_RULES:
                MATCH_RULES.append(line.split()[0] + '-v1')
                # A ruleset's own shapes, where they are not versus's (the
                # shared ones): its fragment, when it has one.
                path = os.path.join(API, line.split()[0], line.split()[0] + '.yaml')
                if os.path.exists(path):
                    MATCH_FRAGMENTS.append((line.split()[0], path))
    if not games or len(set(games)) != len(games):
        raise SourceError('games.txt: no games, or one twice')
    fragments = {}
    for g in games:
        path = os.path.join(API, g.replace('-', '_'), g + '.yaml')
        blocks = read_blocks(path)
        for n in NAMES:
            if not isinstance(blocks.get(n), str) or not blocks[n]:
                raise SourceError('%s: needs the one-line value "#> %s: ..."' % (path, n))
        if blocks['game'] != g:
            raise SourceError('%s: "#> game: %s" names another game' % (path, blocks['game']))
        fragments[g] = (path, blocks)
    for folder, path in list(MATCH_FRAGMENTS):
        blocks = read_blocks(path)
        for n in NAMES:
            if not isinstance(blocks.get(n), str) or not blocks[n]:
                raise SourceError('%s: needs the one-line value "#> %s: ..."' % (path, n))
        fragments['match:' + folder] = (path, blocks)
    MATCH_FRAGMENTS[:] = ['match:' + folder for folder, _ in MATCH_FRAGMENTS]
    sections = read_blocks(os.path.join(HERE, 'game.yaml.in'))
    common = {}
    for name in SHARED:
        for block, body in read_blocks(os.path.join(HERE, name)).items():
            if block in common:
                raise SourceError('%s and %s both have %s' % (ORIGIN[block], name, block))
            common[block], ORIGIN[block] = body, name
    kinds = read_blocks(os.path.join(HERE, 'kinds.yaml.in'))
    declared = {k for _, b in fragments.values() for k in b.get('kind', '').split()} | {'any'}
    for name in kinds:
        if '.' not in name or name.split('.')[0] not in declared or isinstance(kinds[name], str):
            raise SourceError('kinds.yaml.in: %s is not "#> KIND.NAME" of a kind a fragment declares, or any' % name)
    both = sorted(set(sections) & set(common))
    if both:
        raise SourceError('game.yaml.in and %s both have %s' % (ORIGIN[both[0]], ', '.join(both)))
    document = read_lines(os.path.join(HERE, 'openapi.yaml.in'))
    return games, fragments, sections, common, kinds, document


def render(lines, where, ctx, game=None, depth=0):
    """The lines of a template, expanded; ctx is (games, fragments, sections,
    shared blocks, kinds)."""
    games, fragments, sections, common, kinds = ctx
    if depth > 8:
        raise SourceError('%s: sections include each other too deep' % where)
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        here = '%s (line %d)' % (where, i + 1)
        if line.strip() in LOOPS:
            opening, closing = line.strip(), LOOPS[line.strip()]
            if game is not None:
                raise SourceError('%s: %s inside a game' % (here, opening))
            end = i + 1
            while end < len(lines) and lines[end].strip() != closing:
                if lines[end].strip() in LOOPS:
                    raise SourceError('%s: a loop inside %s' % (here, opening))
                end += 1
            if end == len(lines):
                raise SourceError('%s: %s without %s' % (here, opening, closing))
            for g in (games if opening == '{{#each}}' else MATCH_FRAGMENTS):
                out += render(lines[i + 1:end], where, ctx, g, depth)
            i = end + 1
            continue
        if line.strip() in LOOPS.values():
            raise SourceError('%s: %s without its opening line' % (here, line.strip()))
        m = WRAP.match(line)
        if m:
            indent, name, given = m.groups()
            if name not in common:
                raise SourceError('%s: no shared block %s to wrap lines in' % (here, name))
            end = next((j for j in range(i + 1, len(lines)) if lines[j] == indent + '{{/%s}}' % name), None)
            if end is None:
                raise SourceError('%s: {{#%s}} without {{/%s}} under it' % (here, name, name))
            inner = lines[i + 1:end]
            if any(l.strip() and not l.startswith(indent) and l not in LOOP for l in inner):
                raise SourceError('%s: a line between {{#%s}} and {{/%s}} left of them' % (here, name, name))
            args = arguments(given, here)
            args['body'] = [l if l in LOOP else l[len(indent):] for l in inner]
            body = shared(name, args, here, ctx, game, depth)
            out += [indent + l if l else '' for l in body]
            i = end + 1
            continue
        if line.strip().startswith('{{/'):
            raise SourceError('%s: %s without its opening line' % (here, line.strip()))
        m = ITEM.match(line)
        if m:
            indent, name, given = m.groups()
            if name not in common:
                raise SourceError('%s: no shared block %s to put as an item' % (here, name))
            body = shared(name, arguments(given, here), here, ctx, game, depth)
            out += [indent + ('- ' if k == 0 else '  ') + l if l else '' for k, l in enumerate(body)]
            i += 1
            continue
        m = PLACE.match(line)
        if m and not m.group(2) and (m.group(3) in LISTS or m.group(3) == 'rules' or (
                game is not None and isinstance(fragments[game][1].get(m.group(3)), str))):
            m = None  # a one-line value alone on its line
        if m and m.group(3) not in NAMES:
            indent, include, name, optional, given = m.groups()
            if given and not (include and name in common):
                raise SourceError('%s: only a shared block (common.yaml.in...) takes arguments' % here)
            if include and name in common:
                body = shared(name, arguments(given, here), here, ctx, game, depth)
                out += [indent + l if l else '' for l in body]
                i += 1
                continue
            if game is None:
                raise SourceError('%s: {{%s%s}} outside {{#each}}' % (here, include, name))
            path, blocks = fragments[game]
            if include:
                if name not in sections or isinstance(sections[name], str):
                    raise SourceError('%s: neither game.yaml.in nor a shared file (%s) has %s'
                                      % (here, ', '.join(SHARED), name))
                body = render(sections[name], 'game.yaml.in section ' + name, ctx, game, depth + 1)
            elif name in blocks and not isinstance(blocks[name], str):
                body = render(blocks[name], '%s block %s' % (os.path.relpath(path, ROOT), name),
                              ctx, game, depth + 1)
            elif any(k + '.' + name in kinds for k in blocks.get('kind', '').split()
                     + ([] if optional else ['any'])):
                # The first of the game's kinds that says it, else what
                # every game says unless its fragment says otherwise (not
                # in a place some games leave empty).
                key = next(k + '.' + name for k in blocks.get('kind', '').split() + ['any']
                           if k + '.' + name in kinds)
                body = render(kinds[key], 'kinds.yaml.in block ' + key, ctx, game, depth + 1)
            elif optional:
                body = []
            else:
                raise SourceError('%s: %s has no block %s' % (here, os.path.relpath(path, ROOT), name))
            out += [indent + l if l else '' for l in body]
            i += 1
            continue
        m = REPEAT.match(line)
        if m:
            out += [m.group(1) + inline(m.group(3), here, ctx, game)] * int(m.group(2))
            i += 1
            continue
        line = REF.sub(r"$ref: '#/components/\1/\2'", inline(line, here, ctx, game))
        left = ANY.search(line)
        if left:
            raise SourceError('%s: %s here is not a placeholder' % (here, left.group(0)))
        m = STATUS.match(line)
        if m:
            out += ["%s'%s':" % m.group(1, 2), "%s  $ref: '#/components/responses/%s'" % m.group(1, 3)]
        else:
            out.append(line)
        i += 1
    return out


def shared(name, args, here, ctx, game, depth):
    """Shared block NAME with its arguments put in, expanded."""
    origin = '%s block %s' % (ORIGIN[name], name)
    return render(bind(ctx[3][name], args, origin, here), origin, ctx, game, depth + 1)


def arguments(given, here):
    """The arguments of an include, ' NAME=VALUE' after its name, by name."""
    args = {}
    for m in ARG.finditer(given):
        if m.group(1) in args:
            raise SourceError('%s: argument %s twice' % (here, m.group(1)))
        args[m.group(1)] = m.group(2)
    if ''.join(m.group(0) for m in ARG.finditer(given)) != given:
        raise SourceError('%s: arguments must be NAME=VALUE, the value quoted, a [list] or plain text' % here)
    return args


def bind(lines, args, where, here):
    """A block's lines with its include's arguments put in: {{$NAME}} is
    argument NAME, which the include must give; a line with {{$NAME?}} is
    dropped when it does not. Every argument given must be used."""
    out, used = [], set()
    for line in lines:
        if line.strip() == '{{$body}}' and 'body' in args:
            # The lines a {{#NAME}} ... {{/NAME}} wraps, where the block says.
            depth = line.index('{')
            out += [l if l in LOOP or not l else ' ' * depth + l for l in args['body']]
            used.add('body')
            continue
        names = PARAM.findall(line)
        missing = [n for n, opt in names if n not in args and not opt]
        if missing:
            raise SourceError('%s: %s needs the argument %s' % (here, where, missing[0]))
        if any(n not in args for n, _ in names):
            continue
        used.update(n for n, _ in names)
        out.append(PARAM.sub(lambda m: args[m.group(1)], line))
    unused = sorted(set(args) - used)
    if unused:
        raise SourceError('%s: %s takes no argument %s' % (here, where, ', '.join(unused)))
    return out


def generate():
    games, fragments, sections, common, kinds, document = load()
    ctx = (games, fragments, sections, common, kinds)
    # Every block of a fragment must be used: a misspelt name would
    # otherwise drop a game's text without a word.
    used = set()
    placeholder = re.compile(r'^ *\{\{(>?)([A-Za-z][A-Za-z0-9_]*)\??(?: [a-z]+=.*)?\}\}$')
    bodies = [document] + [b for b in sections.values() if not isinstance(b, str)]
    bodies += [b for b in common.values() if not isinstance(b, str)]
    bodies += list(kinds.values())
    for _, blocks in fragments.values():
        bodies += [b for b in blocks.values() if not isinstance(b, str)]
    for body in bodies:
        for line in body:
            m = placeholder.match(line)
            if m:
                used.add(m.group(1) + m.group(2))
            m = WRAP.match(line)
            if m:
                used.add('>' + m.group(2))
            m = ITEM.match(line)
            if m:
                used.add('>' + m.group(2))
    unused = sorted(n for n in kinds if n.split('.', 1)[1] not in used)
    if unused:
        raise SourceError('kinds.yaml.in: no source has a place for block(s) %s' % ', '.join(unused))
    unused = sorted(n for n, b in common.items() if not isinstance(b, str) and '>' + n not in used)
    if unused:
        raise SourceError('%s: no source uses block(s) %s' % (ORIGIN[unused[0]], ', '.join(unused)))
    words = set()
    for body in bodies:
        for line in body:
            words.update(INLINE.findall(line))
    for g in games + MATCH_FRAGMENTS:
        path, blocks = fragments[g]
        unused = sorted(n for n, b in blocks.items() if isinstance(b, str) and n not in NAMES
                        and n not in ('rules', 'kind') and n not in words)
        if unused:
            raise SourceError('%s: no source uses the one-line value(s) %s'
                              % (os.path.relpath(path, ROOT), ', '.join(unused)))
        unused = sorted(n for n, b in blocks.items() if not isinstance(b, str) and n not in used)
        if unused:
            raise SourceError('%s: no source uses block(s) %s' % (os.path.relpath(path, ROOT), ', '.join(unused)))
    return '\n'.join(render(document, 'openapi.yaml.in', ctx)) + '\n'


def main():
    ap = argparse.ArgumentParser(description='Build openapi.yaml from api/openapi/.')
    ap.add_argument('--check', action='store_true',
                    help='exit 1 when the committed openapi.yaml differs from the generated one')
    ap.add_argument('--out', default=os.path.join(ROOT, 'openapi.yaml'))
    args = ap.parse_args()
    try:
        text = generate()
    except (SourceError, OSError) as e:
        print('generate.py: %s' % e, file=sys.stderr)
        return 2
    try:
        with open(args.out, encoding='utf-8') as f:
            old = f.read()
    except FileNotFoundError:
        old = None
    if args.check:
        if old == text:
            print('%s is what api/openapi/ makes (%d bytes)' % (os.path.relpath(args.out), len(text.encode())))
            return 0
        diff = list(difflib.unified_diff((old or '').splitlines(), text.splitlines(),
                                         'openapi.yaml (committed)', 'openapi.yaml (generated)', lineterm='', n=1))
        changed = sum(1 for l in diff if l[:1] in '+-' and l[:3] not in ('+++', '---'))
        print('%s differs from what api/openapi/ makes: %d lines changed; run python3 api/openapi/generate.py'
              % (os.path.relpath(args.out), changed))
        for l in diff[:40]:
            print('  ' + l)
        if len(diff) > 40:
            print('  ... (%d more diff lines)' % (len(diff) - 40))
        return 1
    if old != text:
        with open(args.out, 'w', encoding='utf-8') as f:
            f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
