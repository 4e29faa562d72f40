// A connector's OAuth against the daemon, with the official MCP TypeScript
// SDK's client side (@modelcontextprotocol/sdk/client/auth.js: auth(),
// an OAuthClientProvider, StreamableHTTPClientTransport's authProvider and
// finishAuth), driven by test_oauth.py:
//
//   node oauth_client.mjs URL AGENT_KEY REDIRECT_URI
//
// The client starts with an access token that no longer holds (as a host
// holds one from an earlier session): the daemon answers 401 with
// WWW-Authenticate, from which the SDK discovers the protected resource
// and the authorization server, registers the client and sends the
// person to the consent page. The person is this script: it reads the
// page, posts the agent key, follows the 302 to REDIRECT_URI (never
// opened: the code is read off the Location) and hands the code to
// finishAuth, which exchanges it with the verifier. Then my_runs runs as
// the key's account; the key is revoked (a second key made first, since
// an account keeps one live key) and the next call is refused: a raw
// POST sees 401 with WWW-Authenticate, the SDK's client an
// UnauthorizedError once its refresh is refused too. Prints one JSON
// object: the checks ({ok, name}) and what test_oauth.py reuses.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const [url, key, redirect] = process.argv.slice(2);
const base = new URL(url).origin;
const checks = [];
const out = { checks };

function ok(cond, name) {
	checks.push({ ok: Boolean(cond), name });
	return Boolean(cond);
}

// What a host keeps between sessions, in memory.
class Provider {
	constructor() {
		this.saved = { tokens: { access_token: 'v4.local.an-expired-token', token_type: 'Bearer' } };
		this.redirects = [];
	}
	get redirectUrl() { return redirect; }
	get clientMetadata() {
		return { client_name: 'arcaded oauth test', redirect_uris: [redirect],
			grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
			token_endpoint_auth_method: 'none' };
	}
	state() { return 'state-' + this.redirects.length; }
	clientInformation() { return this.saved.client; }
	saveClientInformation(c) { this.saved.client = c; }
	tokens() { return this.saved.tokens; }
	saveTokens(t) { this.saved.tokens = t; }
	redirectToAuthorization(u) { this.redirects.push(new URL(u)); }
	saveCodeVerifier(v) { this.saved.verifier = v; }
	codeVerifier() { return this.saved.verifier; }
	invalidateCredentials(scope) {
		if (scope === 'all' || scope === 'tokens')
			delete this.saved.tokens;
		if (scope === 'all')
			delete this.saved.client;
	}
}

// The person at the consent page: its form posted with the agent key, the
// redirect's code and state read off the Location.
async function consent(authUrl, agentKey) {
	const pageRes = await fetch(authUrl, { redirect: 'manual' });
	const html = await pageRes.text();
	const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
	ok(pageRes.status === 200 && request && /arcaded oauth test/.test(html) &&
		/default-src 'none'/.test(pageRes.headers.get('content-security-policy') ?? ''),
		'the consent page names the client, carries the sealed request and its policy');
	const res = await fetch(base + '/oauth/authorize', { method: 'POST', redirect: 'manual',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
		body: new URLSearchParams({ request, agent_key: agentKey, action: 'key' }) });
	const loc = new URL(res.headers.get('location') ?? 'about:blank');
	ok(res.status === 302 && loc.origin + loc.pathname === redirect, 'the consent redirects to the client');
	return { code: loc.searchParams.get('code'), state: loc.searchParams.get('state'),
		iss: loc.searchParams.get('iss') };
}

async function connect(provider) {
	const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
	const client = new Client({ name: 'arcaded-oauth-check', version: '1.0.0' });
	await client.connect(transport);
	return { client, transport };
}

async function main() {
	const provider = new Provider();
	let transport;

	// 1. The stale token: 401, discovery, registration, the redirect.
	try {
		await connect(provider);
		ok(false, 'a stale access token is refused');
	} catch (e) {
		ok(e instanceof UnauthorizedError, 'a stale access token is refused (UnauthorizedError)');
	}
	const auth = provider.redirects[0];
	ok(provider.saved.client?.client_id?.startsWith('v4.local.') &&
		provider.saved.client.token_endpoint_auth_method === 'none',
		'the SDK registered the client (RFC 7591), a public one');
	ok(auth && auth.origin + auth.pathname === base + '/oauth/authorize' &&
		auth.searchParams.get('code_challenge_method') === 'S256' &&
		auth.searchParams.get('resource') === base + '/mcp' &&
		auth.searchParams.get('client_id') === provider.saved.client.client_id,
		'discovered from the 401: authorize with PKCE S256 and the resource');
	if (!auth)
		return;

	// 2. Consent with the agent key, then the code exchanged.
	const got = await consent(auth, key);
	ok(got.code && got.state === 'state-0' && got.iss === base,
		'the redirect carries the code, the state and the issuer');
	transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
	await transport.finishAuth(got.code);
	const t = provider.saved.tokens;
	ok(t?.access_token?.startsWith('v4.local.') && t.token_type === 'Bearer' && t.expires_in === 3600 &&
		t.refresh_token, 'finishAuth exchanged the code: a bearer token for an hour, and a refresh token');
	out.client_id = provider.saved.client.client_id;
	out.access_token = t.access_token;

	// 3. A tool call as the account.
	const { client } = await connect(provider);
	const r = await client.callTool({ name: 'my_runs', arguments: { game: 'duskcourt' } });
	ok(!r.isError && r.structuredContent?.account === process.env.ACCOUNT,
		'my_runs runs as the agent key\'s account with the access token');
	const started = await client.callTool({ name: 'start_run', arguments: { game: 'duskcourt', seed: 7 } });
	ok(!started.isError && started.structuredContent?.runId, 'start_run with the access token');
	out.run = started.structuredContent?.runId;
	await client.close();

	// 4. The key revoked: the token is refused at once.
	const me = { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' };
	const view = await (await fetch(base + '/api/v1/me', { headers: me })).json();
	const added = await (await fetch(base + '/api/v1/me/keys', { method: 'POST', headers: me,
		body: '{}' })).json();
	const revoked = await fetch(base + '/api/v1/me/keys/' + view.keys.find((k) => k.current).id,
		{ method: 'DELETE', headers: { Authorization: 'Bearer ' + added.agentKey } });
	ok(revoked.status === 200, 'the agent key is revoked');
	const raw = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json',
		Accept: 'application/json, text/event-stream', Authorization: 'Bearer ' + t.access_token },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
			params: { name: 'my_runs', arguments: { game: 'duskcourt' } } }) });
	const www = raw.headers.get('www-authenticate') ?? '';
	ok(raw.status === 401 && /error="invalid_token"/.test(www) &&
		www.includes(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`),
		'after the revocation the token is refused: 401 with WWW-Authenticate');
	out.www_authenticate = www;
	const before = provider.redirects.length;
	try {
		await connect(provider);
		ok(false, 'the SDK\'s next call is refused');
	} catch (e) {
		ok(e instanceof UnauthorizedError && provider.redirects.length === before + 1,
			'the SDK\'s next call is refused: its refresh fails and it asks for consent again');
	}
}

main().catch((e) => ok(false, 'the flow ran: ' + (e?.stack ?? e))).finally(() => {
	console.log(JSON.stringify(out));
});
