// The page's long requests (solve, winning, analyse) run here, so that the page stays
// responsive; the page stops one by ending this worker and starting another.
import { load } from './nash.js';

let nash = load();
self.onmessage = async (event) => {
  const { id, cmd, args } = event.data;
  try {
    const module = await nash;
    const start = performance.now();
    const ok = module.call(cmd, args);
    self.postMessage({ id, ok, ms: performance.now() - start });
  } catch (e) {
    // A trap (a panic inside the module) leaves its memory unusable: start a fresh one.
    if (e instanceof WebAssembly.RuntimeError) nash = load();
    self.postMessage({ id, error: String(e.message || e) });
  }
};
