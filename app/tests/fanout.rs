//! Two app nodes on one PostgreSQL database, each with its own pool, bus and LISTEN connection,
//! serving HTTP on their own ports: a message sent through node A reaches a socket on node B.

#[path = "../../server/tests/service/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::time::Duration;

use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

struct Node {
    base: String,
    state: server::AppState,
}

async fn node(database_url: &str, data_dir: &std::path::Path) -> Node {
    let vars: HashMap<&str, String> = [
        ("VONK_ADDR", "127.0.0.1:0".to_string()),
        ("DATA_DIR", data_dir.display().to_string()),
        ("DATABASE_URL", database_url.to_string()),
        ("VONK_DEMO_MEMBERS", "0".to_string()),
        ("VONK_PAYMENTS", "test".to_string()),
    ]
    .into_iter()
    .collect();
    let config = server::Config::from_lookup(|k| vars.get(k).cloned()).unwrap();
    let state = server::AppState::start(config, app::ssr::page_links()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app::ssr::router(state.clone(), app::ssr::leptos_options(addr));
    tokio::spawn(async move { axum::serve(listener, router.into_make_service_with_connect_info::<std::net::SocketAddr>()).await.unwrap() });
    Node { base: format!("http://{addr}"), state }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_through_node_a_reaches_a_socket_on_node_b() {
    let cluster = support::PgCluster::start();
    let dir = tempfile::tempdir().unwrap();
    let a = node(&cluster.url, dir.path()).await;
    let b = node(&cluster.url, dir.path()).await;
    let db = &a.state.db;
    let now = a.state.clock.now();
    server::members::demo::seed_demo_members(db, None, 2, now).await.unwrap();
    let ids: Vec<(i64,)> = sqlx::query_as("SELECT id FROM users ORDER BY id LIMIT 2").fetch_all(db.pool()).await.unwrap();
    let (anna, bram) = (ids[0].0, ids[1].0);
    sqlx::query("UPDATE users SET fictional = FALSE, paid_user = TRUE").execute(db.pool()).await.unwrap();
    sqlx::query("UPDATE profiles SET fictional = FALSE").execute(db.pool()).await.unwrap();
    let anna_cookie = format!("auth.session={}", a.state.accounts.open_session(anna).await.unwrap());
    let bram_cookie = format!("auth.session={}", b.state.accounts.open_session(bram).await.unwrap());

    // Bram's socket is on node B.
    let mut request = format!("{}/ws", b.base.replace("http://", "ws://")).into_client_request().unwrap();
    request.headers_mut().insert("cookie", bram_cookie.parse().unwrap());
    request.headers_mut().insert("origin", b.base.parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.expect("socket on node B");
    // Node B hears node A's signals once its LISTEN is in place.
    tokio::time::timeout(Duration::from_secs(10), b.state.chat.bus().listening()).await.expect("node B listens");

    // Anna sends through node A.
    let res = reqwest::Client::new()
        .post(format!("{}/api/fn/send_message", a.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .header("origin", &a.base)
        .header("cookie", &anna_cookie)
        .body(format!("member={bram}&client_id=across-nodes-0001&text=Over+de+brug"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK, "{}", res.text().await.unwrap_or_default());

    let pushed = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(frame)) = socket.next().await {
            if let tokio_tungstenite::tungstenite::Message::Text(text) = frame {
                let push: serde_json::Value = serde_json::from_str(&text).unwrap();
                if push["type"] == "message" {
                    return push;
                }
            }
        }
        panic!("the socket closed");
    })
    .await
    .expect("node B pushed the message within 5 s");
    assert_eq!(pushed["message"]["body"], "Over de brug");
    assert_eq!(pushed["message"]["mine"], false);
    a.state.db.close().await;
    b.state.db.close().await;
}
