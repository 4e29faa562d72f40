"""What legitimately differs between two recordings of the golden session,
replaced by fixed placeholders (drive.py applies it to every exchange).

The normaliser is stateful: an id or a token becomes a placeholder numbered
by its first appearance in the session (`<run:3>`, `<stateToken:41>`), so
the corpus still shows which answers name the same run or hand back the
very token that was sent, while the random values themselves are gone.

What is replaced, and why it varies:

- run and match ids: random integers drawn when stored (docs/api.md,
  runId); registered from the fields that carry them, then replaced
  wherever their digits stand alone (paths, cursors, MCP text blocks);
- a run's handle (MCP, `<run:3>-k3f9q2ab`): its tag is keyed by the
  daemon's pepper, new in every recording;
- agent keys (`arcd_...`) and their public key ids: random;
- stateTokens (`v4.local...`): sealed with a random nonce;
- result certificates (`v4.public...`): signed over claims holding the
  ids and `iat`; the token is replaced by its claims and footer, decoded
  and normalised (the signature itself is dropped);
- the daemon's key ids and public keys (`k4.pid`, `k4.lid`,
  `k4.public`): a new key file per daemon;
- agent-check puzzles: the text is random, the token random, and
  `expires_in` counts down;
- times (ISO 8601 text, fields named like times) and durations
  (`deadline_in_ms`, `expires_in`, a rate limit's `seconds`);
- list pages ordered by a time and then by a random id (an account's runs
  and matches, the open matches) or by figures and then by a random id
  (leaderboards): entries that tie on what the answer shows of the time
  (seconds), or on every ranked figure, are put in the order of their ids'
  first appearance (newest first for the lists by time), and a cursor's
  time (milliseconds) is replaced.

Game content (boards, pieces, scores, legal actions, replays' actions and
finals, hashes of replays) is never touched.
"""
import base64
import json
import re

TIME_RE = re.compile(r'\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?')
STATE_TOKEN_RE = re.compile(r'v4\.local\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?')
CERT_RE = re.compile(r'v4\.public\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?')
PASERK_RE = re.compile(r'k4\.(?:pid|lid|public|local)\.[A-Za-z0-9_-]+')
AGENT_KEY_RE = re.compile(r'arcd_[0-9a-z]{16}_[0-9a-z]{32}[0-9a-z]{8}|arcd_[0-9A-Za-z_]+')
PUZZLE_TOKEN_RE = re.compile(r'ac_[A-Za-z0-9_-]{32}')
# Inside text: a puzzle as the MCP text block writes it, and the JSON text
# of a route's answer that an MCP tool repeats as text.
TEXT_PUZZLE_RE = re.compile(r'agent check: .*? -- answer with')
JSON_PUZZLE_RE = re.compile(r'"puzzle": ?"(?:[^"\\]|\\.)*"')
JSON_DURATION_RE = re.compile(r'"(deadline_in_ms|expires_in)": ?[0-9]+')
# A cursor's time: milliseconds since 1970 (a page's `next`, a `before=`).
EPOCH_MS_RE = re.compile(r'(?<![0-9])1[0-9]{12}(?=\.)')
DIGITS_RE = re.compile(r'(?<![0-9])[0-9]{4,16}(?![0-9])')
# A run's handle (MCP): its id, already a placeholder, then a tag keyed by
# the daemon's pepper, which is new in every recording.
HANDLE_RE = re.compile(r'(<run:[0-9]+>)-[0-9a-z]{8}(?![0-9a-z])')

# Fields that hold a run's or a match's id (as decimal text, or a number).
RUN_FIELDS = {'runId', 'run', 'run_id'}
MATCH_FIELDS = {'match_id', 'matchId', 'match'}
KEY_ID_FIELDS = {'keyId'}
TIME_FIELDS = {'createdAt', 'endedAt', 'finishedAt', 'revokedAt', 'created_at', 'started_at',
               'finished_at', 'deadline', 'iat', 'exp', 'nbf', 'at', 'date', 'time', 'updatedAt',
               'expiresAt', 'expires_at'}
DURATION_FIELDS = {'deadline_in_ms', 'expires_in'}


def _b64url(s):
    return base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))


