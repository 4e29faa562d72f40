// player.js: the replay player. It asks the server for the states of a
// run or a match (source.load: a run's steps, a match's turns; 100 at a
// time, kept once fetched) and hands each to the renderer. Controls:
// buttons, a slider, a speed menu, the keyboard, and a permalink to the
// position shown (#step=N for a run, #turn=N for a match: source.key, also
// read on load and when the address changes).

import { el, fill } from './common.js';

const CHUNK = 100;
const BASE_MS = 700; // one step at 1x

function icon(d, cls) {
  return el('svg', { viewBox: '0 0 16 16', 'aria-hidden': 'true', focusable: 'false', class: cls }, el('path', { d }));
}

function button(id, name, keyName, ...icons) {
  return el('button', { type: 'button', id, 'aria-label': name, title: `${name} (${keyName})` }, icons);
}

// Fills root (the player's group, #player) with the stage the renderer
// draws in, the caption, the buttons, the speed menu, the slider and the
// permalink, each a real control with a name; label is the word of a
// position ('Step', 'Turn'), key the address's name. Answers the nodes
// createPlayer takes.
export function playerUi(root, { label, key }) {
  const low = label.toLowerCase();
  const speed = el('select', { id: 'speed' }, ['0.25', '0.5', '1', '2', '4', '8'].map((v) =>
    el('option', { value: v, selected: v === '1' }, `${v}x`)));
  const ui = {
    root,
    stage: el('div', { class: 'stage', id: 'stage' }),
    caption: el('p', { id: 'caption', class: 'caption', 'aria-live': 'polite' }),
    first: button('first', `First ${low}`, 'Home', icon('M3 2h2v12H3zM14 2v12L6 8z')),
    back: button('back', `${label} back`, 'Left arrow', icon('M12 2v12L4 8z')),
    play: el('button', { type: 'button', id: 'play', 'aria-label': 'Play', 'aria-pressed': 'false',
      title: 'Play or pause (Space)' }, icon('M4 2v12l10-6z', 'i-play'), icon('M3 2h4v12H3zM9 2h4v12H9z', 'i-pause')),
    fwd: button('fwd', `${label} forward`, 'Right arrow', icon('M4 2v12l8-6z')),
    last: button('last', `Last ${low}`, 'End', icon('M11 2h2v12h-2zM2 2v12l8-6z')),
    speed,
    slider: el('input', { type: 'range', id: 'slider', min: 0, max: 0, value: 0, step: 1 }),
    stepno: el('output', { id: 'stepno', for: 'slider' }, '0'),
    nsteps: el('span', { id: 'nsteps' }, '0'),
    permalink: el('a', { id: 'permalink', href: `#${key}=0` }, `Link to this ${low}`),
  };
  ui.play.querySelector('.i-pause').setAttribute('hidden', '');
  ui.controls = el('div', { class: 'controls', id: 'controls' }, ui.first, ui.back, ui.play, ui.fwd, ui.last,
    el('label', { class: 'speed' }, 'Speed ', speed));
  fill(root, ui.stage, ui.caption, ui.controls,
    el('div', { class: 'scrub' }, el('label', { for: 'slider' }, `${label} `, ui.stepno, ' of ', ui.nsteps), ui.slider,
      ui.permalink),
    el('p', { class: 'keys' }, `Keys: Left and Right move one ${low}, Page Up and Page Down jump 10, Home and End, `
      + 'Space plays or pauses, [ and ] change the speed.'));
  return ui;
}

// source: {load(from, count) -> Promise of the items from..from+count-1,
// key: the address's name ('step', 'turn'), label: the caption's word}.
export function createPlayer(ui, renderer, source) {
  const { key, label } = source;
  let total = 0;      // positions: the newest + 1
  let at = -1;        // the position drawn
  let want = 0;       // the position asked for last (draws run in order)
  let playing = false;
  let timer = null;
  let speed = 1;
  const chunks = new Map(); // chunk index -> Promise of items

  function chunk(i) {
    if (!chunks.has(i)) {
      const p = source.load(i * CHUNK, CHUNK);
      p.catch(() => chunks.delete(i));
      chunks.set(i, p);
    }
    return chunks.get(i);
  }

  async function step(k) {
    const items = await chunk(Math.floor(k / CHUNK));
    return items[k % CHUNK] || null;
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
    ui.permalink.href = `#${key}=${Math.max(0, at)}`;
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
      ui.caption.textContent = `The ${key}s could not be loaded: ${err.message}`;
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
    ui.caption.textContent = `${label} ${k}: ${renderer.describe(s, prev)}`;
    if (!opts.keepHash) history.replaceState(null, '', `#${key}=${k}`);
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
    const m = new RegExp(`^#${key}=(\\d+)$`).exec(location.hash);
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
    // Sets the newest position (a run's moves, a match's turns); the first
    // call draws the one the address names, else the newest when
    // openAtNewest is set (a finished run or match opens on its end, a
    // followed one where it is now), else the first. follow carries a
    // viewer on the newest position along to each new one.
    async setNewest(newest, { follow = false, openAtNewest = follow } = {}) {
      const was = total;
      const atEnd = at >= was - 1;
      // The chunk that held the old newest position may have been partial.
      if (was > 0) chunks.delete(Math.floor((was - 1) / CHUNK));
      total = newest + 1;
      if (at < 0) {
        const k = fromHash();
        await go(k !== null ? k : openAtNewest ? total - 1 : 0, { keepHash: k === null });
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
