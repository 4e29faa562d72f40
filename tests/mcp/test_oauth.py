#!/usr/bin/env python3
"""OAuth for /mcp end to end, as TAP (suite e2e; docs/mcp.md, "Connectors
and OAuth").

Starts the real daemon (tests/e2e/harness.py) and:

- runs oauth_client.mjs, the official TypeScript SDK's client-side OAuth
  (auth(), an OAuthClientProvider, StreamableHTTPClientTransport with
  authProvider, finishAuth): discovery from a 401, registration, consent
  with an agent key made through the API, the code exchanged, my_runs as
  the account, then the key revoked and the next call refused (401 with
  WWW-Authenticate);
- with raw HTTP: the metadata documents, the refusals (a wrong
  code_verifier, a redirect_uri not registered, a code used twice, a
  token for another resource, a forged and a tampered token, PKCE
  missing, another resource asked for, a client not registered, a form
  posted from another site, a bad redirect URI at registration), an
  account made on the consent page, a refresh, and the static agent key
  still working beside the tokens.

The SDK missing (npm ci --prefix tests/mcp) is a failure, never a skip.
"""
import base64
import hashlib
import json
import os
import re
import subprocess
import urllib.parse

from harness import Daemon, Tap

HERE = os.path.dirname(os.path.abspath(__file__))
REDIRECT = 'http://127.0.0.1:9/callback'
FORM = {'Content-Type': 'application/x-www-form-urlencoded'}

tap = Tap()

if not os.path.isdir(os.path.join(HERE, 'node_modules', '@modelcontextprotocol', 'sdk')):
    tap.ok(False, '@modelcontextprotocol/sdk is installed (npm ci --prefix tests/mcp; ./dev test does it)')
    tap.done()

d = Daemon()
base = d.base
resource = base + '/mcp'


def form(path, fields, headers=None):
    h = dict(FORM)
    h.update(headers or {})
    return d.post(path, raw=urllib.parse.urlencode(fields).encode(), headers=h)


def account(name):
    r = d.post('/api/v1/accounts', {'name': name})
    return r.json['agentKey']


def pkce():
    verifier = base64.urlsafe_b64encode(os.urandom(40)).rstrip(b'=').decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b'=').decode()
    return verifier, challenge


def register(uris=(REDIRECT,), headers=None):
    return d.post('/oauth/register', {'redirect_uris': list(uris), 'client_name': 'raw client'},
                  headers=headers)


def authorize(client_id, challenge, headers=None, **extra):
    q = {'response_type': 'code', 'client_id': client_id, 'redirect_uri': REDIRECT,
         'code_challenge': challenge, 'code_challenge_method': 'S256', 'state': 'st',
         'resource': resource}
    q.update(extra)
    q = {k: v for k, v in q.items() if v is not None}
    return d.get('/oauth/authorize?' + urllib.parse.urlencode(q), headers=headers)


def sealed_request(page):
    m = re.search(r'name="request" value="([^"]+)"', page.body)
    return m.group(1) if m else None


def location(r):
    loc = r.header('Location') or ''
    return urllib.parse.urlparse(loc), dict(urllib.parse.parse_qsl(urllib.parse.urlparse(loc).query))


def code_for(key, client_id, challenge, headers=None):
    page = authorize(client_id, challenge, headers=headers)
    r = form('/oauth/authorize', {'request': sealed_request(page) or '', 'agent_key': key,
                                  'action': 'key'}, headers=headers)
    return location(r)[1].get('code')


def exchange(client_id, code, verifier, headers=None, **extra):
    f = {'grant_type': 'authorization_code', 'client_id': client_id, 'code': code,
         'code_verifier': verifier, 'redirect_uri': REDIRECT, 'resource': resource}
    f.update(extra)
    return form('/oauth/token', {k: v for k, v in f.items() if v is not None}, headers=headers)


def mcp(token, tool='my_runs', args=None):
    body = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
            'params': {'name': tool, 'arguments': args or {'game': 'duskcourt'}}}
    return d.post('/mcp', body, headers={'Authorization': 'Bearer ' + token,
                                         'Accept': 'application/json, text/event-stream'})


