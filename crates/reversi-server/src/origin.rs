//! Cross-site request refusal: a page of another site may not act on games (move, resign, take
//! a seat) with the visitor's cookies, nor open a websocket with them. Browsers name the page's
//! site in `Origin` on every such request; it must be this server (its `Host`) or one of the
//! configured public origins. Requests without `Origin` come from programs, not pages, and
//! carry their token explicitly, so they pass.
//!
//! And the `Host` a request names must be this server's: an IP address, `localhost`, or the
//! host of a configured public origin ([`crate::Config::allowed_origins`]). A page of an
//! attacker's domain whose name the attacker points at 127.0.0.1 (DNS rebinding) would otherwise
//! be same-origin with a server on this machine; its requests carry the attacker's name and are
//! refused (`421 unknown_host`).

use crate::error::Error;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Whether a request with these headers may change state here.
pub fn allowed(headers: &HeaderMap, extra: &[String]) -> bool {
    if headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("cross-site"))
    {
        return false;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    if extra
        .iter()
        .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    // `null` (a sandboxed frame, a file) and anything that is not scheme://authority fail here.
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https") || authority.is_empty() || authority.contains('/') {
        return false;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    same_authority(authority, host, scheme)
}

/// `host[:port]` of the origin against the `Host` header, the default port of `scheme` written
/// or not.
fn same_authority(origin: &str, host: &str, scheme: &str) -> bool {
    let default = if scheme == "https" { "443" } else { "80" };
    let norm = |a: &str| {
        let a = a.to_ascii_lowercase();
        match a.rsplit_once(':') {
            // An IPv6 literal `[::1]` has colons of its own; a port follows its `]`.
            Some((h, p)) if !p.contains(']') && p == default => h.to_string(),
            _ => a,
        }
    };
    norm(origin) == norm(host)
}

/// Whether a request naming `headers`' `Host` is for this server: the host is an IP address,
/// `localhost` (or a name under it), or the host of one of the public origins `public`. A request
/// without `Host` (HTTP/1.0, no browser) passes.
pub fn host_allowed(headers: &HeaderMap, public: &[String]) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let name = host_name(host);
    if name.is_empty() {
        return false;
    }
    if name.parse::<std::net::IpAddr>().is_ok() || name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    public.iter().any(|o| {
        let authority = o.split_once("://").map_or(o.as_str(), |(_, a)| a);
        host_name(authority) == name
    })
}

/// The host of `host[:port]`, lower case, without the brackets of an IPv6 literal or a final
/// dot.
fn host_name(authority: &str) -> String {
    let a = authority.trim().to_ascii_lowercase();
    let host = if let Some(rest) = a.strip_prefix('[') {
        rest.split_once(']').map_or(rest, |(h, _)| h).to_string()
    } else {
        a.rsplit_once(':').map_or(a.as_str(), |(h, _)| h).to_string()
    };
    host.trim_end_matches('.').to_string()
}

/// Middleware: refuses requests whose `Host` is not this server's with `421 unknown_host`
/// (health checks excepted: a balancer names whatever it likes).
pub async fn check_host(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let health = path == "/healthz" || path == "/readyz";
    if !health && !host_allowed(req.headers(), &state.config().allowed_origins) {
        return Error::UnknownHost.into_response();
    }
    next.run(req).await
}

/// Whether a request changes state (or opens a websocket, which can).
fn acts(req: &Request) -> bool {
    !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        || req.headers().contains_key(header::UPGRADE)
}

/// Middleware: refuses acting requests from foreign pages with `403 foreign_origin`.
pub async fn check(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if acts(&req) && !allowed(req.headers(), &state.config().allowed_origins) {
        return Error::ForeignOrigin.into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    #[test]
    fn same_origin_and_programs_pass_foreign_pages_do_not() {
        let host = ("host", "127.0.0.1:8080");
        assert!(allowed(&headers(&[host]), &[]), "no Origin: a program");
        assert!(allowed(
            &headers(&[host, ("origin", "http://127.0.0.1:8080")]),
            &[]
        ));
        assert!(allowed(
            &headers(&[("host", "example.org"), ("origin", "https://example.org")]),
            &[]
        ));
        assert!(allowed(
            &headers(&[("host", "example.org:443"), ("origin", "https://example.org")]),
            &[]
        ));
        assert!(allowed(
            &headers(&[("host", "[::1]:8080"), ("origin", "http://[::1]:8080")]),
            &[]
        ));
        for bad in [
            "http://evil.example",
            "null",
            "http://127.0.0.1:8081",
            "file://",
            "http://127.0.0.1:8080/x",
        ] {
            assert!(!allowed(&headers(&[host, ("origin", bad)]), &[]), "{bad}");
        }
        assert!(!allowed(&headers(&[host, ("sec-fetch-site", "cross-site")]), &[]));
        assert!(
            !allowed(&headers(&[("origin", "http://127.0.0.1:8080")]), &[]),
            "no Host"
        );
        // Behind a proxy that rewrites Host, the public origin is configured.
        let public = vec!["https://reversi.example.org".to_string()];
        assert!(allowed(
            &headers(&[
                ("host", "10.0.0.5:8080"),
                ("origin", "https://reversi.example.org")
            ]),
            &public
        ));
    }

    #[test]
    fn only_this_servers_hosts_are_served() {
        let h = |v: &str| headers(&[("host", v)]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "10.0.0.5",
            "app.localhost",
        ] {
            assert!(host_allowed(&h(ok), &[]), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "x",
            "127.0.0.1.evil.example",
            "",
        ] {
            assert!(!host_allowed(&h(bad), &[]), "{bad:?}");
        }
        let public = vec!["https://reversi.example.org".to_string()];
        assert!(host_allowed(&h("reversi.example.org"), &public));
        assert!(host_allowed(&h("Reversi.Example.Org:443"), &public));
        assert!(host_allowed(&h("reversi.example.org."), &public));
        assert!(!host_allowed(&h("evil.example"), &public));
        assert!(host_allowed(&HeaderMap::new(), &[]), "no Host: not a browser");
    }
}
