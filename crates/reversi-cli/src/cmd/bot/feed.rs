//! The site's live sockets, each followed on a thread of its own: every message comes to the
//! bot's loop as an [`Event`] through one channel. A socket that drops is opened again (backing
//! off from a quarter of a second to eight seconds; at once after the server's restart close,
//! 1012) until its [`Follow`] is dropped, or the server closes it normally (1000: nothing more
//! will come). The server's pings are answered by the library as messages are read.

use reversi_site_api::{GameEvent, LobbyEvent};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;
use tungstenite::client::IntoClientRequest;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How often a reading thread looks whether it should stop.
const STOP_CHECK: Duration = Duration::from_millis(250);

/// A message from one of the followed sockets.
#[derive(Debug)]
pub enum Event {
    /// The lobby's socket.
    Lobby(LobbyEvent),
    /// The socket of the tournament (its id).
    Tournament(String, Value),
    /// The socket of the game (its id).
    Game(String, GameEvent),
}

/// A socket followed; dropping it stops the thread (within [`STOP_CHECK`]).
pub struct Follow {
    stop: Arc<AtomicBool>,
}

impl Drop for Follow {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The websocket address of `path` on the site at `base` (`http://…` or `https://…`).
pub fn socket_url(base: &str, path: &str) -> String {
    let base = base.trim_end_matches('/');
    let base = if let Some(rest) = base.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if let Some(rest) = base.strip_prefix("http://") {
        format!("ws://{rest}")
    } else {
        base.to_string()
    };
    format!("{base}{path}")
}

/// Reads one message of a socket as an event.
type Reader = dyn Fn(&str) -> serde_json::Result<Event>;

/// Follows the socket at `path` with the bot's `token`, sending each message, read as a `T`,
/// through `tx` as `wrap` makes it an event.
pub fn follow<T: DeserializeOwned + 'static>(
    base: &str,
    token: &str,
    path: &str,
    tx: Sender<Event>,
    wrap: impl Fn(T) -> Event + Send + 'static,
) -> Follow {
    let stop = Arc::new(AtomicBool::new(false));
    let url = socket_url(base, path);
    let token = token.to_string();
    let flag = Arc::clone(&stop);
    let read = move |text: &str| serde_json::from_str::<T>(text).map(&wrap);
    std::thread::spawn(move || run(&url, &token, &flag, &tx, &read));
    Follow { stop }
}

fn run(url: &str, token: &str, stop: &AtomicBool, tx: &Sender<Event>, wrap: &Reader) {
    let mut retry = 0u32;
    let mut said = false;
    while !stop.load(Ordering::Relaxed) {
        let close = match connect(url, token) {
            Ok(mut ws) => {
                retry = 0;
                said = false;
                let close = read_all(&mut ws, stop, tx, wrap);
                let _ = ws.close(None);
                close
            }
            Err(e) => {
                // Said once per outage, not at every retry.
                if !said {
                    eprintln!("{url}: {e}");
                    said = true;
                }
                None
            }
        };
        match close {
            Some(Closed::Final) | Some(Closed::Stopped) => return,
            Some(Closed::Restart) => retry = 0,
            None => retry = (retry + 1).min(5),
        }
        let wait = if retry == 0 {
            Duration::from_millis(100)
        } else {
            Duration::from_millis(250 << retry)
        };
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(STOP_CHECK.min(wait));
        }
    }
}

/// Why a connection ended, when it says.
enum Closed {
    /// The server closed it normally: nothing more will come.
    Final,
    /// The server restarts: come back at once.
    Restart,
    /// The follower was dropped.
    Stopped,
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

fn connect(url: &str, token: &str) -> Result<Socket, String> {
    let mut req = url.into_client_request().map_err(|e| e.to_string())?;
    let auth = format!("Bearer {token}")
        .parse()
        .map_err(|_| "the token is not a header value".to_string())?;
    req.headers_mut().insert("Authorization", auth);
    let (mut ws, _) = tungstenite::connect(req).map_err(|e| e.to_string())?;
    // Reads wake up now and then, so that a dropped follower stops.
    let tcp = match ws.get_mut() {
        MaybeTlsStream::Plain(s) => Some(s),
        MaybeTlsStream::Rustls(s) => Some(&mut s.sock),
        _ => None,
    };
    if let Some(tcp) = tcp {
        let _ = tcp.set_read_timeout(Some(STOP_CHECK));
    }
    Ok(ws)
}

/// Reads until the connection ends; `None` when it broke without a word.
fn read_all(ws: &mut Socket, stop: &AtomicBool, tx: &Sender<Event>, wrap: &Reader) -> Option<Closed> {
    loop {
        if stop.load(Ordering::Relaxed) {
            return Some(Closed::Stopped);
        }
        match ws.read() {
            Ok(Message::Text(t)) => match wrap(&t) {
                Ok(event) => {
                    if tx.send(event).is_err() {
                        return Some(Closed::Stopped);
                    }
                }
                // A message of a newer server, say: said, and the socket goes on.
                Err(e) => eprintln!(
                    "a message not understood ({e}): {}",
                    reversi_core::quote::clip(&t, 120)
                ),
            },
            Ok(Message::Close(frame)) => {
                return match frame.map(|f| f.code) {
                    Some(CloseCode::Normal) => Some(Closed::Final),
                    Some(CloseCode::Restart) => Some(Closed::Restart),
                    _ => None,
                };
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn socket_addresses_follow_the_site_address() {
        assert_eq!(
            socket_url("http://127.0.0.1:8080", "/api/lobby/ws"),
            "ws://127.0.0.1:8080/api/lobby/ws"
        );
        assert_eq!(
            socket_url("https://reversi.example.org/", "/api/games/x/ws"),
            "wss://reversi.example.org/api/games/x/ws"
        );
    }
}
