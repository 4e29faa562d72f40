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
const MHD = 'libmicrohttpd';

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
const ownAjv = api.validator.getAjv('responseValidator');
const compiled = new Map();
function validator(schema) {
  if (!compiled.has(schema)) compiled.set(schema, ownAjv.compile(schema));
  const v = compiled.get(schema);
  return (value) => ({ valid: v(value), errors: v.errors });
}

const opKey = (method, path) => `${method.toUpperCase()} ${path}`;
const methodsOf = (template) => METHODS.filter((m) => doc.paths[template][m]);
const operations = new Map(); // "METHOD /template" -> the operation object
for (const template of Object.keys(doc.paths))
  for (const m of methodsOf(template)) operations.set(opKey(m, template), doc.paths[template][m]);

const producedByMhd = (resp) => resp['x-produced-by'] === MHD;
const documented = [];
for (const [key, op] of operations)
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

function errorsText(errors) {
  return (errors || []).map((e) => {
    const p = e.params || {};
    const what = p.additionalProperty ?? p.unevaluatedProperty;
    return `${e.instancePath || '(body)'} ${e.message}` +
      (what !== undefined ? ` '${what}'` : '') +
      (p.allowedValues ? ` ${JSON.stringify(p.allowedValues)}` : '');
  });
}

// Checks the headers and body of one exchange against one response
// object. validateBody and validateHeaders are openapi-backend's for
// operations, our own for the answers to paths the document does not list.
function checkResponse(ex, resp, validateBody, validateHeaders) {
  const problems = [];
  const ctype = header(ex, 'Content-Type');
  const media = ctype ? ctype.split(';')[0].trim().toLowerCase() : undefined;
  const content = resp.content || {};
  const html = content['text/html'];
  if (producedByMhd(resp) || (html && producedByMhd(html) && media === undefined)) {
    // libmicrohttpd's own page: HTML, no Content-Type, no request id. An
    // answer marked as its own (414, 431, 505) lists no content at all, so
    // that a typed client's error type stays the JSON envelope; one that
    // arcaded gives too (a 400) lists the page as text/html beside JSON.
    if (!html && !producedByMhd(resp)) problems.push(`${MHD} answered, but the document lists no text/html page here`);
    if (media !== undefined) problems.push(`${MHD}'s page came with Content-Type ${ctype}`);
    if (!/^<html>/.test(ex.body)) problems.push(`not ${MHD}'s HTML page: ${JSON.stringify(ex.body.slice(0, 80))}`);
    return { problems, mhd: true };
  }
  for (const [name, h] of Object.entries(resp.headers || {}))
    if (h.required && header(ex, name) === undefined) problems.push(`required header ${name} is missing`);
  const hv = validateHeaders(Object.fromEntries(ex.headers.map(([k, v]) => [k.toLowerCase(), v])));
  if (!hv.valid) problems.push(...errorsText(hv.errors).map((e) => 'header ' + e));
  // An answer the document gives no content (a 202) has no body and
  // needs no type; every other answer declares one.
  if (media === undefined && Object.keys(content).length === 0) {
    if (ex.body !== '') problems.push('a body where the document lists none');
  } else if (media === undefined) problems.push('no Content-Type');
  else if (!content[media])
    problems.push(`Content-Type ${media} is not one the document lists (${Object.keys(content).join(', ')})`);
  else if (producedByMhd(content[media]))
    problems.push(`${media} is ${MHD}'s page, which comes without Content-Type`);
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

// One exchange under one operation and its status.
function judgeUnder(ex, key, status) {
  const op = operations.get(key);
  const resp = op.responses[status];
  const listed = Object.keys(op.responses).join(', ');
  if (!resp) return { problems: [`status ${status} is not listed for ${key} (it lists ${listed})`] };
  const code = Number(status);
  return checkResponse(
    ex,
    resp,
    (body) => api.validator.validateResponse(body, op, code),
    (headers) => api.validator.validateResponseHeaders(headers, op, { statusCode: code, setMatchType: 'any' }),
  );
}

// Paths the document does not list: 404 (GameNotFound), or 405 with the
// Allow of the route whose shape the path has (see the introduction).
function judgeUnlisted(ex, status) {
  const responses = doc.components.responses;
  let resp;
  if (status === '404') resp = responses.GameNotFound;
  else if (status === '405')
    resp = Object.entries(responses).find(
      ([name, r]) => name.startsWith('MethodNotAllowed') && r.headers.Allow.schema.const === header(ex, 'Allow'),
    )?.[1];
  const op = '(unlisted path)';
  if (!resp) return { op, status, problems: [`${ex.method} ${ex.path} answered ${status}, not 404 or 405`] };
  const headerSchema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(resp.headers).map(([n, h]) => [n.toLowerCase(), h.schema])),
  };
  const r = checkResponse(ex, resp, validator(resp.content['application/json'].schema), validator(headerSchema));
  return { op, status, problems: r.problems, mhd: r.mhd, covers: [] };
}

