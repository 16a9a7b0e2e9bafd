//! Who is asking, as far as the network tells: the client's address (believed from
//! `X-Forwarded-For` only through trusted proxies) and the per-address rate limit every API
//! request passes.

use crate::error::Error;
use crate::state::AppState;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The client's address, as the API's handlers see it (set by [`rate_limit`]; unspecified
/// when the server runs without connection info, as in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The client's address: the peer's, or — when the peer is a trusted proxy — the last address
/// of `X-Forwarded-For` that is not a trusted proxy (the one the nearest trusted proxy saw;
/// what comes before it is the client's word and is not believed).
pub fn client_ip(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[ipnet::IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|n| n.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    // From the nearest hop back: each trusted proxy vouches for the one before it.
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.trim().parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !is_trusted(&ip) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// Middleware: one token bucket per client address; over the limit, `429`.
pub async fn rate_limit(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    let ip = client_ip(peer, req.headers(), &state.config().trusted_proxies);
    if !state.limiter().check(ip) {
        return Error::TooManyRequests.into_response();
    }
    req.extensions_mut().insert(ClientAddr(ip));
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    fn xff(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_client_address_is_believed_only_from_trusted_proxies() {
        let trusted: Vec<ipnet::IpNet> = vec!["10.0.0.0/8".parse().unwrap(), "192.0.2.7/32".parse().unwrap()];
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // Not from a proxy: the header is the client's word, ignored.
        assert_eq!(
            client_ip(ip("203.0.113.9"), &xff(&["1.2.3.4"]), &trusted),
            ip("203.0.113.9")
        );
        // From a proxy: the address it saw (the last hop), not what the client wrote before it.
        let h = xff(&["6.6.6.6, 198.51.100.4"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("198.51.100.4"));
        // Through two trusted proxies, in two headers.
        let h = xff(&["6.6.6.6, 198.51.100.4", "192.0.2.7"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("198.51.100.4"));
        // Garbage the client put in front does not hide it; garbage at the end stops the walk.
        let h = xff(&["not-an-ip, 198.51.100.4"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("198.51.100.4"));
        assert_eq!(
            client_ip(ip("10.1.2.3"), &xff(&["junk"]), &trusted),
            ip("10.1.2.3")
        );
        // No header: the proxy itself.
        assert_eq!(
            client_ip(ip("10.1.2.3"), &HeaderMap::new(), &trusted),
            ip("10.1.2.3")
        );
        // Nothing trusted: never believed.
        assert_eq!(client_ip(ip("10.1.2.3"), &xff(&["1.2.3.4"]), &[]), ip("10.1.2.3"));
    }
}
