//! `make dev`'s live reload (`VONK_DEV_RELOAD=true`, never on a real site): `GET /__dev/reload`
//! is a server-sent event stream that names this process's start. Each page carries a small
//! script (`app::DEV_RELOAD`) that listens to it; when `make dev` has rebuilt and restarted the
//! server, the browser's reconnect hears another start and the page reloads itself.

use std::convert::Infallible;
use std::sync::OnceLock;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use futures_util::StreamExt;

/// This process's start, as the stream names it.
fn started() -> &'static str {
    static STARTED: OnceLock<String> = OnceLock::new();
    STARTED.get_or_init(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos().to_string()).unwrap_or_default())
}

/// Cancelled when the server stops accepting: every open stream ends, so the graceful shutdown,
/// which waits for open responses, is not held up by the pages listening (`make dev` restarts
/// the server while a tab is open).
fn stopping() -> &'static tokio_util::sync::CancellationToken {
    static STOPPING: OnceLock<tokio_util::sync::CancellationToken> = OnceLock::new();
    STOPPING.get_or_init(tokio_util::sync::CancellationToken::new)
}

/// Ends the open streams: the server is stopping.
pub fn stop() {
    stopping().cancel();
}

/// The stream, when live reload is on; no route otherwise.
pub fn routes(enabled: bool) -> Router {
    if !enabled {
        return Router::new();
    }
    started();
    Router::new().route(
        "/__dev/reload",
        get(|| async {
            // Reconnect quickly after a restart: the page reloads as soon as the new server is up.
            let first = Event::default().retry(Duration::from_millis(250)).data(started());
            let stream = futures_util::stream::once(async move { Ok::<_, Infallible>(first) })
                .chain(futures_util::stream::pending())
                .take_until(stopping().clone().cancelled_owned());
            ([(http::header::CACHE_CONTROL, "no-store")], Sse::new(stream).keep_alive(KeepAlive::default())).into_response()
        }),
    )
}