class Normaliser:
    def __init__(self):
        self.maps = {}      # kind -> {raw value: placeholder}
        self.ids = {}       # digits of a registered run or match id -> placeholder

    def _name(self, kind, raw):
        m = self.maps.setdefault(kind, {})
        if raw not in m:
            m[raw] = '<%s:%d>' % (kind, len(m) + 1)
        return m[raw]

    # ---- registration: the ids that appear in an answer's id fields ----

    def register(self, v, parent=None):
        if isinstance(v, dict):
            for k, x in v.items():
                if k in RUN_FIELDS | MATCH_FIELDS and isinstance(x, (str, int)) and not isinstance(x, bool):
                    s = str(x)
                    if s.isdigit():
                        kind = 'run' if k in RUN_FIELDS else 'match'
                        self.ids.setdefault(s, self._name(kind, s))
                elif k in KEY_ID_FIELDS and isinstance(x, str):
                    self._name('keyId', x)
                elif k == 'id' and parent == 'keys' and isinstance(x, str):
                    self._name('keyId', x)
                self.register(x, k)
        elif isinstance(v, list):
            for x in v:
                self.register(x, parent)
        elif isinstance(v, str):
            for m in AGENT_KEY_RE.finditer(v):
                self._name('agentKey', m.group(0))
            # a certificate's claims name its run and match
            for m in CERT_RE.finditer(v):
                claims = self._cert_claims(m.group(0))
                if isinstance(claims, dict):
                    self.register(claims)

    # ---- replacement ----

    def _cert_claims(self, tok):
        parts = tok.split('.')
        try:
            body = _b64url(parts[2])
            return json.loads(body[:-64].decode())
        except (ValueError, IndexError, UnicodeDecodeError):
            return None

    def _cert(self, m):
        tok = m.group(0)
        parts = tok.split('.')
        claims = self._cert_claims(tok)
        footer = None
        if len(parts) > 3:
            try:
                footer = json.loads(_b64url(parts[3]).decode())
            except (ValueError, UnicodeDecodeError):
                footer = '<undecodable>'
        if claims is None:
            return '<v4.public:undecodable>'
        text = json.dumps({'claims': self.value(claims), 'footer': self.value(footer)},
                          sort_keys=True, separators=(',', ':'))
        return '<v4.public %s>' % text

    def text(self, s):
        """Placeholders inside one string (paths, bodies, text blocks)."""
        s = CERT_RE.sub(self._cert, s)
        s = STATE_TOKEN_RE.sub(lambda m: self._name('stateToken', m.group(0)), s)
        s = PASERK_RE.sub(lambda m: self._name(m.group(0)[:6], m.group(0)), s)
        s = AGENT_KEY_RE.sub(lambda m: self._name('agentKey', m.group(0)), s)
        s = PUZZLE_TOKEN_RE.sub(lambda m: self._name('ac', m.group(0)), s)
        s = TIME_RE.sub('<time>', s)
        s = TEXT_PUZZLE_RE.sub('agent check: <puzzle> -- answer with', s)
        s = JSON_PUZZLE_RE.sub('"puzzle":"<puzzle>"', s)
        s = JSON_DURATION_RE.sub(lambda m: '"%s":"<duration>"' % m.group(1), s)
        s = EPOCH_MS_RE.sub('<ms>', s)
        s = DIGITS_RE.sub(lambda m: self.ids.get(m.group(0), m.group(0)), s)
        s = HANDLE_RE.sub(r'\1-<handle>', s)
        for raw, name in self.maps.get('keyId', {}).items():
            if raw in s:
                s = s.replace(raw, name)
        return s

    def value(self, v, key=None):
        if isinstance(v, dict):
            out = {}
            for k, x in v.items():
                if k == 'puzzle' and isinstance(x, str):
                    out[k] = '<puzzle>'
                elif k in TIME_FIELDS and x is not None and not isinstance(x, (dict, list, bool)):
                    out[k] = '<time>'
                elif k in DURATION_FIELDS and isinstance(x, (int, float)) and not isinstance(x, bool):
                    out[k] = '<duration>'
                elif k == 'seconds' and key in ('ratelimit', 'quota') and isinstance(x, int):
                    out[k] = '<duration>'
                elif k in RUN_FIELDS | MATCH_FIELDS and isinstance(x, int) and not isinstance(x, bool) \
                        and str(x) in self.ids:
                    out[k] = self.ids[str(x)]
                else:
                    out[k] = self.value(x, k)
            return out
        if isinstance(v, list):
            return [self.value(x, key) for x in v]
        if isinstance(v, str):
            return self.text(v)
        return v

    # ---- list pages whose order between ties is random ----

    def _order(self, entry):
        for k in ('runId', 'run', 'match_id'):
            x = entry.get(k)
            if isinstance(x, str) and x in self.ids:
                return int(self.ids[x].rsplit(':', 1)[1].rstrip('>'))
        return 0

    def untie(self, entries, keyf, newest_first=False):
        """Reorders runs of consecutive entries whose keyf ties by the
        first appearance of their ids (the last first when newest_first),
        keeping each position's rank."""
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            return entries
        out, i = [], 0
        while i < len(entries):
            j = i + 1
            while j < len(entries) and keyf(entries[i]) is not None and keyf(entries[j]) == keyf(entries[i]):
                j += 1
            group = entries[i:j]
            ranks = [e.get('rank') for e in group]
            group = sorted(group, key=self._order, reverse=newest_first)
            if any(r is not None for r in ranks):
                group = [dict(e, rank=r) for e, r in zip(group, ranks)]
            out += group
            i = j
        return out

    def lists(self, path, answer):
        """The list pages of path, ties put in a fixed order (before the
        ids in them are replaced)."""
        if not isinstance(answer, dict):
            return answer
        p = path.split('?', 1)[0]
        if p == '/mcp':
            return self.mcp_lists(answer)
        # Runs and matches are listed by their creation in milliseconds
        # (the cursor shows it), then by id; the answer shows seconds. The
        # first appearance of an id follows creation, so ordering a tie of
        # seconds newest first gives the daemon's own order whenever the
        # milliseconds differ, and a fixed one when they do not.
        by_created = lambda e: e.get('createdAt', e.get('created_at'))
        if p.endswith('/leaderboard') and 'entries' in answer:
            figures = lambda e: tuple((k, json.dumps(v, sort_keys=True)) for k, v in sorted(e.items())
                                      if k not in ('rank', 'runId', 'account', 'endedAt', 'seed'))
            answer = dict(answer, entries=self.untie(answer['entries'], figures))
        for field in ('runs', 'matches'):
            if isinstance(answer.get(field), list):
                answer = dict(answer, **{field: self.untie(answer[field], by_created, True)})
        return answer

    def mcp_lists(self, answer):
        """The leaderboard tool's answer: its structuredContent and its
        text block (the same JSON as text, rewritten only when it reads
        back to the very same text)."""
        res = answer.get('result')
        sc = res.get('structuredContent') if isinstance(res, dict) else None
        if not isinstance(sc, dict) or not isinstance(sc.get('entries'), list):
            return answer
        res = dict(res, structuredContent=self.lists('/leaderboard', sc))
        blocks = []
        for b in res.get('content') or []:
            if isinstance(b, dict) and isinstance(b.get('text'), str):
                try:
                    doc = json.loads(b['text'])
                except ValueError:
                    doc = None
                if isinstance(doc, dict) and \
                        json.dumps(doc, separators=(',', ':'), ensure_ascii=False) == b['text']:
                    b = dict(b, text=json.dumps(self.lists('/leaderboard', doc), separators=(',', ':'),
                                                ensure_ascii=False))
            blocks.append(b)
        res['content'] = blocks
        return dict(answer, result=res)

    def exchange(self, ex):
        """One exchange, normalised (the answer's ids registered first)."""
        self.register(ex.get('answer'))
        answer = self.lists(ex['path'], ex.get('answer'))
        out = dict(ex)
        out['path'] = self.text(ex['path'])
        out['headers'] = self.value(ex.get('headers') or {})
        out['body'] = self.value(ex.get('body'))
        out['answer_headers'] = self.value(ex.get('answer_headers') or {})
        out['answer'] = self.value(answer)
        if 'answer_text' in ex:
            out['answer_text'] = self.text(ex['answer_text'])
        return out
