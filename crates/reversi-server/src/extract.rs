//! What handlers take from a request, read once and typed: the caller's credentials and
//! identity, the seat it holds in the game of the path, a JSON body, a query, the client's
//! address and language. Each rejects with the server's one [`Error`], so a handler's signature
//! says what it needs and its body is only the work.

use crate::body::{is_json, read_object};
use crate::client::ClientAddr;
use crate::error::{Error, Result};
use crate::session::{Credentials, Identity};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Query, RawPathParams, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use reversi_render::Lang;
use serde::de::DeserializeOwned;
use std::convert::Infallible;

impl<S: Send + Sync> FromRequestParts<S> for Credentials {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> std::result::Result<Self, Infallible> {
        Ok(Credentials::from_headers(&parts.headers))
    }
}

/// Who sent the request: an account, a guest, or nobody (see [`AppState::identity`]).
#[derive(Clone, Debug)]
pub struct Caller(pub Identity);

impl FromRequestParts<AppState> for Caller {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let creds = Credentials::from_headers(&parts.headers);
        Ok(Caller(state.identity(&creds).await?))
    }
}

/// The caller, made a guest if it was nobody: the guest cookie then goes back with the answer
/// ([`CallerOrGuest::answer`]).
#[derive(Clone, Debug)]
pub struct CallerOrGuest {
    /// The caller.
    pub who: Identity,
    /// The new guest cookie, when the caller just became a guest.
    pub cookie: Option<HeaderValue>,
}

impl CallerOrGuest {
    /// `resp`, with the guest cookie when one was issued.
    pub fn answer(&self, resp: impl IntoResponse) -> Response {
        let mut resp = resp.into_response();
        if let Some(c) = &self.cookie {
            resp.headers_mut().append(header::SET_COOKIE, c.clone());
        }
        resp
    }
}

impl FromRequestParts<AppState> for CallerOrGuest {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let creds = Credentials::from_headers(&parts.headers);
        let (who, cookie) = state.identity_or_guest(&creds).await?;
        Ok(CallerOrGuest { who, cookie })
    }
}

/// The seat the caller holds in the game of the path's `{id}` ([`AppState::seat_token`]).
#[derive(Clone, Debug)]
pub struct Seat {
    /// The game.
    pub game: String,
    /// The seat token that acts for the caller, if any.
    pub token: Option<String>,
    /// The credentials it was found from.
    pub creds: Credentials,
}

impl Seat {
    /// The token, as the game room takes it.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Whether the token acting for the caller is not the one the request carried (it was found
    /// through the caller's account or guest key): the client does not know it yet.
    pub fn found_not_carried(&self) -> bool {
        self.token.is_some() && self.creds.seat_token(&self.game) != self.token.as_deref()
    }

    /// Whether the request carried its seat in the game's cookie (not a bearer header).
    pub fn by_cookie(&self) -> bool {
        self.creds.bearer().is_none()
    }
}

impl FromRequestParts<AppState> for Seat {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|e| Error::BadRequest(e.body_text()))?;
        let game = params
            .iter()
            .find(|(k, _)| *k == "id")
            .map(|(_, v)| v.to_string())
            .ok_or_else(|| Error::Internal("a seat outside a game's path".into()))?;
        let creds = Credentials::from_headers(&parts.headers);
        let token = state.seat_token(&creds, &game).await?;
        Ok(Seat { game, token, creds })
    }
}

/// A JSON object body, required (see [`crate::body`]).
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

/// A JSON object body that may be left out (`T::default()` then).
#[derive(Debug)]
pub struct OptionalJsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self> {
        let json = is_json(req.headers());
        let body = Bytes::from_request(req, state).await;
        read_object(json, body)?
            .ok_or_else(|| Error::BadRequest("a JSON body is required".into()))
            .map(JsonBody)
    }
}

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self> {
        let json = is_json(req.headers());
        let body = Bytes::from_request(req, state).await;
        Ok(OptionalJsonBody(read_object(json, body)?.unwrap_or_default()))
    }
}

