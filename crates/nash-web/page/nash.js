// Loads nash.wasm and calls it: each request is a JSON object {cmd, ...} written into the
// module's memory, answered with {ok} or {error} (crates/nash-web/src/lib.rs describes the ABI).
// Used by the page's worker (worker.js) and by the page itself for the quick requests.

export async function load(url = new URL('nash.wasm', import.meta.url)) {
  const imports = { nash: { performance_now: () => performance.now() } };
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch(url), imports));
  } catch (e) {
    // A server that does not send application/wasm: compile from the bytes instead.
    const bytes = await (await fetch(url)).arrayBuffer();
    ({ instance } = await WebAssembly.instantiate(bytes, imports));
  }
  const ex = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    // Answers one request; throws an Error with the module's one-line message.
    call(cmd, args = {}) {
      const bytes = encoder.encode(JSON.stringify({ cmd, ...args }));
      const ptr = ex.nash_alloc(bytes.length);
      new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
      const len = ex.nash_call(ptr, bytes.length);
      const text = decoder.decode(new Uint8Array(ex.memory.buffer, ex.nash_answer(), len));
      const answer = JSON.parse(text);
      if ('error' in answer) throw new Error(answer.error);
      return answer.ok;
    },
  };
}
