// The engine in a Web Worker: the WebAssembly module of crates/reversi-wasm, compiled by the
// page (engine.js) and handed over, so a new worker starts without downloading it again.
//
// The page posts requests ({type: 'position' | 'view' | 'best' | 'perft' | 'solve' | 'bench' | 'stop',
// rid?, …}); every answer carries the request's `rid`. After a `position` the worker evaluates
// in slices (`step`), posting each `values` event, and between slices it hears the next
// message, so a new position or a stop waits at most one move's search.
let x = null, module = null;
const imports = { env: { now_ms: () => performance.now() } };
const enc = new TextEncoder(), dec = new TextDecoder();
const queue = [];
let evaluating = false;

function call(req) {
  const bytes = enc.encode(JSON.stringify(req));
  const ptr = x.rv_alloc(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  const n = x.rv_call(ptr, bytes.length);
  return JSON.parse(dec.decode(new Uint8Array(x.memory.buffer, x.rv_answer(), n)));
}

/** After a panic (a trap: the build aborts at once) the instance is spent: a fresh one. */
async function renew() {
  x = null;
  x = (await WebAssembly.instantiate(module, imports)).exports;
  drain();
}

function answer(req, body) {
  if (req && req.rid !== undefined) body.rid = req.rid;
  postMessage(body);
}

function step() {
  if (!evaluating || queue.length) return;
  let r;
  try { r = call({ type: 'step', ms: 120 }); } catch (e) { evaluating = false; postMessage({ type: 'error', code: 'engine_failed', error: String(e) }); renew(); return; }
  if (r.type === 'values') {
    postMessage(r);
    if (r.done) evaluating = false;
  } else if (r.type === 'idle') {
    evaluating = false;
  }
  if (evaluating) setTimeout(step, 0);
}

function drain() {
  while (queue.length) {
    const req = queue.shift();
    // Heard: the page stops waiting to replace a busy worker.
    if (req.rid !== undefined) postMessage({ type: 'ack', rid: req.rid });
    let r;
    try { r = call(req); } catch (e) { answer(req, { type: 'error', code: 'engine_failed', error: String(e) }); renew(); return; }
    answer(req, r);
    if (req.type === 'position') evaluating = r.type === 'position';
    if (req.type === 'stop') evaluating = false;
  }
  if (evaluating) setTimeout(step, 0);
}

onmessage = async ev => {
  const msg = ev.data;
  if (msg && msg.type === 'module') {
    try {
      module = msg.module;
      x = (await WebAssembly.instantiate(module, imports)).exports;
      postMessage({ type: 'ready' });
      drain();
    } catch (e) {
      postMessage({ type: 'error', code: 'engine_unavailable', error: String(e) });
    }
    return;
  }
  queue.push(msg);
  if (x) drain();
};
