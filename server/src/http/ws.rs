//! The chat socket (`/ws`): one per open tab, push only (sending stays a server function).
//! The session cookie authenticates it and the Origin must be the site's own. A client
//! connects with the last message id it has (`?after=`); the socket subscribes to the bus
//! first, then sends what is newer, then streams, so nothing falls in between. Duplicates are
//! dropped by id here and again in the client.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use domain::chat_socket::Push;
use http::HeaderMap;
use serde::Deserialize;

use crate::chat::bus::{Bus, Outgoing, Signal};
use crate::chat::store::{self, MessageRow};
use crate::error::AppError;
use crate::http::session::CurrentMember;
use crate::state::AppState;

/// Messages read per backlog; more than that and the client reloads instead (`resync`).
const BACKLOG: i64 = 200;
/// A resync also reads messages this recent, whatever their id: ids can commit out of order.
const RESYNC_WINDOW_SECS: i64 = 30;
const PING_EVERY: Duration = Duration::from_secs(25);

pub fn routes() -> axum::Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

#[derive(Debug, Deserialize)]
struct Resume {
    after: Option<i64>,
}

/// A browser always sends Origin on a socket handshake: it must be present and ours
/// (cross-site socket hijacking), whatever Sec-Fetch-Site says.
pub fn socket_origin_allowed(headers: &HeaderMap, public_origins: &[String]) -> bool {
    if !headers.contains_key(http::header::ORIGIN) {
        return false;
    }
    let mut without_fetch_site = headers.clone();
    without_fetch_site.remove("sec-fetch-site");
    crate::http::guard::origin_allowed(&without_fetch_site, public_origins)
}

async fn upgrade(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(current): Extension<CurrentMember>,
    Query(resume): Query<Resume>,
    ws: WebSocketUpgrade,
) -> Response {
    if !socket_origin_allowed(&headers, &state.config.public_origins) {
        tracing::warn!("refused a chat socket from another origin");
        return AppError::from(domain::ErrorCode::ForbiddenOrigin).into_response();
    }
    let (Some(member), Some(session)) = (current.0, crate::http::session::session_hash(&headers)) else {
        return AppError::from(domain::ErrorCode::AuthenticationRequired).into_response();
    };
    let bus = state.chat.bus().clone();
    let streams = state.streams.clone();
    let clock = state.clock.clone();
    // The client sends nothing that matters: small frames, and a small read buffer (the default
    // 128 KiB buffer is zero-filled on the first read and stays resident per socket).
    ws.max_message_size(4096).max_frame_size(4096).read_buffer_size(4096).on_upgrade(move |socket| {
        let task_bus = bus.clone();
        async move {
            let open = crate::metrics::SocketGauge::open();
            // The socket belongs to the session it was opened with: it ends with it.
            let lease = streams.open(&session, crate::streams::Need::Member);
            task_bus.track(async move {
                run(bus, member.id, resume.after, socket, clock, lease).await;
                drop(open);
            })
        }
    })
}

/// Remembers the ids a socket sent, to drop repeats (a message can arrive from the backlog and
/// the bus both).
struct Sent {
    ids: HashSet<i64>,
    order: VecDeque<i64>,
    /// The newest id sent, where a resync starts.
    last: i64,
}

impl Sent {
    fn new(last: i64) -> Sent {
        Sent { ids: HashSet::new(), order: VecDeque::new(), last }
    }

    /// True the first time an id is seen.
    fn first(&mut self, id: i64) -> bool {
        if !self.ids.insert(id) {
            return false;
        }
        self.order.push_back(id);
        if self.order.len() > 1024 {
            if let Some(old) = self.order.pop_front() {
                self.ids.remove(&old);
            }
        }
        self.last = self.last.max(id);
        true
    }
}

