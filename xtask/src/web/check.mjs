// Drives the page in headless Chromium over the DevTools protocol on a pipe (no packages):
// `node check.mjs CONFIG` with CONFIG a JSON file {url, chromium, positions: [{name, sgf}],
// analyse: {sgf, playouts}, stop: {sgf}}; prints one JSON object of what the page answered.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const profile = mkdtempSync(join(tmpdir(), 'nash-web-'));
const browser = spawn(config.chromium, [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });

let nextId = 1;
const waiting = new Map();
let buffer = Buffer.alloc(0);
browser.stdio[4].on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  let end;
  while ((end = buffer.indexOf(0)) >= 0) {
    const msg = JSON.parse(buffer.subarray(0, end).toString('utf8'));
    buffer = buffer.subarray(end + 1);
    const w = waiting.get(msg.id);
    if (!w) continue;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(`${w.method}: ${msg.error.message}`));
    else w.resolve(msg.result);
  }
});
browser.on('exit', (code) => {
  for (const w of waiting.values()) w.reject(new Error(`chromium exited (${code}): ${stderr.trim().split('\n').pop()}`));
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, method });
    browser.stdio[3].write(JSON.stringify(msg) + '\0');
  });
}

let session;
async function evaluate(expression) {
  const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, session);
  if (r.exceptionDetails) {
    const d = r.exceptionDetails;
    throw new Error(`in the page: ${d.exception?.description || d.text}`);
  }
  return r.result.value;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  ({ sessionId: session } = await send('Target.attachToTarget', { targetId, flatten: true }));
  const out = { positions: [] };
  const t0 = Date.now();
  await send('Page.navigate', { url: config.url }, session);
  for (;;) {
    const state = await evaluate("document.body ? [document.body.dataset.ready, document.getElementById('error').textContent] : null");
    if (state && state[0] === 'yes') break;
    if (state && state[1]) throw new Error(`the page did not load: ${state[1]}`);
    if (Date.now() - t0 > 60000) throw new Error('the page did not load within 60 s');
    await sleep(20);
  }
  out.load_ms = Date.now() - t0;
  for (const p of config.positions) {
    const start = Date.now();
    const r = await evaluate(`(async () => {
      nashPage.importSgf(${JSON.stringify(p.sgf)});
      const error = nashPage.text('error');
      if (error) return { error };
      const r = await nashPage.solve();
      return { ...r, solve_wall_ms: Number(document.body.dataset.solveWallMs),
        shown: { winning: nashPage.text('winning'), result: nashPage.text('result') } };
    })()`);
    out.positions.push({ name: p.name, wall_ms: Date.now() - start, ...r });
  }
  if (config.analyse) {
    out.analyse = await evaluate(`(async () => {
      nashPage.importSgf(${JSON.stringify(config.analyse.sgf)});
      document.getElementById('playouts').value = '${config.analyse.playouts}';
      const a = await nashPage.analyse();
      return { ...a, shown: nashPage.text('scores') };
    })()`);
  }
  if (config.stop) {
    // A long solve, stopped from the page after a moment; the page then answers again.
    out.stop = await evaluate(`(async () => {
      nashPage.importSgf(${JSON.stringify(config.stop.sgf)});
      const running = nashPage.solve().then(() => 'finished', (e) => String(e.message));
      await new Promise((r) => setTimeout(r, 500));
      const busy = document.body.dataset.busy;
      const t = performance.now();
      document.getElementById('stop').click();
      const ended = await running;
      return { busy, ended, stop_ms: performance.now() - t, after: document.body.dataset.busy };
    })()`);
  }
  if (config.bad_sgf) {
    out.bad_sgf = await evaluate(`(() => {
      nashPage.importSgf(${JSON.stringify(config.bad_sgf)});
      return nashPage.text('error');
    })()`);
  }
  return out;
}

let code = 0;
try {
  process.stdout.write(JSON.stringify(await main()) + '\n');
} catch (e) {
  process.stderr.write(`error: ${e.message}\n`);
  code = 1;
}
await send('Browser.close').catch(() => {});
browser.kill();
rmSync(profile, { recursive: true, force: true });
process.exit(code);