# ---- the SDK's client ----

key = account('oauth_sdk')
p = subprocess.run(['node', os.path.join(HERE, 'oauth_client.mjs'), resource, key, REDIRECT],
                   capture_output=True, text=True, timeout=120, cwd=HERE,
                   env=dict(os.environ, ACCOUNT='oauth_sdk'))
try:
    sdk = json.loads(p.stdout.strip().splitlines()[-1])
except (ValueError, IndexError):
    sdk = {'checks': [{'ok': False, 'name': 'oauth_client.mjs printed its report (exit %d): %s' %
                       (p.returncode, p.stderr[-2000:])}]}
for c in sdk['checks']:
    tap.ok(c['ok'], 'sdk: ' + c['name'])
if p.stderr.strip():
    tap.diag(p.stderr.strip()[-2000:])
if sdk.get('run'):
    r = d.get('/api/runs/%s' % sdk['run'])
    tap.ok(r.status == 200 and r.json.get('account') == 'oauth_sdk',
           'the run started with the access token is the account\'s on the plain routes')

# ---- metadata ----

r = d.get('/.well-known/oauth-protected-resource/mcp')
r2 = d.get('/.well-known/oauth-protected-resource')
tap.ok(r.status == 200 and r.json['resource'] == resource and r.json['authorization_servers'] == [base]
       and r2.json == r.json, 'protected resource metadata (RFC 9728), at both paths')
r = d.get('/.well-known/oauth-authorization-server')
m = r.json
tap.ok(r.status == 200 and m['issuer'] == base and m['code_challenge_methods_supported'] == ['S256'] and
       m['registration_endpoint'] == base + '/oauth/register' and
       m['token_endpoint_auth_methods_supported'] == ['none'] and
       m['client_id_metadata_document_supported'] is False,
       'authorization server metadata (RFC 8414): PKCE S256, registration, no metadata documents')
r = d.get('/.well-known/oauth-authorization-server', headers={'Host': 'arcade.example:8443'})
tap.ok(r.json['issuer'] == 'http://arcade.example:8443', 'the issuer follows the Host')
r = d.get('/.well-known/oauth-authorization-server', headers={'X-Forwarded-Proto': 'https',
                                                              'X-Forwarded-Host': 'evil.example'})
tap.ok(r.json['issuer'] == base, 'X-Forwarded-* from a peer that is no trusted proxy is ignored')
r = d.get('/.well-known/oauth-authorization-server', headers={'Host': 'a"b'})
tap.ok(r.status == 400, 'a Host that is no host name names no issuer (400)')

# ---- registration ----

r = register(('javascript:alert(1)',))
tap.ok(r.status == 400 and r.json['error'] == 'invalid_redirect_uri', 'registration refuses a javascript: URI')
r = register(('http://example.org/cb',))
tap.ok(r.status == 400 and r.json['error'] == 'invalid_redirect_uri',
       'registration refuses http to a host that is not loopback')
r = d.post('/oauth/register', {'redirect_uris': ['https://claude.ai/api/mcp/auth_callback'],
                               'token_endpoint_auth_method': 'private_key_jwt'})
tap.ok(r.status == 400 and r.json['error'] == 'invalid_client_metadata', 'registration refuses a private_key_jwt client')
r = register()
client = r.json['client_id']
tap.ok(r.status == 201 and r.json['redirect_uris'] == [REDIRECT] and client.startswith('v4.local.'),
       'registration answers a sealed client_id (201)')

# ---- authorization refusals ----

verifier, challenge = pkce()
r = authorize(client, challenge, redirect_uri='http://127.0.0.1:9/elsewhere')
tap.ok(r.status == 400 and r.header('Location') is None and 'redirect_uri' in r.body,
       'a redirect_uri not registered: an error page, no redirect')
r = authorize(client[:-3] + 'AAA', challenge)
tap.ok(r.status == 400 and r.header('Location') is None, 'an unknown client_id: an error page')
r = authorize(client, None, code_challenge_method=None)
u, q = location(r)
tap.ok(r.status == 302 and q.get('error') == 'invalid_request' and q.get('state') == 'st',
       'no PKCE: invalid_request sent back with the state')
