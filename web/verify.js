// verify.js: the verifier page. A dropped or chosen file is read here (it
// never leaves the browser but for the one request): a replay, or a run's
// JSON holding one and its certificate; its game comes from its rules
// version. The server's verify route says whether it holds.
import { api, el, fill, games } from './common.js';

const form = document.getElementById('verify-form');
const input = document.getElementById('replay-file');
const drop = document.getElementById('drop');
const certText = document.getElementById('cert-text');
const certFile = document.getElementById('cert-file');
const result = document.getElementById('result');
const body = document.getElementById('result-body');
let dropped = null;

function show(state, ...children) {
  result.hidden = false;
  result.dataset.state = state;
  fill(body, children);
}

async function verify(file) {
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch (err) {
    show('error', el('p', { class: 'bad' }, `${file.name} is not JSON: ${err.message}`));
    return;
  }
  const replay = doc && typeof doc === 'object' && doc.replay && typeof doc.replay === 'object' ? doc.replay : doc;
  const pasted = certText.value.trim();
  const cert = pasted || (doc && typeof doc.certificate === 'string' ? doc.certificate : null);
  const list = await games();
  const g = list.find((x) => x.rules === (replay && replay.rules)) || list.find((x) => x.name === doc.game);
  if (!g) {
    show('error', el('p', { class: 'bad' }, `Unknown rules version ${JSON.stringify(replay && replay.rules)}: `
      + `this server plays ${list.map((x) => x.rules).join(', ')}.`));
    return;
  }
  show('checking', el('p', {}, `Replaying ${file.name} on ${g.name}...`));
  try {
    const d = await api(`/api/games/${g.name}/replays/verify`, cert ? { replay, certificate: cert } : replay);
    show('valid',
      el('p', { class: 'good' }, `Valid: ${d.actions} ${d.actions === 1 ? 'action replays' : 'actions replay'} `
        + 'to the final summary the file claims.'),
      el('dl', { class: 'summary' },
        el('dt', {}, 'Final'), el('dd', {}, el('code', {}, JSON.stringify(d.final))),
        el('dt', {}, 'Replay hash'), el('dd', {}, el('code', {}, d.replayHash)),
        el('dt', {}, 'Certificate'), el('dd', {}, d.certificate ? 'valid: signed by this server, naming this replay'
          : 'none sent')));
  } catch (err) {
    const e = err.body || {};
    show('invalid',
      el('p', { class: 'bad' }, `Does not verify: ${err.message}`),
      e.step ? el('p', {}, `At action ${e.step}.`) : null,
      e.simulatedFinal ? el('p', {}, 'The actions give ', el('code', {}, JSON.stringify(e.simulatedFinal)), '.') : null);
  }
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const file = input.files[0] || dropped;
  if (!file) {
    show('error', el('p', { class: 'bad' }, 'Choose or drop a replay file first.'));
    return;
  }
  verify(file);
});
certFile.addEventListener('change', async () => {
  if (certFile.files[0]) certText.value = (await certFile.files[0].text()).trim();
});
input.addEventListener('change', () => {
  dropped = null;
  if (input.files[0]) verify(input.files[0]);
});
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const f = e.dataTransfer.files[0];
  if (f) {
    dropped = f;
    input.required = false;
    verify(f);
  }
});
