//! Long-lived connections belong to their session: a chat socket and the operators' event
//! stream end within seconds of a logout, "log out everywhere else", the member being blocked
//! or deleting their account, and the operator role being taken away; a session keeps at most
//! four of them and a node its configured number, the oldest closed first.

use super::*;
use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Sessions are checked every second here (the default is two).
async fn app() -> TestApp {
    start_with(&[("VONK_STREAM_CHECK_SECS", "1")]).await
}

/// The close code the server ends `ws` with, reading (and dropping) pushes until then; None if
/// it stays open for `within`.
async fn closed_with(ws: &mut Socket, within: std::time::Duration) -> Option<u16> {
    tokio::time::timeout(within, async {
        while let Some(frame) = ws.next().await {
            match frame {
                Ok(Message::Close(Some(frame))) => return Some(u16::from(frame.code)),
                Ok(Message::Close(None)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
        None
    })
    .await
    .ok()
    .flatten()
}

const SOON: std::time::Duration = std::time::Duration::from_secs(10);
const A_WHILE: std::time::Duration = std::time::Duration::from_millis(2500);

async fn second_session(app: &TestApp, email: &str) -> String {
    let mut login =
        app.form("login", &format!("email={}&password=rode+kater+op+het+dak", email.replace('@', "%40")), "/login", &[("origin", &app.origin())]).await;
    if let Some(step) = cookie_value(&login, "vonk.two_step") {
        // Staff: the code from the app too.
        let body = format!("code={}", app_code(STAFF_TOTP_SECRET, now_secs()));
        login = app.form("second_step", &body, "/login/two-step", &[("origin", &app.origin()), ("cookie", &format!("vonk.two_step={step}"))]).await;
    }
    format!("auth.session={}", cookie_value(&login, "auth.session").expect("logged in"))
}

#[tokio::test]
async fn a_chat_socket_ends_with_its_session_and_its_member() {
    let app = app().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let anna_phone = second_session(&app, "anna@example.nl").await;

    // Logout ends that session's socket (4401: do not come back), not the other session's.
    let mut on_phone = socket(&app, &anna_phone, 0).await;
    let mut on_laptop = socket(&app, &anna, 0).await;
    assert!(next_push(&mut on_laptop, "unread", SOON).await.is_some(), "listening");
    app.form("logout", "", "/", &[("origin", &origin), ("cookie", &anna_phone)]).await;
    assert_eq!(closed_with(&mut on_phone, SOON).await, Some(4401), "logged out");
    assert_eq!(closed_with(&mut on_laptop, A_WHILE).await, None, "the other session's socket stays");

    // "Log out everywhere else" ends the other sessions' sockets.
    let anna_phone = second_session(&app, "anna@example.nl").await;
    let mut on_phone = socket(&app, &anna_phone, 0).await;
    let res = app.call("end_other_sessions", "", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(res.status().is_success(), "{}", res.status());
    assert_eq!(closed_with(&mut on_phone, SOON).await, Some(4401), "ended from the laptop");
    assert_eq!(closed_with(&mut on_laptop, A_WHILE).await, None, "the laptop's own stays");

    // Staff block her: every socket of hers ends.
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let res =
        app.form("staff_change_member", &format!("id={anna_id}&change=block&reason=Scam"), "/staff/members", &[("origin", &origin), ("cookie", &staff)]).await;
    assert!(location(&res).contains("saved=1"), "{}", location(&res));
    assert_eq!(closed_with(&mut on_laptop, SOON).await, Some(4401), "blocked");

    // A member who deletes their account: the other session's socket ends too.
    let bert = ready_member(&app, "bert@example.nl", "male").await;
    let bert_phone = second_session(&app, "bert@example.nl").await;
    let mut bert_socket = socket(&app, &bert_phone, 0).await;
    let res = app.form("delete_account", "password=rode+kater+op+het+dak&reason=&confirm=1", "/settings", &[("origin", &origin), ("cookie", &bert)]).await;
    assert!(!location(&res).contains("__err"), "{}", location(&res));
    assert_eq!(closed_with(&mut bert_socket, SOON).await, Some(4401), "deleted");
}

/// Reads the event stream until `needle` (or the stream ends); what it read.
async fn read_until(events: &mut reqwest::Response, needle: &str, within: std::time::Duration) -> String {
    let mut seen = String::new();
    let _ = tokio::time::timeout(within, async {
        while let Ok(Some(chunk)) = events.chunk().await {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains(needle) {
                return;
            }
        }
        seen.push_str("[ended]");
    })
    .await;
    seen
}

async fn events(app: &TestApp, cookie: &str) -> reqwest::Response {
    let events = app.client.get(format!("{}/staff/chats/events", app.base)).header("cookie", cookie).send().await.unwrap();
    assert_eq!(events.status(), StatusCode::OK);
    events
}

#[tokio::test]
async fn the_operators_stream_ends_with_the_role_and_the_session() {
    let app = app().await;
    let origin = app.origin();
    let olga = ready_member(&app, "olga@example.nl", "female").await;
    grant_staff(&app, "olga@example.nl", domain::staff::StaffRole::Operator).await;
    let olga_tablet = second_session(&app, "olga@example.nl").await;

    // The role taken away (as `vonk staff revoke` does, from another process): both end.
    let mut first = events(&app, &olga).await;
    let mut second = events(&app, &olga_tablet).await;
    app.state.accounts.set_staff_role("olga@example.nl", domain::staff::StaffRole::Operator, false).await.unwrap();
    for stream in [&mut first, &mut second] {
        let seen = read_until(stream, "[ended]", SOON).await;
        assert!(seen.contains("event: closed\ndata: session ended") && seen.ends_with("[ended]"), "{seen}");
    }
    let (status, _, _) = app.get("/staff/chats/events", &[("cookie", &olga)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "and the browser's reconnect finds nothing");

    // Logout ends that session's stream only.
    grant_staff(&app, "olga@example.nl", domain::staff::StaffRole::Operator).await;
    let mut first = events(&app, &olga).await;
    let mut second = events(&app, &olga_tablet).await;
    app.form("logout", "", "/", &[("origin", &origin), ("cookie", &olga_tablet)]).await;
    let seen = read_until(&mut second, "[ended]", SOON).await;
    assert!(seen.contains("data: session ended") && seen.ends_with("[ended]"), "{seen}");
    let seen = read_until(&mut first, "[ended]", A_WHILE).await;
    assert!(!seen.contains("[ended]"), "the other session's stream stays: {seen}");
}

#[tokio::test]
async fn a_session_keeps_four_streams_and_a_node_its_limit_the_oldest_closed_first() {
    let app = app().await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let mut sockets = Vec::new();
    for _ in 0..4 {
        let mut ws = socket(&app, &anna, 0).await;
        assert!(next_push(&mut ws, "unread", SOON).await.is_some());
        sockets.push(ws);
    }
    let _fifth = socket(&app, &anna, 0).await;
    assert_eq!(closed_with(&mut sockets[0], SOON).await, Some(4409), "the session's oldest gives way");
    for ws in &mut sockets[1..] {
        assert_eq!(closed_with(ws, std::time::Duration::from_millis(300)).await, None, "the others stay");
    }
    assert_eq!(app.state.streams.count(), 4);

    // A node that may hold three: the oldest of all goes, whoever's it is.
    let small = start_with(&[("VONK_STREAMS_PER_NODE", "3")]).await;
    let mut oldest = None;
    for email in ["a@example.nl", "b@example.nl", "c@example.nl", "d@example.nl"] {
        let cookie = ready_member(&small, email, "male").await;
        let mut ws = socket(&small, &cookie, 0).await;
        assert!(next_push(&mut ws, "unread", SOON).await.is_some());
        if oldest.is_none() {
            oldest = Some(ws);
        } else {
            sockets.push(ws);
        }
    }
    assert_eq!(closed_with(oldest.as_mut().unwrap(), SOON).await, Some(1013), "the node's oldest: try again later");
    assert_eq!(small.state.streams.count(), 3);
}
