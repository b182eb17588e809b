// The page: a Hex board to set up or play on, Nash's solver and player in a worker, SGF in
// and out. The module answers every request (nash.js); this file only draws and routes.
import { load } from './nash.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const SIZES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
// Boards up to this many cells show the solver's winning moves and carrier; larger ones the
// player's scores (the solver is still there, with a time limit).
const SOLVE_CELLS = 64;

let nash; // the module on the page, for the quick requests
let game; // the game, as the module reads it (crates/nash-web/src/game.rs)
let board; // the module's view of it
let history = []; // earlier games, for undo
let overlay = {}; // what the last solve or analysis found, drawn on the board
let worker = null;
let pending = null; // {resolve, reject} of the worker's running request
let nextId = 1;

const cellName = (c, r) => String.fromCharCode(97 + c) + (r + 1);
const parseCell = (name) => [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];

function startWorker() {
  worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => {
    const p = pending;
    pending = null;
    busy(false);
    if (!p) return;
    if ('error' in event.data) p.reject(new Error(event.data.error));
    else p.resolve(event.data);
  };
}

// Runs a long request in the worker; one at a time.
function inWorker(cmd, args) {
  if (pending) return Promise.reject(new Error('busy: stop the running request first'));
  busy(true, cmd);
  return new Promise((resolve, reject) => {
    pending = { resolve, reject };
    worker.postMessage({ id: nextId++, cmd, args });
  });
}

function stop() {
  if (!pending) return;
  worker.terminate();
  const p = pending;
  pending = null;
  startWorker();
  busy(false);
  p.reject(new Error('stopped'));
}

function busy(on, what) {
  $('stop').disabled = !on;
  for (const id of ['solve', 'analyse', 'move']) $(id).disabled = on;
  document.body.dataset.busy = on ? 'yes' : 'no';
  $('status').textContent = on ? `${what}…` : 'ready';
}

function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
}

function setGame(answer, keep = true) {
  if (keep && game) history.push(game);
  game = answer.game;
  board = answer.board;
  overlay = {};
  clearReport();
  draw();
}

function clearReport() {
  for (const id of ['result', 'winning', 'carrier', 'pv', 'scores', 'time-taken']) $(id).textContent = '';
}

function newBoard() {
  const n = parseInt($('size').value, 10);
  const fresh = { cols: n, rows: n, setup: [], moves: [] };
  setGame({ game: fresh, board: nash.call('show', { game: fresh }) });
}

function solverArgs() {
  const args = { game };
  const t = parseFloat($('time').value);
  if (t > 0) args.time = t;
  const m = parseInt($('tt-mib').value, 10);
  if (m > 0) args.tt_mib = m;
  return args;
}

// Solve: the value, a winning move, the carrier and the line, then every winning move.
async function solve() {
  showError(null);
  clearReport();
  overlay = {};
  const started = performance.now();
  const s = await inWorker('solve', solverArgs());
  const r = s.ok;
  $('result').textContent =
    r.result === 'unknown' ? `unknown (${r.reason})` : `${r.winner} wins (${r.to_move} to move)`;
  $('carrier').textContent = r.carrier.join(' ');
  $('pv').textContent = r.pv.join(' ');
  $('time-taken').textContent = `solve ${(r.time_ms / 1000).toFixed(3)} s, ${r.nodes} nodes`;
  overlay = { carrier: r.carrier, pv: r.pv, best: r.winning_move };
  document.body.dataset.solveMs = String(r.time_ms);
  document.body.dataset.solveWallMs = String(performance.now() - started);
  draw();
  if (r.result === 'unknown' || board.winner) return r;
  const w = (await inWorker('winning', solverArgs())).ok;
  $('winning').textContent =
    `${w.winning.length ? w.winning.join(' ') : 'none'}` +
    (w.exact ? '' : ` (undecided: ${w.unknown.join(' ')})`);
  $('time-taken').textContent +=
    `; winning moves ${(w.time_ms / 1000).toFixed(3)} s, ${w.nodes} nodes`;
  overlay.winning = w.winning;
  overlay.losing = w.losing;
  draw();
  return { solve: r, winning: w };
}

