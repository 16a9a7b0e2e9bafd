//! A deadline for a request's whole body: a client that trickles its body (a byte a second keeps
//! a per-chunk timeout from ever firing) is cut off once [`crate::Config::body_timeout`] has
//! passed since its headers arrived, and answered `408 body_timeout`.

use crate::state::AppState;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The error a body past its deadline ends with (found again by [`timed_out`]).
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within its deadline")]
pub struct BodyTimedOut;

/// A body that fails once its deadline has passed, however it trickles.
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(axum::Error::new(BodyTimedOut))));
        }
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Middleware: the request's body must have arrived whole within the body timeout, counted from
/// now (its headers have just arrived).
pub async fn whole_body(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    if body.is_end_stream() {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let deadline = Box::pin(tokio::time::sleep(state.config().body_timeout));
    let body = Body::new(DeadlineBody {
        inner: body,
        deadline,
    });
    next.run(Request::from_parts(parts, body)).await
}

/// Whether `e` (a body's error, however wrapped) is a passed deadline.
pub fn timed_out(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if err.is::<BodyTimedOut>() {
            return true;
        }
        cur = err.source();
    }
    false
}
