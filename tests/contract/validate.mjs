// validate.mjs SPEC EXCHANGES: checks recorded HTTP exchanges against
// openapi.yaml and prints one JSON object on stdout:
//
//   documented     every (operation, status) the document lists, and
//                  whether libmicrohttpd makes that answer (x-produced-by)
//   results        per exchange: the operation and status it was judged
//                  under, the operations it covers, what did not hold
//   openPlaces     the objects of valid answers that still validate with a
//                  field added (closed shapes have none); checkedPlaces
//   examples       the examples of the document that do not validate
//
// The validator is openapi-backend (routing a request to its operation,
// dereferencing, compiling per-status body and header validators), with
// its Ajv instances replaced by Ajv's JSON Schema 2020-12 class in strict
// mode: 2020-12 is OpenAPI 3.1's dialect (unevaluatedProperties, const,
// type arrays), and strict mode makes a keyword it does not know an error
// rather than a silently skipped check (openapi-backend's default, Ajv's
// draft-07 class with strict off, would skip unevaluatedProperties).
// OpenAPI's annotation keywords (discriminator, example, xml,
// externalDocs) are declared as such. openapi-backend's own check of the
// document is written for OpenAPI 3.0, so it is skipped ("quick");
// tests/openapi lints the document as 3.1. Two things the library leaves
// open are checked here: a status must be listed for its operation (the
// library passes an unlisted one), and a header is required only where
// the document says `required: true` (the library would require every
// listed header or none).
//
// The exchanges are the JSON array the Python driver recorded: method,
// path (as sent, percent-encoded), status, headers ([name, value] pairs),
// body (text), and optionally op ("METHOD /template": judge under that
// operation whatever the path, for requests whose path the daemon is
// expected to refuse, such as a NUL byte in it).
import { readFileSync } from 'node:fs';
import OpenAPIBackendPkg from 'openapi-backend';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const { OpenAPIBackend } = OpenAPIBackendPkg;
const [specPath, exchangesPath] = process.argv.slice(2);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function makeAjv(original, opts) {
  // Strict about the schema's keywords and numbers; not about the two
  // style rules (every part of an allOf naming its type, `required` only
  // beside its `properties`) that composed schemas break on purpose.
  const ajv = new Ajv2020({
    ...opts,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  // openapi-backend's OpenAPI formats (int32, int64, ...), as it adds them.
  for (const [name, format] of Object.entries(original ? original.formats : {}))
    if (!ajv.formats[name]) ajv.addFormat(name, format);
  ajv.addKeyword({ keyword: 'discriminator' });
  ajv.addVocabulary(['example', 'xml', 'externalDocs']);
  return ajv;
}

const api = new OpenAPIBackend({
  definition: specPath,
  quick: true,
  validate: true,
  customizeAjv: (original, opts) => makeAjv(original, opts),
});
await api.init();
const doc = api.definition; // dereferenced
const exampleAjv = api.validator.getAjv('responseValidator');

const opKey = (method, path) => `${method.toUpperCase()} ${path}`;
const operations = new Map(); // "METHOD /template" -> { path, method, op }
for (const [path, item] of Object.entries(doc.paths))
  for (const method of METHODS)
    if (item[method]) operations.set(opKey(method, path), { path, method, op: item[method] });

const producedByMhd = (resp) => resp['x-produced-by'] === 'libmicrohttpd';
const documented = [];
for (const [key, { op }] of operations)
  for (const [status, resp] of Object.entries(op.responses))
    documented.push({ op: key, status, mhd: producedByMhd(resp) });

// A path template as a regular expression ({param} is one segment).
const pathRe = (template) =>
  new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$');
const templates = Object.keys(doc.paths).map((p) => ({ template: p, re: pathRe(p) }));

function header(ex, name) {
  const h = ex.headers.find(([k]) => k.toLowerCase() === name.toLowerCase());
  return h ? h[1] : undefined;
}

function decodePath(p) {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

const errorsText = (errors) =>
  (errors || []).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && e.params.additionalProperty ? ` '${e.params.additionalProperty}'` : ''}${e.params && e.params.unevaluatedProperty ? ` '${e.params.unevaluatedProperty}'` : ''}${e.params && e.params.allowedValues ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);

// Checks headers and body of one exchange against one response object;
// returns the problems. validateBody / validateHeaders come from
// openapi-backend for operations, from our own Ajv for the document-level
// answers (paths that the document does not list).
function checkResponse(ex, resp, validateBody, validateHeaders) {
  const problems = [];
  const ctype = header(ex, 'Content-Type');
  const media = ctype ? ctype.split(';')[0].trim().toLowerCase() : undefined;
  const content = resp.content || {};
  const html = content['text/html'];
  const mhd = producedByMhd(resp) || (html && html['x-produced-by'] === 'libmicrohttpd' && media === undefined);
  if (mhd) {
    // libmicrohttpd's own page: HTML, no Content-Type, no request id.
    if (!html) problems.push('libmicrohttpd answered, but the document lists no text/html page here');
    if (media !== undefined) problems.push(`libmicrohttpd's page came with Content-Type ${ctype}`);
    if (!/^<html>/.test(ex.body)) problems.push(`not libmicrohttpd's HTML page: ${JSON.stringify(ex.body.slice(0, 80))}`);
    return { problems, mhd: true };
  }
  for (const [name, h] of Object.entries(resp.headers || {}))
    if (h.required && header(ex, name) === undefined) problems.push(`required header ${name} is missing`);
  const hv = validateHeaders(Object.fromEntries(ex.headers.map(([k, v]) => [k.toLowerCase(), v])));
  if (!hv.valid) problems.push(...errorsText(hv.errors).map((e) => 'header ' + e));
  if (media === undefined) {
    problems.push('no Content-Type');
  } else if (!content[media]) {
    problems.push(`Content-Type ${media} is not one the document lists (${Object.keys(content).join(', ')})`);
  } else if (content[media]['x-produced-by']) {
    problems.push(`an answer with ${media} is libmicrohttpd's, yet this one carries Content-Type`);
  }
  if (ex.method === 'HEAD') {
    if (ex.body !== '') problems.push('HEAD answered with a body');
  } else if (media === 'application/json' && content[media]) {
    let body;
    try {
      body = JSON.parse(ex.body);
    } catch (e) {
      problems.push(`the body is not JSON: ${e.message}`);
      return { problems, mhd: false };
    }
    const bv = validateBody(body);
    if (!bv.valid) problems.push(...errorsText(bv.errors));
  }
  return { problems, mhd: false };
}

function judge(ex) {
  const status = String(ex.status);
  let key = ex.op;
  let path;
  if (!key) {
    path = decodePath(ex.path);
    const method = ex.method === 'HEAD' ? 'GET' : ex.method;
    const match = api.router.matchOperation({ method: method.toLowerCase(), path, headers: {}, query: {} });
    if (match) key = opKey(method, match.path);
  }
  if (key && !operations.has(key)) return { op: key, status, problems: [`no such operation in the document: ${key}`] };
  if (!key) {
    // A method this path does not take: the 405 of the path's operations.
    const t = templates.find(({ re }) => re.test(path));
    if (t) {
      const first = METHODS.find((m) => doc.paths[t.template][m]);
      key = opKey(first, t.template);
      if (status !== '405') return { op: `${ex.method} ${t.template}`, status, problems: [`a method the path does not take answered ${status}, not 405`] };
      const allow = new Set(METHODS.filter((m) => doc.paths[t.template][m]).map((m) => m.toUpperCase()));
      if (allow.has('GET')) allow.add('HEAD');
      const got = new Set((header(ex, 'Allow') || '').split(',').map((s) => s.trim()).filter(Boolean));
      const problems = [];
      if ([...allow].sort().join() !== [...got].sort().join())
        problems.push(`Allow is ${header(ex, 'Allow')}, the document lists ${[...allow].join(', ')}`);
      const r = judgeUnder(ex, key, status);
      const covers = METHODS.filter((m) => doc.paths[t.template][m]).map((m) => opKey(m, t.template));
      return { op: `${ex.method} ${t.template}`, status, problems: problems.concat(r.problems), mhd: r.mhd, covers };
    }
    return judgeUnlisted(ex, status);
  }
  const r = judgeUnder(ex, key, status);
  return { op: ex.method === 'HEAD' ? key.replace(/^GET /, 'HEAD ') : key, status, problems: r.problems, mhd: r.mhd, covers: [key] };
}

function judgeUnder(ex, key, status) {
  const { op } = operations.get(key);
  const resp = op.responses[status];
  if (!resp) return { problems: [`status ${status} is not listed for ${key} (it lists ${Object.keys(op.responses).join(', ')})`] };
  return checkResponse(
    ex,
    resp,
    (body) => api.validator.validateResponse(body, op, Number(status)),
    (headers) => api.validator.validateResponseHeaders(headers, op, { statusCode: Number(status), setMatchType: 'any' }),
  );
}

// Paths the document does not list: 404 (GameNotFound), or 405 with the
// Allow of the route whose shape the path has (see the introduction).
const compiled = new Map();
function compileOnce(schema) {
  if (!compiled.has(schema)) compiled.set(schema, exampleAjv.compile(schema));
  return compiled.get(schema);
}
function judgeUnlisted(ex, status) {
  const responses = doc.components.responses;
  let resp;
  if (status === '404') resp = responses.GameNotFound;
  else if (status === '405')
    resp = Object.entries(responses).find(
      ([name, r]) => name.startsWith('MethodNotAllowed') && r.headers.Allow.schema.const === header(ex, 'Allow'),
    )?.[1];
  else if (['414', '431', '505'].includes(status))
    resp = { UriTooLong: responses.UriTooLong, HeaderFieldsTooLarge: responses.HeaderFieldsTooLarge, HttpVersionNotSupported: responses.HttpVersionNotSupported }[
      { 414: 'UriTooLong', 431: 'HeaderFieldsTooLarge', 505: 'HttpVersionNotSupported' }[status]];
  const label = `(unlisted path) ${ex.method} ${ex.path.split('?')[0]}`;
  if (!resp) return { op: '(unlisted path)', status, problems: [`${label} answered ${status}: an unlisted path answers 404 (or 405)`] };
  const validateWith = (schema) => (value) => {
    const v = compileOnce(schema);
    return { valid: v(value), errors: v.errors };
  };
  const headerSchema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(resp.headers || {}).map(([n, h]) => [n.toLowerCase(), h.schema])),
  };
  const r = checkResponse(ex, resp, validateWith((resp.content || {})['application/json']?.schema ?? {}), (headers) => {
    const coerced = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));
    return validateWith(headerSchema)(coerced);
  });
  return { op: '(unlisted path)', status, problems: r.problems, mhd: r.mhd };
}

