// A page's live socket: opens `path`, hands each JSON message to the page, and reconnects
// until the page closes it — at once (spread over half a second) after a server restart
// (close 1012), otherwise backing off from a quarter of a second to eight. A close the server
// means as final (1000, after an `error` message) is not retried.

/** Opens the socket; `onMessage(msg)` gets every message, `onState(open)` each change of it. */
export function liveSocket(path, onMessage, onState = () => {}) {
  const s = { ws: null, retry: 0, closed: false, timer: null };
  const connect = () => {
    if (s.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = s.ws = new WebSocket(`${proto}//${location.host}${path}`);
    ws.onopen = () => { s.retry = 0; if (!s.closed) onState(true); };
    ws.onmessage = ev => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (!s.closed) onMessage(msg);
    };
    ws.onclose = ev => {
      if (s.closed || s.ws !== ws) return;
      s.ws = null;
      onState(false);
      if (ev.code === 1000) return;
      s.retry = Math.min(s.retry + 1, 5);
      s.timer = setTimeout(connect, ev.code === 1012 ? 50 + Math.random() * 450 : 250 * 2 ** s.retry + Math.random() * 250);
    };
  };
  connect();
  return {
    /** Whether the socket is open now. */
    get open() { return Boolean(s.ws && s.ws.readyState === WebSocket.OPEN); },
    /** Closes it for good (the page is left). */
    close() { s.closed = true; clearTimeout(s.timer); if (s.ws) s.ws.close(); s.ws = null; },
  };
}
