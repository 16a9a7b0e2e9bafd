// Runs the committed browser engine (static/engine/reversi.wasm) in Node: one JSON request per
// line on stdin, one JSON answer per line on stdout, through the same exports the page's worker
// uses (rv_alloc, rv_call, rv_answer; env.now_ms as the clock).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const wasm = readFileSync(process.argv[2]);
const { instance } = await WebAssembly.instantiate(wasm, { env: { now_ms: () => performance.now() } });
const x = instance.exports;
const enc = new TextEncoder(), dec = new TextDecoder();

function call(text) {
  const bytes = enc.encode(text);
  const ptr = x.rv_alloc(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  const n = x.rv_call(ptr, bytes.length);
  return dec.decode(new Uint8Array(x.memory.buffer, x.rv_answer(), n));
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) process.stdout.write(call(line) + '\n');
}