async fn run(bus: Bus, user: i64, after: Option<i64>, mut socket: WebSocket, clock: crate::clock::Clock, mut lease: crate::streams::Lease) {
    let mut subscription = bus.subscribe(user);
    let shutdown = bus.shutdown_token();
    let mut sent = Sent::new(after.unwrap_or(0));
    if let Some(after) = after {
        if backlog(&bus, user, after, i64::MAX, &mut sent, &mut socket).await.is_err() {
            return;
        }
    } else if let Ok(latest) = store::latest_id(bus.db(), user).await {
        sent.last = latest;
    }
    // Then the unread total as it is now: the badge is right after every (re)connect, and the
    // first frame tells the client the socket is listening (anything sent from now on arrives).
    match store::unread_total(bus.db(), user).await {
        Ok(total) => {
            let Ok(json) = serde_json::to_string(&Push::Unread { total }) else { return };
            if socket.send(Message::Text(json.into())).await.is_err() {
                return;
            }
        }
        Err(error) => {
            error.into_public();
            return;
        }
    }
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        tokio::select! {
            out = subscription.rx.recv() => {
                let result = match out {
                    // Dropped from the bus (too far behind): the client reconnects and resyncs.
                    None => break,
                    Some(Outgoing::Message(row)) => send_message(&mut socket, &row, user, &mut sent).await,
                    Some(Outgoing::Json(json)) => socket.send(Message::Text(json.to_string().into())).await.map_err(|_| ()),
                    Some(Outgoing::Resync) => backlog(&bus, user, sent.last, clock.now() - RESYNC_WINDOW_SECS, &mut sent, &mut socket).await,
                };
                if result.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                // Pings are answered by the library; the client has nothing to say.
                Some(Ok(_)) => {}
            },
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
            }
            _ = shutdown.cancelled() => {
                let _ = socket.send(Message::Close(Some(CloseFrame { code: 1001, reason: "going away".into() }))).await;
                break;
            }
            // The session ended (4401: the client stops), a newer socket of the session took
            // this one's place (4409: it comes back when its tab is shown again), or the node
            // is full (1013: it tries again, maybe on another node).
            why = lease.ended() => {
                let _ = socket.send(Message::Close(Some(CloseFrame { code: why.close_code(), reason: why.reason().into() }))).await;
                break;
            }
        }
    }
}

async fn send_message(socket: &mut WebSocket, row: &MessageRow, user: i64, sent: &mut Sent) -> Result<(), ()> {
    if !row.visible_to(user) || !sent.first(row.id) {
        return Ok(());
    }
    let json = serde_json::to_string(&Push::Message { message: row.view(user) }).map_err(|_| ())?;
    socket.send(Message::Text(json.into())).await.map_err(|_| ())
}

/// Sends what is newer than `after` (or at least as recent as `since`); too much → `resync`.
/// Messages that reach the recipient this way count as delivered.
async fn backlog(bus: &Bus, user: i64, after: i64, since: i64, sent: &mut Sent, socket: &mut WebSocket) -> Result<(), ()> {
    let rows = match store::messages_after(bus.db(), user, after, since, BACKLOG + 1).await {
        Ok(rows) => rows,
        Err(error) => {
            error.into_public();
            return Err(());
        }
    };
    if rows.len() as i64 > BACKLOG {
        let json = serde_json::to_string(&Push::Resync).map_err(|_| ())?;
        return socket.send(Message::Text(json.into())).await.map_err(|_| ());
    }
    let mut received: BTreeMap<(i64, i64), i64> = BTreeMap::new();
    for row in &rows {
        send_message(socket, row, user, sent).await?;
        if row.recipient_id == user {
            let mark = received.entry((row.conversation_id, row.sender_id)).or_insert(0);
            *mark = (*mark).max(row.id);
        }
    }
    for ((conversation, sender), up_to) in received {
        if let Ok(true) = store::mark_delivered(bus.db(), conversation, user, up_to).await {
            let _ = bus.publish(&[Signal::Delivered { conversation, to: sender, up_to }]).await;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_need_our_origin() {
        let mut h = HeaderMap::new();
        h.insert("host", "vonk.test".parse().unwrap());
        assert!(!socket_origin_allowed(&h, &[]), "no Origin: refused");
        h.insert("origin", "http://evil.example".parse().unwrap());
        h.insert("sec-fetch-site", "same-origin".parse().unwrap());
        assert!(!socket_origin_allowed(&h, &[]), "a lying Sec-Fetch-Site does not help");
        h.insert("origin", "http://vonk.test".parse().unwrap());
        assert!(socket_origin_allowed(&h, &[]));
    }

    #[test]
    fn repeats_are_dropped() {
        let mut s = Sent::new(5);
        assert!(s.first(7));
        assert!(!s.first(7));
        assert_eq!(s.last, 7);
        assert!(s.first(6));
        assert_eq!(s.last, 7);
    }
}
