// The engine on this device: the WebAssembly build of the native engine (the same evaluation,
// book and search: the same values at the same depth) in a Web Worker. Loaded only by the
// pages that use it, compiled once per page load from a file the browser caches for good (its
// address carries the build's fingerprint).
//
// `localEngine(onEvent)` gives {send(request), ask(request), close()}; events are what the
// server's analysis socket sends (`position`, `values`, `error`) plus the answers of `view`,
// `best`, `perft`, `solve` and `bench`; `ask` gives the answer to its own request as a promise
// instead. A request that finds the worker deep in a search for longer than PATIENCE ms ends
// that worker and goes to a fresh one: a click on the board never waits for a search.
const WASM = new URL('../engine/reversi.wasm', import.meta.url);
const WORKER = new URL('./engine-worker.js', import.meta.url);
const PATIENCE = 300;

let compiled = null;

/** The compiled module (one download and compilation per page load). */
export function engineModule() {
  if (!compiled) {
    compiled = (WebAssembly.compileStreaming
      ? WebAssembly.compileStreaming(fetch(WASM))
      : fetch(WASM).then(r => r.arrayBuffer()).then(b => WebAssembly.compile(b)));
    compiled.catch(() => { compiled = null; });
  }
  return compiled;
}

/** Whether this browser can run the engine at all. */
export function engineSupported() {
  return typeof WebAssembly === 'object' && typeof Worker === 'function';
}

export function localEngine(onEvent) {
  let worker = null, ready = false, closed = false, waiting = null, timer = null, rid = 0;
  const asked = new Map();
  // A worker still busy PATIENCE ms after it could have heard `waiting` is replaced, and the
  // request goes to the new one.
  const arm = () => {
    clearTimeout(timer);
    const msg = waiting;
    timer = setTimeout(() => {
      if (closed || waiting !== msg) return;
      worker.terminate();
      // What the old worker was answering is lost with it.
      for (const [n, a] of asked) if (n !== msg.rid) { a.reject(Object.assign(new Error('superseded'), { code: 'superseded' })); asked.delete(n); }
      start();
      worker.postMessage(msg);
    }, PATIENCE);
  };
  const start = () => {
    ready = false;
    const w = worker = new Worker(WORKER, { type: 'module' });
    // The engine cannot run: every question waiting fails, and the page hears why.
    const failed = (code, error) => {
      for (const a of asked.values()) a.reject(Object.assign(new Error(error), { code }));
      asked.clear();
      onEvent({ type: 'error', code, error });
    };
    w.onmessage = ev => {
      if (w !== worker || closed) return;
      const msg = ev.data;
      if (msg.type === 'ready') { ready = true; if (waiting) arm(); return; }
      if (msg.type === 'ack') { if (waiting && msg.rid === waiting.rid) { waiting = null; clearTimeout(timer); } return; }
      if (msg.type === 'error' && msg.rid === undefined) { failed(msg.code, msg.error); return; }
      const answer = asked.get(msg.rid);
      if (answer) {
        asked.delete(msg.rid);
        if (msg.type === 'error') answer.reject(Object.assign(new Error(msg.error), { code: msg.code }));
        else answer.resolve(msg);
        return;
      }
      onEvent(msg);
    };
    w.onerror = ev => { if (w === worker && !closed) failed('engine_failed', ev.message || 'the engine stopped'); };
    engineModule().then(module => { if (w === worker) w.postMessage({ type: 'module', module }); },
      e => failed('engine_unavailable', String(e)));
  };
  start();
  const send = req => {
    if (closed) return 0;
    waiting = Object.assign({}, req, { rid: ++rid });
    worker.postMessage(waiting);
    if (ready) arm();
    return rid;
  };
  return {
    send,
    ask(req) {
      return new Promise((resolve, reject) => { const n = send(req); if (n) asked.set(n, { resolve, reject }); });
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (worker) worker.terminate();
      worker = null;
    },
  };
}
