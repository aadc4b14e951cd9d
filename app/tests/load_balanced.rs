//! Two real `vonk` processes on one PostgreSQL database behind nginx (from Debian), as a site
//! that has outgrown one machine runs: a session made through node A works on node B and
//! through the balancer; the password lockout and the rate limits count across both; a chat
//! message sent through one node reaches a socket on the other; a settings change reaches both;
//! a node stopped with SIGTERM under load fails none of the requests (visitors keep loading
//! pages through nginx all along), closes its sockets with 1001, and the client reconnects,
//! through nginx, to the node that is left.

#[path = "../../server/tests/service/support/mod.rs"]
mod support;

#[path = "support/binary.rs"]
mod binary;

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use binary::free_port;
use futures_util::StreamExt;
use reqwest::StatusCode;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A child process that is stopped when the test ends, however it ends: SIGTERM first (nginx's
/// master then stops its workers too), SIGKILL when it is still there after 5 s.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// nginx says nothing when it is ready: its port is tried until it answers.
fn wait_listening(port: u16) {
    let until = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "nothing listens on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// nginx in the foreground with its configuration, logs and temporary files in `dir`, sharing
/// requests between `nodes` in turn (the configuration the README's example follows).
fn nginx(dir: &std::path::Path, port: u16, nodes: &[u16]) -> Process {
    let root = Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false);
    let servers: String = nodes.iter().map(|p| format!("        server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n")).collect();
    let d = dir.display();
    let conf = format!(
        "{user}worker_processes 1;\nerror_log {d}/error.log warn;\npid {d}/nginx.pid;\nevents {{ worker_connections 256; }}\nhttp {{\n    access_log off;\n    \
         client_body_temp_path {d}/body; proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fastcgi; uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;\n    \
         upstream vonk {{\n{servers}        keepalive 16;\n        keepalive_timeout 20s;\n    }}\n    \
         map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}\n    \
         server {{\n        listen 127.0.0.1:{port};\n        location / {{\n            proxy_pass http://vonk;\n            proxy_http_version 1.1;\n            \
         proxy_set_header Host $http_host;\n            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n            proxy_set_header X-Forwarded-Proto $scheme;\n            \
         proxy_set_header Upgrade $http_upgrade;\n            proxy_set_header Connection $connection_upgrade;\n            proxy_next_upstream error timeout http_502;\n            \
         proxy_read_timeout 1h;\n        }}\n    }}\n}}\n",
        user = if root { "user root;\n" } else { "" },
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, conf).unwrap();
    let child = Command::new("/usr/sbin/nginx")
        .arg("-p")
        .arg(dir)
        .arg("-c")
        .arg(&path)
        .args(["-g", "daemon off;"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx from Debian (scripts/install-tools.sh --test installs it)");
    wait_listening(port);
    Process(child)
}

/// The node that answered: request ids start with the answering process's own prefix.
fn node_of(headers: &reqwest::header::HeaderMap) -> String {
    let id = headers.get("x-request-id").expect("x-request-id").to_str().unwrap();
    id.split('-').next().unwrap().to_string()
}

/// A script's call of the server function `name` on `base` (JSON answers), from `origin`.
async fn call(client: &reqwest::Client, base: &str, name: &str, body: &str, cookie: Option<&str>) -> reqwest::Response {
    let mut req = client
        .post(format!("{base}/api/fn/{name}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .header("origin", base)
        .body(body.to_string());
    if let Some(cookie) = cookie {
        req = req.header("cookie", cookie);
    }
    req.send().await.unwrap()
}

async fn code(res: reqwest::Response) -> String {
    let body: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap_or_default();
    body["code"].as_str().unwrap_or_default().to_string()
}

fn session_cookie(res: &reqwest::Response) -> String {
    let set =
        res.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_string()).find(|c| c.starts_with("auth.session=")).expect("a session cookie");
    set.split(';').next().unwrap().to_string()
}

async fn socket(base: &str, cookie: &str) -> (tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>, String) {
    let mut request = format!("{}/ws", base.replace("http://", "ws://")).into_client_request().unwrap();
    request.headers_mut().insert("cookie", cookie.parse().unwrap());
    request.headers_mut().insert("origin", base.parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request).await.expect("a chat socket");
    let node = response.headers().get("x-request-id").expect("x-request-id on the upgrade").to_str().unwrap().split('-').next().unwrap().to_string();
    // The socket's first frame, the unread total, says it listens.
    let first = tokio::time::timeout(Duration::from_secs(5), socket.next()).await.expect("a first frame within 5 s");
    let Some(Ok(Message::Text(text))) = first else { panic!("the socket's first frame: {first:?}") };
    assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap()["type"], "unread");
    (socket, node)
}

/// The next chat message pushed on `socket`, within 5 s.
async fn next_message(socket: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>) -> serde_json::Value {
    tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(frame)) = socket.next().await {
            if let Message::Text(text) = frame {
                let push: serde_json::Value = serde_json::from_str(&text).unwrap();
                if push["type"] == "message" {
                    return push;
                }
            }
        }
        panic!("the socket closed");
    })
    .await
    .expect("the message arrived within 5 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_behind_nginx_share_sessions_limits_messages_and_settings() {
    let cluster = support::PgCluster::start();
    let (dir_a, dir_b, dir_lb) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (port_a, port_b, port_lb) = (free_port(), free_port(), free_port());
    let (base_a, base_b, base_lb) = (format!("http://127.0.0.1:{port_a}"), format!("http://127.0.0.1:{port_b}"), format!("http://127.0.0.1:{port_lb}"));
    let shared: Vec<(&'static str, String)> = vec![
        ("DATABASE_URL", cluster.url.clone()),
        ("VONK_TRUSTED_PROXIES", "127.0.0.1/32".into()),
        ("VONK_PUBLIC_ORIGINS", base_lb.clone()),
        // Three signups per address in ten minutes, to see the count cross the nodes.
        ("VONK_RATE_LIMITS", "signup=3/600".into()),
        // Only the database's announcement can move the settings within this test.
        ("VONK_SITE_CACHE_SECS", "3600".into()),
    ];
    let vars_a = binary::vars(dir_a.path(), port_a, &shared);
    let vars_b: HashMap<&str, String> = binary::vars(dir_b.path(), port_b, &shared);

    // The database, prepared through the services: Anna with a password, two members who chat.
    let state = binary::state(&vars_a).await;
    let anna_id = binary::signup_anna(&state, &base_a).await;
    let db = state.db.clone();
    server::members::demo::seed_demo_members(&db, None, 2, state.clock.now()).await.unwrap();
    let pair: Vec<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 2").bind(anna_id).fetch_all(db.pool()).await.unwrap();
    let (kim, lex) = (pair[0].0, pair[1].0);
    sqlx::query("UPDATE users SET fictional = FALSE, paid_user = TRUE").execute(db.pool()).await.unwrap();
    sqlx::query("UPDATE profiles SET fictional = FALSE").execute(db.pool()).await.unwrap();
    let kim_cookie = format!("auth.session={}", state.accounts.open_session(kim).await.unwrap());
    let lex_cookie = format!("auth.session={}", state.accounts.open_session(lex).await.unwrap());

    let node_a = Process(binary::spawn(&vars_a, &[], "warn", Stdio::null()).into_child());
    let node_b = Process(binary::spawn(&vars_b, &[], "warn", Stdio::null()).into_child());
    let _lb = nginx(dir_lb.path(), port_lb, &[port_a, port_b]);
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();

    // A session made through node A works on node B, and through the balancer on both.
    let login = call(&client, &base_a, "login", "email=anna%40example.nl&password=rode+kater+op+het+dak", None).await;
    assert_eq!(login.status(), StatusCode::OK);
    let anna = session_cookie(&login);
    assert_eq!(call(&client, &base_b, "counts", "", Some(&anna)).await.status(), StatusCode::OK);
    assert_ne!(call(&client, &base_b, "counts", "", None).await.status(), StatusCode::OK, "a visitor has no counters");
    let mut answered_by = std::collections::HashSet::new();
    for _ in 0..6 {
        let res = call(&client, &base_lb, "counts", "", Some(&anna)).await;
        assert_eq!(res.status(), StatusCode::OK);
        answered_by.insert(node_of(res.headers()));
    }
    assert_eq!(answered_by.len(), 2, "nginx shared the requests between the two nodes");

    // The lockout counts wrong passwords on both nodes: the fifth locks, wherever it lands.
    for (i, base) in [&base_a, &base_b, &base_a, &base_b].into_iter().enumerate() {
        let res = call(&client, base, "login", "email=anna%40example.nl&password=fout", None).await;
        assert_eq!(code(res).await, "login_failed", "wrong password {}", i + 1);
    }
    assert_eq!(code(call(&client, &base_b, "login", "email=anna%40example.nl&password=fout", None).await).await, "too_many_attempts");
    assert_eq!(code(call(&client, &base_lb, "login", "email=anna%40example.nl&password=rode+kater+op+het+dak", None).await).await, "too_many_attempts");

    // Signups from one address through the balancer: three in all, not three per node.
    let mut codes = Vec::new();
    for i in 0..4 {
        let body = format!("email=lotte{i}%40example.nl&name=Lotte&password=rode+kater+op+het+dak&date_of_birth=1990-05-17&signup_message=");
        codes.push(code(call(&client, &base_lb, "signup", &body, None).await).await);
    }
    assert_eq!(codes, ["", "", "", "too_many_requests"], "the fourth signup is refused, whichever node it reached");

    // A message sent through one node reaches a socket on the other.
    let (mut lex_socket, lex_node) = socket(&base_lb, &lex_cookie).await;
    let (node_a_prefix, sender_base) = {
        let res = call(&client, &base_a, "counts", "", Some(&anna)).await;
        let a = node_of(res.headers());
        (a.clone(), if lex_node == a { base_b.clone() } else { base_a.clone() })
    };
    let res =
        call(&client, &sender_base, "send_message", &format!("member={lex}&client_id=across-nodes-0001&text=Via+de+andere+node"), Some(&kim_cookie)).await;
    assert_eq!(res.status(), StatusCode::OK, "{}", res.text().await.unwrap_or_default());
    let pushed = next_message(&mut lex_socket).await;
    assert_eq!(pushed["message"]["body"], "Via de andere node");

    // A settings change in the database reaches both nodes at once (their own refresh is an hour).
    sqlx::query("UPDATE sites SET name = $1 WHERE is_default = $2").bind("Vonk Proef").bind(true).execute(db.pool()).await.unwrap();
    for base in [&base_a, &base_b] {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let html = client.get(format!("{base}/pages/terms")).send().await.unwrap().text().await.unwrap();
            if html.contains("| Vonk Proef</title>") {
                break;
            }
            assert!(Instant::now() < until, "{base} still shows the old site name after 5 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // SIGTERM to the node that holds Lex's socket: it closes with 1001 (going away) and Lex
    // reconnects through nginx, to the other node, where messages still reach him.
    let (mut victim, survivor_base) = if lex_node == node_a_prefix { (node_a, base_b.clone()) } else { (node_b, base_a.clone()) };
    // Meanwhile visitors keep loading pages through nginx: none of them may fail.
    let load = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let (loading, mut first_pages) = tokio::sync::mpsc::channel::<()>(4);
    let loaders: Vec<_> = (0..4)
        .map(|_| {
            let (client, base, load, loading) = (client.clone(), base_lb.clone(), load.clone(), loading.clone());
            tokio::spawn(async move {
                let (mut ok, mut failed) = (0, Vec::new());
                while load.load(std::sync::atomic::Ordering::Relaxed) {
                    match client.get(format!("{base}/members?page=2")).send().await {
                        Ok(res) if res.status() == StatusCode::OK => match res.text().await {
                            Ok(_) => {
                                ok += 1;
                                if ok == 1 {
                                    let _ = loading.send(()).await;
                                }
                            }
                            Err(error) => failed.push(error.to_string()),
                        },
                        Ok(res) => failed.push(res.status().to_string()),
                        Err(error) => failed.push(error.to_string()),
                    }
                }
                (ok, failed)
            })
        })
        .collect();
    // The kill comes once every loader has had a page: they are under way.
    for _ in 0..4 {
        tokio::time::timeout(Duration::from_secs(10), first_pages.recv()).await.expect("each loader had a page within 10 s");
    }
    let pid = victim.0.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let close = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(frame) = lex_socket.next().await {
            match frame {
                Ok(Message::Close(Some(frame))) => return Some(u16::from(frame.code)),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .expect("the socket closed within 10 s");
    assert_eq!(close, Some(1001), "going away");
    let (mut again, node_now) = socket(&base_lb, &lex_cookie).await;
    assert_ne!(node_now, lex_node, "nginx sent the new socket to the node that is left");
    let res = call(&client, &survivor_base, "send_message", &format!("member={lex}&client_id=across-nodes-0002&text=Nog+steeds+hier"), Some(&kim_cookie)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(next_message(&mut again).await["message"]["body"], "Nog steeds hier");
    // The stopped node is gone for good by now; the pages loaded all along.
    let until = Instant::now() + Duration::from_secs(10);
    while victim.0.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "the node exits within 10 s of SIGTERM");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    load.store(false, std::sync::atomic::Ordering::Relaxed);
    let mut pages = 0;
    for loader in loaders {
        let (ok, failed) = loader.await.unwrap();
        assert!(failed.is_empty(), "requests failed while a node stopped: {failed:?}");
        pages += ok;
    }
    assert!(pages > 20, "the visitors loaded {pages} pages meanwhile");
    drop(victim);
    state.db.close().await;
}
