// verify.mjs INTEROP_EXE: checks arcaded's PASETO v4 tokens with paseto-ts,
// an independent TypeScript implementation, and the other way round.
// Prints TAP. Run through ../run_js.sh, which skips when node or
// node_modules is missing (install with: npm ci --prefix tests/trust/js).
//
// Works on Node 18 and 20. Node 18 has no global Web Crypto in ES modules,
// and paseto-ts's Ed25519 key generation (@stablelib/random) looks for
// one when it is first loaded, so it is provided from node:crypto when
// missing, before paseto-ts is imported.
import { execFileSync } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

if (typeof globalThis.crypto === 'undefined' || !('getRandomValues' in globalThis.crypto)) {
  globalThis.crypto = webcrypto;
}
const { decrypt, encrypt, generateKeys, sign, verify } = await import('paseto-ts/v4');

const exe = process.argv[2];
const getRandomValues = (a) => webcrypto.getRandomValues(a);
let n = 0;
let failed = 0;

function ok(cond, name, detail) {
  n += 1;
  if (!cond) failed += 1;
  console.log(`${cond ? '' : 'not '}ok ${n} - ${name}`);
  if (!cond && detail !== undefined) console.log(`# ${String(detail).split('\n').join('\n# ')}`);
}

async function throws(fn) {
  try {
    await fn();
    return false;
  } catch {
    return true;
  }
}

function runC(args) {
  try {
    return { code: 0, out: execFileSync(exe, args, { encoding: 'utf8' }) };
  } catch (e) {
    return { code: e.status ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

// Flips one bit inside the base64 body, keeping the character in the
// alphabet, so the token still parses and only the signature/MAC fails.
function tamper(token, at) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const chars = token.split('');
  chars[at] = alphabet[alphabet.indexOf(chars[at]) ^ 0x10];
  return chars.join('');
}

async function main() {
  if (!exe) {
    console.log('Bail out! usage: verify.mjs INTEROP_EXE');
    process.exit(1);
  }
  console.log(`# node ${process.version}`);
  const made = runC(['sign']);
  ok(made.code === 0, 'the C program signs and seals', made.out);
  if (made.code !== 0) return;
  const c = JSON.parse(made.out);
  ok(c.publicKey.startsWith('k4.public.') && c.publicKey.length === 53, 'public key is a k4.public PASERK');

  // C-signed certificates, checked by paseto-ts.
  for (const [k, t] of c.public.entries()) {
    const name = `certificate ${k} (footer ${t.footer ? 'yes' : 'no'}, assertion ${t.assertion ? 'yes' : 'no'})`;
    let res;
    try {
      res = await verify(c.publicKey, t.token, { assertion: t.assertion });
    } catch (e) {
      ok(false, `${name}: paseto-ts verifies`, e.message);
      continue;
    }
    ok(true, `${name}: paseto-ts verifies`);
    ok(isDeepStrictEqual(res.payload, JSON.parse(t.payload)), `${name}: payload as signed`,
      JSON.stringify(res.payload));
    if (t.footer) {
      ok(isDeepStrictEqual(res.footer, JSON.parse(t.footer)) && res.footer.kid === c.pid,
        `${name}: footer names the key's k4.pid`, JSON.stringify(res.footer));
    }
    ok(await throws(() => verify(c.publicKey, tamper(t.token, 20), { assertion: t.assertion })),
      `${name}: a flipped bit is refused by paseto-ts`);
    ok(await throws(() => verify(c.publicKey, t.token, { assertion: `${t.assertion}x` })),
      `${name}: another implicit assertion is refused by paseto-ts`);
  }

  // A C-sealed v4.local token, opened by paseto-ts.
  try {
    const res = await decrypt(c.local.key, c.local.token, { assertion: c.local.assertion });
    ok(isDeepStrictEqual(res.payload, JSON.parse(c.local.payload)), 'v4.local from C: paseto-ts decrypts the payload',
      JSON.stringify(res.payload));
    ok(isDeepStrictEqual(res.footer, JSON.parse(c.local.footer)), 'v4.local from C: footer');
  } catch (e) {
    ok(false, 'v4.local from C: paseto-ts decrypts the payload', e.message);
  }
  ok(await throws(() => decrypt(c.local.key, c.local.token, { assertion: 'other-run' })),
    'v4.local from C: paseto-ts refuses another implicit assertion');

  // The other way: tokens made by paseto-ts, opened by the C code.
  const payload = { runId: 'r-js', game: 'duskcourt', score: 77, note: 'caf\u00e9' };
  const pair = generateKeys('public', { format: 'paserk', getRandomValues });
  const ptok = await sign(pair.secretKey, payload, {
    footer: { kid: 'k4.pid.from-js' }, assertion: 'arcaded-result-v1', addExp: false, addIat: false,
  });
  let r = runC(['verify-public', pair.publicKey, ptok, 'arcaded-result-v1']);
  ok(r.code === 0 && isDeepStrictEqual(JSON.parse(r.out), payload), 'v4.public from paseto-ts: C verifies', r.out);
  r = runC(['verify-public', pair.publicKey, ptok, 'other']);
  ok(r.code === 1 && /does not authenticate/.test(r.out), 'v4.public from paseto-ts: C refuses another assertion', r.out);
  r = runC(['verify-public', pair.publicKey, tamper(ptok, 30), 'arcaded-result-v1']);
  ok(r.code === 1, 'v4.public from paseto-ts: C refuses a flipped bit', r.out);

  const lkey = generateKeys('local', { format: 'paserk', getRandomValues });
  const ltok = await encrypt(lkey, payload, {
    footer: { kid: 'k4.lid.from-js' }, assertion: 'run-42', addExp: false, addIat: false, getRandomValues,
  });
  r = runC(['decrypt-local', lkey, ltok, 'run-42']);
  ok(r.code === 0 && isDeepStrictEqual(JSON.parse(r.out), payload), 'v4.local from paseto-ts: C decrypts', r.out);
  r = runC(['decrypt-local', lkey, ltok, 'run-43']);
  ok(r.code === 1 && /does not authenticate/.test(r.out), 'v4.local from paseto-ts: C refuses another assertion', r.out);
  r = runC(['verify-public', pair.publicKey, ltok, 'run-42']);
  ok(r.code === 1 && /header/.test(r.out), 'a v4.local token given to the v4.public check: wrong header', r.out);
}

try {
  await main();
} catch (e) {
  ok(false, 'no exception', e.stack);
}
console.log(`1..${n}`);
process.exitCode = failed === 0 && n > 0 ? 0 : 1;