r = authorize(client, challenge, resource='https://other.example/mcp')
tap.ok(r.status == 302 and location(r)[1].get('error') == 'invalid_target', 'another resource: invalid_target')
page = authorize(client, challenge)
r = form('/oauth/authorize', {'request': sealed_request(page), 'agent_key': key, 'action': 'key'},
         headers={'Origin': 'https://evil.example'})
tap.ok(r.status == 403 and r.header('Location') is None, 'the form posted from another site: 403')
r = form('/oauth/authorize', {'request': sealed_request(page), 'agent_key': 'arcd_nonsense', 'action': 'key'})
tap.ok(r.status == 400 and 'not valid' in r.body and sealed_request(r), 'a bad key: the page again, saying why')
r = form('/oauth/authorize', {'request': sealed_request(page), 'action': 'deny'})
tap.ok(r.status == 302 and location(r)[1].get('error') == 'access_denied', 'deny: access_denied')
r = d.post('/oauth/authorize', {'request': 'x'})
tap.ok(r.status == 415, 'the consent form takes a form, not JSON (415)')

# ---- codes and tokens ----

key2 = account('oauth_raw')
verifier, challenge = pkce()
code = code_for(key2, client, challenge)
r = exchange(client, code, pkce()[0])
tap.ok(r.status == 400 and r.json['error'] == 'invalid_grant', 'a wrong code_verifier: invalid_grant')
r = exchange(client, code, verifier, redirect_uri='http://127.0.0.1:9/elsewhere')
tap.ok(r.status == 400 and r.json['error'] == 'invalid_grant', 'another redirect_uri at the token: invalid_grant')
other = register().json['client_id']
r = exchange(other, code, verifier)
tap.ok(r.status == 400 and r.json['error'] == 'invalid_grant', 'another client: invalid_grant')
r = exchange(client, code, verifier, resource='https://other.example/mcp')
tap.ok(r.status == 400 and r.json['error'] == 'invalid_target', 'another resource at the token: invalid_target')
r = exchange(client, code, verifier)
tok = r.json
tap.ok(r.status == 200 and tok['token_type'] == 'Bearer' and tok['expires_in'] == 3600 and
       r.header('Cache-Control') == 'no-store', 'the code exchanged (no-store)')
r = exchange(client, code, verifier)
tap.ok(r.status == 400 and r.json['error'] == 'invalid_grant' and 'used' in r.json['error_description'],
       'the code used twice: invalid_grant')
r = exchange(client, 'v4.local.' + 'A' * 200, verifier)
tap.ok(r.status == 400 and r.json['error'] == 'invalid_grant', 'a forged code: invalid_grant')
r = form('/oauth/token', {'grant_type': 'password', 'client_id': client})
tap.ok(r.status == 400 and r.json['error'] == 'unsupported_grant_type', 'another grant type: unsupported_grant_type')
r = form('/oauth/token', {'grant_type': 'authorization_code', 'client_id': 'nobody', 'code': code})
tap.ok(r.status == 401 and r.json['error'] == 'invalid_client', 'a client not registered: 401 invalid_client')
# The form itself, as libmicrohttpd's post processor reads it.
for raw, why in ((b'grant_type=authorization%00_code', 'a NUL'), (b'grant_type=%ff', 'a byte that is no UTF-8')):
    r = d.post('/oauth/token', raw=raw, headers=dict(FORM))
    tap.ok(r.status == 400 and r.json['error'] == 'invalid_request' and 'form' in r.json['error_description'],
           'a form value with %s: 400 invalid_request, an OAuth error' % why)
r = d.post('/oauth/token', raw=b'grant_type=password&grant_type=authorization_code&client_id=x', headers=dict(FORM))
tap.ok(r.status == 400 and r.json['error'] == 'unsupported_grant_type', 'a name sent twice: the first counts')
r = d.post('/oauth/authorize', raw=b'request=%ff', headers=dict(FORM))
tap.ok(r.status == 400 and 'could not be read' in r.body, 'a consent form that does not read: 400, a page')