// Analyse: the player's move, its value, the scores of the moves it looked at and its line.
async function analyse() {
  showError(null);
  clearReport();
  const playouts = Math.max(1, parseInt($('playouts').value, 10) || 2000);
  const a = (await inWorker('analyse', { game, playouts })).ok;
  $('result').textContent = `${a.move}` + (a.value == null ? '' : ` (value ${a.value.toFixed(3)})`);
  $('pv').textContent = a.pv.join(' ');
  $('scores').textContent = a.scores.map(([c, v]) => `${c} ${v.toFixed(3)}`).join(', ');
  $('time-taken').textContent = `${(a.time_ms / 1000).toFixed(3)} s, ${a.nodes} playouts`;
  overlay = { pv: a.pv, scores: a.scores, best: a.move };
  draw();
  return a;
}

// Nash's move for the side to move, played on the board.
async function nashMove() {
  const a = await analyse();
  const keep = overlay;
  setGame(nash.call('play', { game, move: a.move }));
  overlay = { scores: keep.scores };
  draw();
  $('result').textContent = `Nash played ${a.move}`;
}

function nashToMove() {
  return !board.winner && $(`nash-${board.to_move}`).checked;
}

async function clicked(name) {
  showError(null);
  try {
    if (pending) throw new Error('busy: stop the running request first');
    const mode = document.querySelector('input[name=mode]:checked').value;
    if (mode === 'setup') {
      const stone = $('stone').value;
      const args = { game, cell: name, to_move: $('to-move').value };
      if (stone !== 'empty') args.stone = stone;
      setGame(nash.call('edit', args));
      return;
    }
    setGame(nash.call('play', { game, move: name }));
    if (nashToMove()) await nashMove();
  } catch (e) {
    showError(e);
  }
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
  }
  return pts;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function draw() {
  const { cols, rows } = board;
  const R = 20;
  const W = Math.sqrt(3) * R;
  const pad = 30;
  const center = (c, r) => [pad + W / 2 + c * W + r * (W / 2), pad + R + r * 1.5 * R];
  const width = pad * 2 + cols * W + (rows - 1) * (W / 2);
  const height = pad * 2 + (rows - 1) * 1.5 * R + 2 * R;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, width, height });
  const black = new Set(board.black);
  const white = new Set(board.white);
  const carrier = new Set(overlay.carrier || []);
  const winning = new Set(overlay.winning || []);
  const losing = new Set(overlay.losing || []);
  const pv = new Map((overlay.pv || []).map((c, i) => [c, i + 1]));
  const scores = new Map(overlay.scores || []);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = cellName(c, r);
      const [x, y] = center(c, r);
      const pts = hexPoints(x, y, R);
      const fill = carrier.has(name) ? '#f3df8a' : '#e8d7b0';
      const poly = el('polygon', {
        points: pts.map((p) => p.join(',')).join(' '),
        fill, stroke: '#8a7a5a', class: 'cell', 'data-cell': name,
      }, svg);
      poly.addEventListener('click', () => clicked(name));
      // The edges: Black's top and bottom, White's left and right.
      const side = (i, j, color) => el('line', {
        x1: pts[i][0], y1: pts[i][1], x2: pts[j][0], y2: pts[j][1],
        stroke: color, 'stroke-width': 4, 'stroke-linecap': 'round',
      }, svg);
      if (c === 0) { side(4, 5, '#eee'); side(3, 4, '#eee'); }
      if (c === cols - 1) { side(1, 2, '#eee'); side(0, 1, '#eee'); }
      if (r === 0) { side(5, 0, '#111'); side(0, 1, '#111'); }
      if (r === rows - 1) { side(2, 3, '#111'); side(3, 4, '#111'); }
      const stone = black.has(name) ? '#111' : white.has(name) ? '#f8f8f8' : null;
      if (stone) {
        el('circle', { cx: x, cy: y, r: R * 0.72, fill: stone, stroke: '#333', 'pointer-events': 'none' }, svg);
      }
      if (board.last === name) {
        el('circle', { cx: x, cy: y, r: R * 0.2, fill: '#d33', 'pointer-events': 'none' }, svg);
      }
      if (winning.has(name)) {
        el('circle', { cx: x, cy: y, r: R * 0.45, fill: 'none', stroke: '#2ca02c', 'stroke-width': 3, 'pointer-events': 'none' }, svg);
      } else if (losing.has(name)) {
        el('circle', { cx: x, cy: y, r: R * 0.15, fill: '#c44', 'pointer-events': 'none' }, svg);
      }
      if (overlay.best === name) {
        el('circle', { cx: x, cy: y, r: R * 0.55, fill: 'none', stroke: '#1f5fbf', 'stroke-width': 2, 'pointer-events': 'none' }, svg);
      }
      const label = pv.has(name) ? String(pv.get(name)) : scores.has(name) ? scores.get(name).toFixed(2) : null;
      if (label && !stone) {
        const t = el('text', {
          x, y: y + 4, 'text-anchor': 'middle', 'font-size': pv.has(name) ? 12 : 9,
          fill: pv.has(name) ? '#1f5fbf' : '#444', 'pointer-events': 'none',
        }, svg);
        t.textContent = label;
      }
    }
  }
  for (let c = 0; c < cols; c++) {
    const [x, y] = center(c, 0);
    el('text', { x, y: y - R - 8, 'text-anchor': 'middle', 'font-size': 11 }, svg).textContent = String.fromCharCode(97 + c);
  }
  for (let r = 0; r < rows; r++) {
    const [x, y] = center(0, r);
    el('text', { x: x - W / 2 - 12, y: y + 4, 'text-anchor': 'middle', 'font-size': 11 }, svg).textContent = String(r + 1);
  }
  $('board').replaceChildren(svg);
  $('to-move').value = board.to_move;
  $('turn').textContent = board.winner
    ? `${board.winner} has won`
    : `${board.to_move} to move, move ${board.moves + 1}`;
  const small = cols * rows <= SOLVE_CELLS;
  $('solve').title = small ? 'solve: winning moves and the proof carrier' : 'solve (large board: give a time limit)';
}