/// A query string, whose faults are the client's (`400` with what is wrong).
#[derive(Debug)]
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        Query::from_request_parts(parts, state)
            .await
            .map(|Query(q)| ApiQuery(q))
            .map_err(|e| Error::BadRequest(e.body_text()))
    }
}

/// The language a query asks for (`?lang=en|ru`, English when left out).
#[derive(Clone, Copy, Debug)]
pub struct LangParam(pub Lang);

#[derive(serde::Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for LangParam {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let ApiQuery(q) = ApiQuery::<LangQuery>::from_request_parts(parts, state).await?;
        match q.lang.as_deref() {
            None => Ok(LangParam(Lang::En)),
            Some(l) => l.parse().map(LangParam).map_err(Error::BadRequest),
        }
    }
}

/// The language of the browser's first choice (`Accept-Language`), for pages no script has
/// chosen one for.
#[derive(Clone, Copy, Debug)]
pub struct BrowserLang(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for BrowserLang {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> std::result::Result<Self, Infallible> {
        let lang = parts
            .headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .map_or(Lang::En, Lang::from_locale);
        Ok(BrowserLang(lang))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self> {
        parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .ok_or_else(|| Error::Internal("no client address: the rate limit did not run".into()))
    }
}

/// What a GET of a file says about the copy the browser holds and what it can unpack:
/// `If-None-Match` (the entity tags it has) and whether `Accept-Encoding` takes gzip.
#[derive(Clone, Debug, Default)]
pub struct Conditional {
    /// The `If-None-Match` header, as sent.
    pub if_none_match: Option<String>,
    /// Whether the browser accepts a gzip body.
    pub gzip: bool,
}

impl Conditional {
    /// Whether the browser's copy is `etag` (or it asked with `*`); weak tags compare equal.
    pub fn matches(&self, etag: &HeaderValue) -> bool {
        let Some(list) = self.if_none_match.as_deref() else {
            return false;
        };
        let etag = etag.to_str().unwrap_or("");
        list.split(',')
            .map(str::trim)
            .any(|t| t == "*" || t.trim_start_matches("W/") == etag)
    }
}

/// Whether an `Accept-Encoding` value takes gzip (`gzip`, `x-gzip` or `*`, not with `q=0`).
fn accepts_gzip(value: &str) -> bool {
    value.split(',').any(|part| {
        let mut it = part.split(';').map(str::trim);
        let name = it.next().unwrap_or("").to_ascii_lowercase();
        let refused = it.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        matches!(name.as_str(), "gzip" | "x-gzip" | "*") && !refused
    })
}

impl<S: Send + Sync> FromRequestParts<S> for Conditional {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> std::result::Result<Self, Infallible> {
        let text = |name| {
            parts
                .headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        Ok(Conditional {
            if_none_match: text(header::IF_NONE_MATCH).map(str::to_string),
            gzip: text(header::ACCEPT_ENCODING).is_some_and(accepts_gzip),
        })
    }
}

#[cfg(test)]
mod conditional_tests {
    use super::*;

    #[test]
    fn gzip_is_taken_unless_refused() {
        assert!(accepts_gzip("gzip, deflate, br"));
        assert!(accepts_gzip("br;q=1.0, gzip;q=0.8"));
        assert!(accepts_gzip("*"));
        assert!(!accepts_gzip("gzip;q=0, br"));
        assert!(!accepts_gzip("identity"));
        assert!(!accepts_gzip("deflate, br"));
    }

    #[test]
    fn entity_tags_match_in_lists_and_weakly() {
        let tag = HeaderValue::from_static("\"abc\"");
        let c = |s: &str| Conditional {
            if_none_match: Some(s.into()),
            gzip: false,
        };
        assert!(c("\"abc\"").matches(&tag));
        assert!(c("\"x\", W/\"abc\"").matches(&tag));
        assert!(c("*").matches(&tag));
        assert!(!c("\"abcd\"").matches(&tag));
        assert!(!Conditional::default().matches(&tag));
    }
}
