//! What every websocket of the site does besides its own events, written once: the upgrade with
//! the site's size limits, the keep-alive (a ping every third of [`crate::Config::ws_idle`],
//! closed with [`CLOSE_IDLE`] when nothing at all was heard for that long), the flood limit
//! ([`crate::Config::ws_messages_per_sec`], closed with [`CLOSE_FLOOD`]), the JSON
//! `{"type":"ping"}` answered `{"type":"pong"}`, the close on a restart ([`CLOSE_RESTART`]),
//! and the closing handshake after every close the server starts.
//!
//! A socket's loop waits on [`Conn::next`] (safe to drop half-way, so it fits in a
//! `tokio::select!` beside the page's own events) and hands what it got to [`Conn::handle`],
//! which answers what the connection itself answers and gives the page the rest as [`Heard`].

use crate::error::{Error, Result};
use crate::limit::TokenBucket;
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::{Instant, Interval};

/// Close code sent to a client that floods the socket (policy violation).
pub const CLOSE_FLOOD: u16 = 1008;

/// Close code sent to a client that went silent (going away).
pub const CLOSE_IDLE: u16 = 1001;

/// Close code sent to every client when the server stops (service restart): the page
/// reconnects at once, to another instance behind a balancer or to this one once it is back.
pub const CLOSE_RESTART: u16 = 1012;

