// plot.js: the pages' plots, drawn by uPlot (web/uplot.js, MIT, vendored
// from the npm package locked in tests/web/package-lock.json by
// web/vendor.py). A plot is a figure with a caption and a canvas; the
// numbers it draws stay on its node (node.plot: {x, series: [{label,
// values}], mark}), so a test reads back exactly what was drawn. Each plot
// follows its figure's width. Under the pages' policy uPlot sets styles
// through the CSSOM only, which the policy allows.
import uPlot from './uplot.js';
import { el } from './common.js';

// Distinct without colour too: a solid line, then dashes.
const STROKES = ['#1d4ed8', '#b45309', '#166534', '#7c3aed'];
const DASHES = [[], [6, 4], [2, 3], [8, 3, 2, 3]];
const MARK = '#b91c1c';

function fmtTime(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

// Draws a vertical line at the mark (a step, a turn) when there is one,
// and a dashed one at the fixed mark (where two runs part).
function markPlugin(state) {
  return {
    hooks: {
      draw: [(u) => {
        if (state.fixed !== null && state.fixed !== undefined) {
          const x = Math.round(u.valToPos(state.fixed, 'x', true));
          const { ctx } = u;
          ctx.save();
          ctx.strokeStyle = '#111827';
          ctx.lineWidth = 1.5 * (window.devicePixelRatio || 1);
          ctx.setLineDash([5, 4]);
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
          ctx.restore();
        }
        if (state.mark === null || state.mark === undefined) return;
        const x = Math.round(u.valToPos(state.mark, 'x', true));
        const { ctx } = u;
        ctx.save();
        ctx.strokeStyle = MARK;
        ctx.lineWidth = 2 * (window.devicePixelRatio || 1);
        ctx.setLineDash([]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.restore();
      }],
    },
  };
}

// A figure holding one plot. spec: {id, caption, x: [numbers], xLabel,
// yLabel, time (x in Unix ms), bars, series: [{label, values}] (null: no
// value), mark, fixed (a second mark that does not move), describe: the
// text alternative of the canvas}. Answers {node, setMark}.
export function plot(spec) {
  const box = el('div', { class: 'plot-box', role: 'img', 'aria-label': spec.describe || spec.caption });
  const node = el('figure', { class: 'plot', id: spec.id, 'data-testid': 'plot', 'data-plot': spec.id },
    box, el('figcaption', {}, spec.caption));
  const state = { mark: spec.mark ?? null, fixed: spec.fixed ?? null };
  const xs = spec.time ? spec.x.map((v) => v / 1000) : spec.x;
  const opts = {
    width: 600,
    height: 220,
    plugins: [markPlugin(state)],
    legend: { show: spec.series.length > 1 },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: Boolean(spec.time) } },
    axes: [
      // Steps, turns and scores are whole numbers: no tick between two.
      { label: spec.xLabel, stroke: '#374151', grid: { stroke: '#e5e7eb' },
        incrs: spec.time ? undefined : [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] },
      { label: spec.yLabel, stroke: '#374151', grid: { stroke: '#e5e7eb' }, size: 56 },
    ],
    series: [{ label: spec.xLabel, value: spec.time ? (u, v) => (v === null ? '-' : fmtTime(v * 1000)) : undefined },
      ...spec.series.map((s, i) => ({
        label: s.label,
        stroke: STROKES[i % STROKES.length],
        dash: DASHES[i % DASHES.length],
        width: 2,
        fill: spec.bars ? 'rgba(29, 78, 216, 0.35)' : undefined,
        paths: spec.bars ? uPlot.paths.bars({ size: [0.9, 60] }) : undefined,
        points: { show: spec.bars ? false : xs.length < 60 },
        spanGaps: false,
      }))],
  };
  const data = [xs, ...spec.series.map((s) => s.values)];
  const u = new uPlot(opts, data, box);
  node.plot = { x: spec.x, series: spec.series.map((s) => ({ label: s.label, values: s.values })), mark: state.mark,
    fixed: state.fixed };
  node.uplot = u;
  const fit = () => {
    const w = Math.max(240, Math.floor(box.clientWidth || node.clientWidth || 600));
    if (w !== u.width) u.setSize({ width: w, height: 220 });
  };
  new ResizeObserver(fit).observe(node);
  requestAnimationFrame(fit);
  return {
    node,
    setMark(v) {
      state.mark = v;
      node.plot.mark = v;
      node.dataset.mark = v === null ? '' : String(v);
      u.redraw(false);
    },
  };
}
