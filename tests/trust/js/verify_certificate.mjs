// verify_certificate.mjs PUBLIC_KEY CERTIFICATE: verifies a result
// certificate answered by a running arcaded with paseto-ts, given the
// k4.public key from GET /api/v1/keys, and prints {"payload", "footer"} as
// JSON; exit status 1 when it does not verify. Used by
// tests/e2e/test_certificate.py.
import { webcrypto } from 'node:crypto';

if (typeof globalThis.crypto === 'undefined' || !('getRandomValues' in globalThis.crypto)) {
  globalThis.crypto = webcrypto;
}
const { verify } = await import('paseto-ts/v4');

const [key, token] = process.argv.slice(2);
try {
  const { payload, footer } = await verify(key, token);
  console.log(JSON.stringify({ payload, footer }));
} catch (e) {
  console.error(`does not verify: ${e.message}`);
  process.exit(1);
}
