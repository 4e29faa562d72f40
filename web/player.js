// player.js: the replay player. It asks the server for the run's states
// (GET /api/games/{game}/runs/{id}/steps, 100 at a time, kept once
// fetched) and hands each to the game's renderer. Controls: buttons, a
// slider, a speed menu, the keyboard, and a permalink to the step shown
// (#step=N, also read on load and when the address changes).
import { api } from './common.js';

const CHUNK = 100;
const BASE_MS = 700; // one step at 1x

export function createPlayer(ui, renderer, game, runId) {
  let total = 0;      // steps: moves + 1
  let at = -1;        // the step drawn
  let want = 0;       // the step asked for last (draws run in order)
  let playing = false;
  let timer = null;
  let speed = 1;
  const chunks = new Map(); // chunk index -> Promise of steps

  function chunk(i) {
    if (!chunks.has(i)) {
      const p = api(`/api/games/${game}/runs/${runId}/steps?from=${i * CHUNK}&count=${CHUNK}`)
        .then((d) => d.steps);
      p.catch(() => chunks.delete(i));
      chunks.set(i, p);
    }
    return chunks.get(i);
  }

  async function step(k) {
    const steps = await chunk(Math.floor(k / CHUNK));
    return steps[k % CHUNK] || null;
  }

  async function stepIfHeld(k) {
    if (k < 0 || !chunks.has(Math.floor(k / CHUNK))) return null;
    try {
      return await step(k);
    } catch (_) {
      return null;
    }
  }

  function controls() {
    ui.slider.max = String(Math.max(0, total - 1));
    ui.slider.value = String(Math.max(0, at));
    ui.stepno.value = String(Math.max(0, at));
    ui.stepno.textContent = String(Math.max(0, at));
    ui.nsteps.textContent = String(Math.max(0, total - 1));
    ui.permalink.href = `#step=${Math.max(0, at)}`;
    ui.first.disabled = ui.back.disabled = at <= 0;
    ui.last.disabled = ui.fwd.disabled = at >= total - 1;
    ui.play.setAttribute('aria-pressed', playing ? 'true' : 'false');
    ui.play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    ui.play.querySelector('.i-play').toggleAttribute('hidden', playing);
    ui.play.querySelector('.i-pause').toggleAttribute('hidden', !playing);
    ui.root.dataset.step = String(at);
    ui.root.dataset.total = String(total);
    ui.root.dataset.playing = playing ? 'true' : 'false';
  }

  async function go(k, opts = {}) {
    k = Math.max(0, Math.min(total - 1, Math.trunc(k)));
    if (Number.isNaN(k)) return;
    want = k;
    ui.root.setAttribute('aria-busy', 'true');
    let s;
    try {
      s = await step(k);
    } catch (err) {
      ui.caption.textContent = `The steps could not be loaded: ${err.message}`;
      ui.root.removeAttribute('aria-busy');
      stop();
      return;
    }
    if (want !== k) return;
    if (!s) {
      ui.root.removeAttribute('aria-busy');
      return;
    }
    const prev = await stepIfHeld(k - 1);
    if (want !== k) return;
    at = k;
    renderer.draw(s, prev, { animate: opts.animate && !matchMedia('(prefers-reduced-motion: reduce)').matches
      ? Math.min(300, BASE_MS / speed / 2) : 0 });
    ui.caption.textContent = `Step ${k}: ${renderer.describe(s, prev)}`;
    if (!opts.keepHash) history.replaceState(null, '', `#step=${k}`);
    ui.root.removeAttribute('aria-busy');
    controls();
    // Fetch ahead while playing.
    if (playing && (k + 20) % CHUNK === 0 && k + 20 < total) chunk(Math.floor((k + 20) / CHUNK));
  }

  function tick() {
    if (!playing) return;
    if (at >= total - 1) {
      stop();
      return;
    }
    go(at + 1, { animate: true }).then(() => {
      if (playing) timer = setTimeout(tick, BASE_MS / speed);
    });
  }

  function play() {
    if (playing || total <= 1) return;
    if (at >= total - 1) go(0);
    playing = true;
    controls();
    timer = setTimeout(tick, BASE_MS / speed);
  }

  function stop() {
    clearTimeout(timer);
    if (!playing) return;
    playing = false;
    controls();
  }

  function toggle() {
    if (playing) stop();
    else play();
  }

  function setSpeed(v) {
    speed = v;
    ui.speed.value = String(v);
  }

  function shiftSpeed(d) {
    const opts = [...ui.speed.options].map((o) => Number(o.value));
    const i = opts.indexOf(speed);
    setSpeed(opts[Math.max(0, Math.min(opts.length - 1, i + d))]);
  }

  function fromHash() {
    const m = /^#step=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }

  ui.first.addEventListener('click', () => { stop(); go(0); });
  ui.back.addEventListener('click', () => { stop(); go(at - 1); });
  ui.fwd.addEventListener('click', () => { stop(); go(at + 1, { animate: true }); });
  ui.last.addEventListener('click', () => { stop(); go(total - 1); });
  ui.play.addEventListener('click', toggle);
  ui.speed.addEventListener('change', () => setSpeed(Number(ui.speed.value)));
  ui.slider.addEventListener('input', () => {
    const k = Number(ui.slider.value);
    stop();
    go(k);
  });
  window.addEventListener('hashchange', () => {
    const k = fromHash();
    if (k !== null && k !== at) go(k, { keepHash: true });
  });
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const tag = t && t.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (tag === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return;
    if (ui.root.hidden || ui.root.closest('[hidden]')) return;
    const keys = {
      ArrowRight: () => { stop(); go(at + 1, { animate: true }); },
      ArrowLeft: () => { stop(); go(at - 1); },
      PageDown: () => { stop(); go(at + 10); },
      PageUp: () => { stop(); go(at - 10); },
      Home: () => { stop(); go(0); },
      End: () => { stop(); go(total - 1); },
      ' ': toggle,
      k: toggle,
      ']': () => shiftSpeed(1),
      '[': () => shiftSpeed(-1),
    };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  });

  return {
    // Sets the number of moves; the first call draws the step the address
    // names (or the last one when follow is set, else the first).
    async setMoves(moves, { follow } = {}) {
      const was = total;
      const atEnd = at >= was - 1;
      // The chunk that held the old last step may have been partial.
      if (was > 0) chunks.delete(Math.floor((was - 1) / CHUNK));
      total = moves + 1;
      if (at < 0) {
        const k = fromHash();
        await go(k !== null ? k : follow ? total - 1 : 0, { keepHash: k === null });
      } else if (follow && atEnd && !playing && total > was) {
        await go(total - 1, { animate: true, keepHash: true });
      } else {
        controls();
      }
    },
    get step() { return at; },
    stop,
  };
}