// Every example of the document, against its schema.
const examples = [];
function checkExamples(where, media) {
  if (!media || !media.schema) return;
  const v = compileOnce(media.schema);
  const all = [];
  if (media.example !== undefined) all.push(['example', media.example]);
  for (const [name, e] of Object.entries(media.examples || {})) all.push([name, e.value]);
  for (const [name, value] of all) {
    if (typeof value === 'string' && media.schema.type === 'string') continue;
    if (!v(value)) examples.push({ where: `${where} (${name})`, errors: errorsText(v.errors) });
  }
}
for (const [key, { op }] of operations) {
  for (const [mt, media] of Object.entries(op.requestBody?.content || {}))
    if (mt === 'application/json') checkExamples(`${key} request`, media);
  for (const [status, resp] of Object.entries(op.responses))
    for (const [mt, media] of Object.entries(resp.content || {}))
      if (mt === 'application/json') checkExamples(`${key} ${status}`, media);
}

const exchanges = JSON.parse(readFileSync(exchangesPath, 'utf8'));
const results = exchanges.map((ex, i) => {
  try {
    return { i, ...judge(ex) };
  } catch (e) {
    return { i, op: '?', status: String(ex.status), problems: [`validator error: ${e.stack}`] };
  }
});

// Closed shapes: in each valid JSON answer, a field added to any object
// (the body or one inside it) must make the answer invalid. Reported once
// per operation, status and place (array indexes written []).
const open = new Map();
function places(value, path, out) {
  if (Array.isArray(value)) value.forEach((v, n) => places(v, `${path}/${n}`, out));
  else if (value && typeof value === 'object') {
    out.push(path);
    for (const [k, v] of Object.entries(value)) places(v, `${path}/${k}`, out);
  }
  return out;
}
function withExtra(value, path) {
  const copy = JSON.parse(JSON.stringify(value));
  let o = copy;
  for (const part of path.split('/').slice(1)) o = o[part];
  o.zz_not_in_the_contract = 1;
  return copy;
}
for (const r of results) {
  const ex = exchanges[r.i];
  if (r.problems.length || r.mhd || ex.method === 'HEAD' || !(r.covers || []).length) continue;
  const media = (header(ex, 'Content-Type') || '').split(';')[0].trim();
  if (media !== 'application/json') continue;
  const body = JSON.parse(ex.body);
  for (const path of places(body, '', [])) {
    const where = `${r.op} ${r.status} ${path.replace(/\/\d+(?=\/|$)/g, '/[]') || '/'}`;
    if (open.has(where)) continue;
    const mutated = { ...ex, body: JSON.stringify(withExtra(body, path)) };
    open.set(where, judge(mutated).problems.length === 0);
  }
}
const openPlaces = [...open].filter(([, isOpen]) => isOpen).map(([where]) => where);
process.stdout.write(JSON.stringify({ documented, results, examples, checkedPlaces: open.size, openPlaces }) + '\n');