r = mcp(tok['access_token'])
tap.ok(r.status == 200 and r.json['result']['structuredContent']['account'] == 'oauth_raw',
       'the access token: my_runs as the account')
r = form('/oauth/token', {'grant_type': 'refresh_token', 'client_id': client,
                          'refresh_token': tok['refresh_token']})
tap.ok(r.status == 200 and mcp(r.json['access_token']).status == 200, 'a refresh gives a working token')
r = form('/oauth/token', {'grant_type': 'refresh_token', 'client_id': client,
                          'refresh_token': tok['access_token']})
tap.ok(r.status == 400 and r.json['error'] == 'invalid_grant', 'an access token is no refresh token')

for name, t in [('forged', 'v4.local.' + 'A' * 120),
                ('tampered', tok['access_token'][:40] + ('B' if tok['access_token'][40] != 'B' else 'C') +
                 tok['access_token'][41:]),
                ('a code', code), ('a refresh token', tok['refresh_token'])]:
    r = mcp(t)
    www = r.header('WWW-Authenticate') or ''
    tap.ok(r.status == 401 and 'error="invalid_token"' in www and
           'resource_metadata="%s/.well-known/oauth-protected-resource/mcp"' % base in www and
           r.json['error']['code'] == -32000, '%s token on /mcp: 401 with WWW-Authenticate' % name)
r = d.post('/mcp', {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list'},
           headers={'Authorization': 'Bearer v4.local.nothing'})
tap.ok(r.status == 401, 'a bad token is refused whatever the message (tools/list)')
r = d.get('/api/v1/me', headers={'Authorization': 'Bearer ' + tok['access_token']})
tap.ok(r.status == 401, 'an access token is for /mcp only: the REST routes want an agent key')

# A token granted under another name for the daemon is another resource's.
host = {'Host': 'other.example:%d' % d.port}
verifier, challenge = pkce()
q = {'response_type': 'code', 'client_id': client, 'redirect_uri': REDIRECT, 'code_challenge': challenge,
     'code_challenge_method': 'S256', 'state': 'st'}
page = d.get('/oauth/authorize?' + urllib.parse.urlencode(q), headers=host)
r = form('/oauth/authorize', {'request': sealed_request(page) or '', 'agent_key': key2, 'action': 'key'},
         headers=host)
code = location(r)[1].get('code')
r = form('/oauth/token', {'grant_type': 'authorization_code', 'client_id': client, 'code': code or '',
                          'code_verifier': verifier, 'redirect_uri': REDIRECT}, headers=host)
other_tok = r.json.get('access_token', '') if r.json else ''
r = mcp(other_tok)
tap.ok(other_tok and r.status == 401 and 'another resource' in r.json['error']['message'],
       'a token for another resource (http://other.example/mcp) is refused here')

# ---- an account made on the consent page ----

verifier, challenge = pkce()
page = authorize(client, challenge)
r = form('/oauth/authorize', {'request': sealed_request(page), 'name': 'oauth_new', 'action': 'create'})
m = re.search(r'<code>(arcd_[a-z0-9_]+)</code>', r.body)
tap.ok(r.status == 201 and m is not None, 'an account made on the consent page, its key shown once')
r = form('/oauth/authorize', {'request': sealed_request(r), 'agent_key': m.group(1) if m else '',
                              'action': 'key'})
code = location(r)[1].get('code')
r = exchange(client, code or '', verifier)
tap.ok(r.status == 200 and mcp(r.json['access_token']).json['result']['structuredContent']['account'] ==
       'oauth_new', 'continued with its key: a token for the new account')
r = form('/oauth/authorize', {'request': sealed_request(page), 'name': 'oauth_new', 'action': 'create'})
tap.ok(r.status == 409 and sealed_request(r), 'a name taken: the page again')

# ---- agent keys as before ----

r = mcp(key2)
tap.ok(r.status == 200 and r.json['result']['structuredContent']['account'] == 'oauth_raw',
       'a static Bearer agent key still works')
r = mcp('arcd_nonsense')
tap.ok(r.status == 200 and r.json['result']['isError'] is True, 'a bad agent key is still the tool\'s refusal')

d.stop()
tap.done()
