// The engine on this device: the WebAssembly build of the native engine (the same evaluation,
// book and search: the same values at the same depth) in a Web Worker. Loaded only by the
// pages that use it, compiled once per page load from a file the browser caches for good (its
// address carries the build's fingerprint).
//
// `localEngine(onEvent)` gives {send(request), close()}; events are what the server's analysis
// socket sends (`position`, `values`, `error`) plus the answers of `best`, `perft`, `solve` and
// `bench`. A request that finds the worker deep in a search for longer than PATIENCE ms ends
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
  // A worker still busy PATIENCE ms after it could have heard `waiting` is replaced, and the
  // request goes to the new one.
  const arm = () => {
    clearTimeout(timer);
    const msg = waiting;
    timer = setTimeout(() => {
      if (closed || waiting !== msg) return;
      worker.terminate();
      start();
      worker.postMessage(msg);
    }, PATIENCE);
  };
  const start = () => {
    ready = false;
    const w = worker = new Worker(WORKER, { type: 'module' });
    w.onmessage = ev => {
      if (w !== worker || closed) return;
      const msg = ev.data;
      if (msg.type === 'ready') { ready = true; if (waiting) arm(); return; }
      if (msg.type === 'ack') { if (waiting && msg.rid === waiting.rid) { waiting = null; clearTimeout(timer); } return; }
      onEvent(msg);
    };
    w.onerror = ev => { if (w === worker && !closed) onEvent({ type: 'error', code: 'engine_failed', error: ev.message || 'the engine stopped' }); };
    engineModule().then(module => { if (w === worker) w.postMessage({ type: 'module', module }); },
      e => onEvent({ type: 'error', code: 'engine_unavailable', error: String(e) }));
  };
  start();
  return {
    send(req) {
      if (closed) return;
      waiting = Object.assign({}, req, { rid: ++rid });
      worker.postMessage(waiting);
      if (ready) arm();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (worker) worker.terminate();
      worker = null;
    },
  };
}