/// The longest the server waits for the client to answer its close frame.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// The upgrade of a websocket route, with the site's limits; a plain HTTP request to it gets
/// a clear 400.
pub fn upgrade(
    state: &AppState,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<WebSocketUpgrade> {
    let ws = ws.map_err(|_| Error::BadRequest("this address is a websocket: open it as one".into()))?;
    let max = state.config().max_ws_message_bytes;
    // Small buffers: the library's default 128 KiB read buffer per socket was most of the
    // server's memory with thousands of players. Messages are at most `max` bytes coming in
    // and a few KiB going out; each one is written at once.
    Ok(ws
        .read_buffer_size(max.clamp(1024, 16 * 1024))
        .write_buffer_size(0)
        .max_message_size(max)
        .max_frame_size(max))
}

/// An `error` message for a websocket client.
pub fn error_message(e: &Error) -> Message {
    let event = reversi_site_api::GameEvent::Error(e.body());
    Message::Text(serde_json::to_string(&event).unwrap_or_default().into())
}

/// The JSON `pong`.
fn pong() -> Message {
    Message::Text(r#"{"type":"pong"}"#.into())
}

/// Whether `text` is the JSON `{"type":"ping"}` (any other fields ignored).
fn is_ping(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Typed<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_str::<Typed>(text).is_ok_and(|t| t.kind.as_deref() == Some("ping"))
}

/// What the connection saw; returned by [`Conn::next`] for [`Conn::handle`].
pub enum Seen {
    /// The server is stopping.
    Stopping,
    /// Time to ping (or to close a silent client).
    PingDue,
    /// Something came from the client (`None`: the stream ended).
    Incoming(Option<std::result::Result<Message, axum::Error>>),
}

/// What the page's loop is given by [`Conn::handle`].
#[derive(Debug)]
pub enum Heard {
    /// A text message (not a JSON ping) within the flood limit.
    Text(Utf8Bytes),
    /// The client answered the server's ping after this long.
    Pong(Duration),
    /// Nothing for the page (a ping answered, a frame ignored).
    Nothing,
    /// The socket is over: closed by the client, or by the server (restart, idle, flood) with
    /// its close frame and handshake done.
    End,
}

/// A websocket of the site with its keep-alive, flood limit and restart close.
pub struct Conn {
    socket: WebSocket,
    stopping: watch::Receiver<bool>,
    pings: Interval,
    idle: Duration,
    last_heard: Instant,
    ping_sent: Option<Instant>,
    bucket: TokenBucket,
}

impl Conn {
    /// Takes `socket` on; `None` when the server is already stopping (the socket is dropped).
    /// The stop signal is taken first, so a stopping server can wait for every open socket.
    pub fn open(socket: WebSocket, state: &AppState) -> Option<Conn> {
        let stopping = state.stopping();
        if state.is_stopping() {
            return None;
        }
        let config = state.config();
        let idle = config.ws_idle;
        let period = (idle / 3).max(Duration::from_millis(10));
        let mut pings = tokio::time::interval_at(Instant::now() + period, period);
        pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let rate = config.ws_messages_per_sec;
        Some(Conn {
            socket,
            stopping,
            pings,
            idle,
            last_heard: Instant::now(),
            ping_sent: None,
            bucket: TokenBucket::new(rate, rate * 2.0),
        })
    }

    /// Waits for the next thing the connection must deal with. Dropping this future half-way
    /// loses nothing.
    pub async fn next(&mut self) -> Seen {
        let stopping = &mut self.stopping;
        tokio::select! {
            _ = async { let _ = stopping.wait_for(|s| *s).await; } => Seen::Stopping,
            _ = self.pings.tick() => Seen::PingDue,
            incoming = self.socket.recv() => Seen::Incoming(incoming),
        }
    }

    /// Deals with what [`Conn::next`] saw: pings, pongs, closes and the flood limit here; the
    /// rest is the page's.
    pub async fn handle(&mut self, seen: Seen) -> Heard {
        match seen {
            Seen::Stopping => {
                self.close(CLOSE_RESTART, "the server is restarting").await;
                Heard::End
            }
            Seen::PingDue => {
                if self.last_heard.elapsed() >= self.idle {
                    self.close(CLOSE_IDLE, "nothing heard for too long").await;
                    return Heard::End;
                }
                if self.socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return Heard::End;
                }
                self.ping_sent = Some(Instant::now());
                Heard::Nothing
            }
            Seen::Incoming(incoming) => {
                self.last_heard = Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        if !self.within_limit().await {
                            return Heard::End;
                        }
                        let e = Error::BadRequest("send JSON text messages".into());
                        return self.reply(error_message(&e)).await;
                    }
                    Some(Ok(Message::Pong(_))) => {
                        return match self.ping_sent.take() {
                            Some(sent) => Heard::Pong(sent.elapsed()),
                            None => Heard::Nothing,
                        };
                    }
                    // The library answers pings itself.
                    Some(Ok(Message::Ping(_))) => return Heard::Nothing,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Heard::End,
                };
                if !self.within_limit().await {
                    return Heard::End;
                }
                if is_ping(&text) {
                    return self.reply(pong()).await;
                }
                Heard::Text(text)
            }
        }
    }

    /// Counts a message against the flood limit; over it, closes the socket (false).
    async fn within_limit(&mut self) -> bool {
        if self.bucket.take() {
            return true;
        }
        self.close(CLOSE_FLOOD, "too many messages").await;
        false
    }

    async fn reply(&mut self, msg: Message) -> Heard {
        if self.send(msg).await {
            Heard::Nothing
        } else {
            Heard::End
        }
    }

    /// Sends `msg`; false when the client is gone.
    pub async fn send(&mut self, msg: Message) -> bool {
        self.socket.send(msg).await.is_ok()
    }

    /// Sends a text message; false when the client is gone.
    pub async fn send_text(&mut self, text: String) -> bool {
        self.send(Message::Text(text.into())).await
    }

    /// Sends `text` unless it is `last` (what was last sent this way), and keeps it as `last`;
    /// false when the client is gone. Pages pushed after a change send nothing that did not.
    pub async fn send_if_new(&mut self, text: String, last: &mut String) -> bool {
        if text == *last {
            return true;
        }
        if !self.send_text(text.clone()).await {
            return false;
        }
        *last = text;
        true
    }

    /// Sends a close frame, then reads (and drops) what the client still sends until it answers
    /// the close, for [`CLOSE_WAIT`] at most: closing with unread data would reset the
    /// connection, and the client could lose the close frame with its reason.
    pub async fn close(&mut self, code: u16, reason: &str) {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        if self.socket.send(Message::Close(Some(frame))).await.is_err() {
            return;
        }
        let end = Instant::now() + CLOSE_WAIT;
        while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end, self.socket.recv()).await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_json_ping_is_a_ping() {
        assert!(is_ping(r#"{"type":"ping"}"#));
        assert!(is_ping(r#"{"type":"ping","at":5}"#));
        assert!(!is_ping(r#"{"type":"move","move":"d3"}"#));
        assert!(!is_ping(r#"{"type":5}"#));
        assert!(!is_ping("ping"));
        assert!(!is_ping(""));
    }
}