const run = (f) => () => f().catch(showError);

async function main() {
  for (const n of SIZES) {
    const o = document.createElement('option');
    o.value = String(n);
    o.textContent = `${n}x${n}`;
    if (n === 7) o.selected = true;
    $('size').appendChild(o);
  }
  nash = await load();
  startWorker();
  newBoard();
  history = [];
  $('new').onclick = () => { try { newBoard(); } catch (e) { showError(e); } };
  $('undo').onclick = () => {
    if (!history.length || pending) return;
    const g = history.pop();
    setGame({ game: g, board: nash.call('show', { game: g }) }, false);
  };
  $('to-move').onchange = () => {
    try { setGame(nash.call('edit', { game, to_move: $('to-move').value })); } catch (e) { showError(e); }
  };
  $('solve').onclick = run(solve);
  $('analyse').onclick = run(analyse);
  $('move').onclick = run(nashMove);
  $('stop').onclick = stop;
  $('export').onclick = () => {
    try { $('sgf').value = nash.call('sgf-export', { game }).sgf; } catch (e) { showError(e); }
  };
  $('import').onclick = () => {
    try {
      const a = nash.call('sgf-import', { sgf: $('sgf').value });
      setGame(a);
      $('size').value = String(a.board.cols);
    } catch (e) { showError(e); }
  };
  busy(false);
  document.body.dataset.ready = 'yes';
}

// For scripts that drive the page (cargo xtask web --check): the same paths as the buttons.
window.nashPage = {
  importSgf(text) { $('sgf').value = text; $('import').click(); return board; },
  solve, analyse, nashMove, stop,
  board: () => board,
  text: (id) => $(id).textContent,
};

main().catch((e) => { showError(e); $('status').textContent = 'failed to load'; });