// Judges an exchange: finds its operation (ex.op, or its method and path;
// HEAD is judged as the GET without a body) and the response object of its
// status. `covers` names the operations whose status it shows.
function judge(ex) {
  const status = String(ex.status);
  if (ex.op) {
    if (!operations.has(ex.op)) return { op: ex.op, status, problems: [`no operation ${ex.op} in the document`] };
    return { op: ex.op, status, ...judgeUnder(ex, ex.op, status), covers: [ex.op] };
  }
  const path = decodePath(ex.path);
  const method = ex.method === 'HEAD' ? 'GET' : ex.method;
  // A path the document names literally is that path's alone (as the
  // daemon routes it): /api/matches/quick is never /api/matches/{id}.
  const literal = doc.paths[path] ? { template: path } : null;
  const match = literal && !doc.paths[path][method.toLowerCase()] ? null :
    api.router.matchOperation({ method: method.toLowerCase(), path, headers: {}, query: {} });
  if (match) {
    const key = opKey(method, match.path);
    return { op: opKey(ex.method, match.path), status, ...judgeUnder(ex, key, status), covers: [key] };
  }
  const t = literal || templates.find(({ re }) => re.test(path));
  if (!t) return judgeUnlisted(ex, status);
  // A method this path does not take: the path's 405, with its methods.
  const op = opKey(ex.method, t.template);
  if (status !== '405') return { op, status, problems: [`a method the path does not take answered ${status}`] };
  // The path's methods, and HEAD where its 405 names it (a GET that
  // changes nothing); the documented Allow of that 405 must say the same.
  const allow = methodsOf(t.template).map((m) => m.toUpperCase());
  const documented405 = doc.paths[t.template][methodsOf(t.template)[0]].responses['405'];
  const allowConst = documented405?.headers?.Allow?.schema?.const;
  if (allow.includes('GET') && (allowConst || '').split(', ').includes('HEAD')) allow.push('HEAD');
  const got = (header(ex, 'Allow') || '').split(',').map((s) => s.trim()).filter(Boolean);
  const problems = [];
  if ([...allow].sort().join() !== [...got].sort().join())
    problems.push(`Allow is ${header(ex, 'Allow')}, the document lists ${allow.join(', ')}`);
  const covers = methodsOf(t.template).map((m) => opKey(m, t.template));
  const r = judgeUnder(ex, covers[0], status);
  return { op, status, problems: problems.concat(r.problems), mhd: r.mhd, covers };
}

// Every example of the document, against its schema.
const examples = [];
function checkExamples(where, media) {
  if (!media || !media.schema) return;
  const v = validator(media.schema);
  const all = Object.entries(media.examples || {}).map(([name, e]) => [name, e.value]);
  if (media.example !== undefined) all.push(['example', media.example]);
  for (const [name, value] of all) {
    const r = v(value);
    if (!r.valid) examples.push({ where: `${where} (${name})`, errors: errorsText(r.errors) });
  }
}
for (const [key, op] of operations) {
  checkExamples(`${key} request`, (op.requestBody?.content || {})['application/json']);
  for (const [status, resp] of Object.entries(op.responses))
    checkExamples(`${key} ${status}`, (resp.content || {})['application/json']);
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
// (the body or one inside it) must make the answer invalid. Tried once per
// operation, status and place (array indexes written []).
const open = new Map();
function places(value, path, out) {
  if (Array.isArray(value)) value.forEach((v, n) => places(v, `${path}/${n}`, out));
  else if (value && typeof value === 'object') {
    out.push(path);
    // A key is written as a JSON pointer writes it: "~1" for "/", "~0" for "~"
    // (io.modelcontextprotocol/ui is one).
    for (const [k, v] of Object.entries(value)) places(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  }
  return out;
}
function withExtra(value, path) {
  const copy = JSON.parse(JSON.stringify(value));
  let o = copy;
  for (const part of path.split('/').slice(1)) o = o[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  o.zz_not_in_the_contract = 1;
  return copy;
}
for (const r of results) {
  const ex = exchanges[r.i];
  if (r.problems.length || r.mhd || ex.method === 'HEAD') continue;
  if ((header(ex, 'Content-Type') || '').split(';')[0].trim() !== 'application/json') continue;
  const body = JSON.parse(ex.body);
  for (const path of places(body, '', [])) {
    const where = `${r.op} ${r.status} ${path.replace(/\/\d+(?=\/|$)/g, '/[]') || '/'}`;
    if (!open.has(where))
      open.set(where, judge({ ...ex, body: JSON.stringify(withExtra(body, path)) }).problems.length === 0);
  }
}
const openPlaces = [...open].filter(([, isOpen]) => isOpen).map(([where]) => where);
const out = { documented, results, examples, checkedPlaces: open.size, openPlaces };
process.stdout.write(JSON.stringify(out) + '\n');
