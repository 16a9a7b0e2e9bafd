//! The accept loop: HTTP/1.1 connections with a header timeout (which also closes idle
//! keep-alive connections), a cap on open connections per client address and in all, and a
//! graceful shutdown. What a slow or hostile client can hold is bounded: a connection that
//! does not finish its headers in time is closed, and an address past its cap gets no more.

use crate::state::AppState;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt;

/// Open connections per client address, and in all.
#[derive(Debug, Default)]
struct Counts {
    per_ip: HashMap<IpAddr, usize>,
    total: usize,
}

/// The connection counts, shared by the accept loop and the connections' guards.
#[derive(Clone, Debug)]
pub struct Gate {
    counts: Arc<Mutex<Counts>>,
    per_ip: usize,
    total: usize,
    uncapped_loopback: bool,
}

/// A connection's place in the counts, given back when it is dropped.
#[derive(Debug)]
pub struct Admitted {
    gate: Gate,
    ip: IpAddr,
}

impl Gate {
    /// At most `per_ip` connections from one address (loopback ones excepted when
    /// `uncapped_loopback`) and `total` in all.
    pub fn new(per_ip: usize, total: usize, uncapped_loopback: bool) -> Gate {
        Gate {
            counts: Arc::default(),
            per_ip: per_ip.max(1),
            total: total.max(1),
            uncapped_loopback,
        }
    }

    /// A place for a connection from `ip`, or `None` when its address or the server is full.
    pub fn admit(&self, ip: IpAddr) -> Option<Admitted> {
        let mut c = self.counts.lock().ok()?;
        let n = c.per_ip.get(&ip).copied().unwrap_or(0);
        let capped = !(self.uncapped_loopback && ip.is_loopback());
        if (capped && n >= self.per_ip) || c.total >= self.total {
            return None;
        }
        c.per_ip.insert(ip, n + 1);
        c.total += 1;
        Some(Admitted {
            gate: self.clone(),
            ip,
        })
    }

    /// Open connections now (from `ip`, and in all).
    pub fn open(&self, ip: IpAddr) -> (usize, usize) {
        self.counts
            .lock()
            .map(|c| (c.per_ip.get(&ip).copied().unwrap_or(0), c.total))
            .unwrap_or((0, 0))
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut c) = self.gate.counts.lock() {
            c.total = c.total.saturating_sub(1);
            if let Some(n) = c.per_ip.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    c.per_ip.remove(&self.ip);
                }
            }
        }
    }
}

/// How long a shutdown waits for the connections still answering a request.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (for [`SHUTDOWN_GRACE`] at most).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let config = state.config().clone();
    let gate = Gate::new(
        config.max_connections_per_ip,
        config.max_connections,
        config.uncapped_loopback,
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        let (tcp, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(admitted) = gate.admit(peer.ip()) else {
            tracing::debug!("connection from {peer} refused: too many open");
            drop(tcp);
            continue;
        };
        // Small messages go out at once: without TCP_NODELAY, a second message sent right
        // after another (the computer's move after the person's) waits for a delayed ACK.
        let _ = tcp.set_nodelay(true);
        let router = router.clone();
        let mut stop = stop_rx.clone();
        let header_timeout = config.header_timeout;
        while tasks.try_join_next().is_some() {}
        tasks.spawn(async move {
            let _admitted = admitted;
            let service = hyper_util::service::TowerToHyperService::new(router.map_request(
                move |req: hyper::Request<hyper::body::Incoming>| {
                    let mut req = req.map(axum::body::Body::new);
                    req.extensions_mut().insert(ConnectInfo(peer));
                    req
                },
            ));
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .keep_alive(true);
            let conn = builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::trace!("connection from {peer}: {e}");
                    }
                    return;
                }
                _ = stop.wait_for(|s| *s) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    let _ = stop_tx.send(true);
    drop(listener);
    // Websocket sessions outlive their HTTP connection (hyper hands the upgraded socket
    // over): they are told apart, closed with a restart code, and waited for too.
    state.begin_stopping();
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while tasks.join_next().await.is_some() {}
        state.sessions_closed().await;
    })
    .await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_counts_per_address_and_in_all() {
        let gate = Gate::new(2, 3, false);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let a1 = gate.admit(a).unwrap();
        let a2 = gate.admit(a).unwrap();
        assert!(gate.admit(a).is_none(), "a third from one address");
        let b1 = gate.admit(b).unwrap();
        assert!(gate.admit(b).is_none(), "the server is full");
        drop(a1);
        assert_eq!(gate.open(a), (1, 2));
        let b2 = gate.admit(b).unwrap();
        drop((a2, b1, b2));
        assert_eq!(gate.open(a), (0, 0));
        assert!(
            gate.counts.lock().unwrap().per_ip.is_empty(),
            "no address left behind"
        );
        let local = Gate::new(1, 3, true);
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..3)
            .map(|_| local.admit(lo).expect("loopback is not capped"))
            .collect();
        assert!(local.admit(lo).is_none(), "the total cap still holds");
        drop(held);
    }
}
