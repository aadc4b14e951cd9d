//! HTTP tests against the real application, served on 127.0.0.1 port 0 with a fresh SQLite
//! database in a temporary data directory.

use std::collections::HashMap;

mod account;
mod age;
mod bundle;
mod chat;
mod credits;
mod landers;
mod likes;
mod members;
mod ops;
mod resell;
mod security;
mod shell;
mod staff;
mod streams;
mod units;
mod visitors;

use reqwest::redirect::Policy;

use reqwest::{Client, StatusCode};

struct TestApp {
    base: String,
    client: Client,
    state: server::AppState,
    _dir: tempfile::TempDir,
}

/// Without demo members (each test seeds its own database); the members test asks for some.
async fn start() -> TestApp {
    start_with(&[]).await
}

async fn start_with(extra: &[(&'static str, &str)]) -> TestApp {
    // The server's log beside a failing test's output (VONK_TEST_LOG=debug for more).
    let filter = std::env::var("VONK_TEST_LOG").unwrap_or_else(|_| "warn".into());
    let _ = tracing_subscriber::fmt().with_test_writer().with_env_filter(tracing_subscriber::EnvFilter::new(filter)).try_init();
    let dir = tempfile::tempdir().unwrap();
    let mut vars: HashMap<&str, String> = [
        ("VONK_ADDR", "127.0.0.1:0".to_string()),
        ("DATA_DIR", dir.path().display().to_string()),
        ("VONK_DEMO_MEMBERS", "0".to_string()),
        ("VONK_PAYMENTS", "test".to_string()),
    ]
    .into_iter()
    .collect();
    vars.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    let config = server::Config::from_lookup(|k| vars.get(k).cloned()).unwrap();
    let state = server::AppState::start(config, app::ssr::page_links()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app::ssr::router(state.clone(), app::ssr::leptos_options(addr));
    // The production accept loop (header-read timeout, TCP_NODELAY, the peer's address).
    tokio::spawn(app::ssr::serve_connections(listener, router, state.config.header_timeout, std::future::pending()));
    // A request that hangs fails the test with its address instead of stalling the whole run.
    // Idle connections are dropped well before the server closes them (the header-read timeout
    // also ends idle keep-alive connections), so a reused connection is never one being closed.
    let client = Client::builder()
        .redirect(Policy::none())
        .timeout(std::time::Duration::from_secs(30))
        .pool_idle_timeout(std::time::Duration::from_secs(5))
        .build()
        .unwrap();
    TestApp { base: format!("http://{addr}"), client, state, _dir: dir }
}

/// With a GeoIP database that places every loopback visitor in `country` (the demo site's own
/// country is NL).
async fn start_in(country: &str) -> TestApp {
    start_in_with(country, &[]).await
}

async fn start_in_with(country: &str, extra: &[(&'static str, &str)]) -> TestApp {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), server::geoip::country_database(&[("127.0.0.0".parse().unwrap(), 8, country)])).unwrap();
    let path = file.path().display().to_string();
    let mut vars = vec![("VONK_GEOIP_DB", path.as_str())];
    vars.extend_from_slice(extra);
    // The database is read at start.
    start_with(&vars).await
}

impl TestApp {
    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> (StatusCode, reqwest::header::HeaderMap, String) {
        let mut req = self.client.get(format!("{}{path}", self.base));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        (status, headers, res.text().await.unwrap())
    }

    async fn post_form(&self, path: &str, body: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut req = self.client.post(format!("{}{path}", self.base)).header("content-type", "application/x-www-form-urlencoded").body(body.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }

    fn origin(&self) -> String {
        self.base.clone()
    }

    /// A browser's post of a page's form to the server function `name`: browsers send
    /// `accept: text/html` and the page as Referer (Leptos brings a refusal back there).
    async fn form(&self, name: &str, body: &str, page: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let referer = format!("{}{page}", self.base);
        let mut all = vec![("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"), ("referer", referer.as_str())];
        all.extend_from_slice(headers);
        self.post_form(&format!("/api/fn/{name}"), body, &all).await
    }

    /// A script's call of the server function `name` (JSON answers).
    async fn call(&self, name: &str, body: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut all = vec![("accept", "application/json")];
        all.extend_from_slice(headers);
        self.post_form(&format!("/api/fn/{name}"), body, &all).await
    }

    /// Where a form post sent the browser, then that page as the browser gets it.
    async fn follow(&self, res: &reqwest::Response, cookie: &str) -> (String, String) {
        assert_eq!(res.status(), StatusCode::FOUND, "a form post answers with a redirect");
        let to = location(res);
        let (status, _, html) = self.get(&to, &[("cookie", cookie), ("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::OK, "{to}");
        (to, html)
    }

    /// Opens a mail's link (a page that changes nothing by itself: mail scanners open links)
    /// and presses its one button, which posts the link's token to the server function `name`.
    async fn press(&self, link: &str, name: &str) -> reqwest::Response {
        let (status, _, html) = self.get(link, &[("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::OK, "{link}");
        let token = &link[link.find("token=").expect("a token in the link") + "token=".len()..];
        assert!(
            html.contains(&format!(r#"action="/api/fn/{name}""#)) && html.contains(&format!(r#"name="token" value="{token}""#)),
            "{link}: one button that posts the token"
        );
        self.form(name, &format!("token={token}"), link, &[("origin", &self.origin())]).await
    }
}

/// The Location of an answer, as a path of this site (Leptos sends the browser back to the
/// Referer, which is absolute).
fn location(res: &reqwest::Response) -> String {
    let to = res.headers().get("location").unwrap_or_else(|| panic!("no location ({})", res.status())).to_str().unwrap();
    match to.strip_prefix("http://") {
        Some(rest) => rest.find('/').map(|i| rest[i..].to_string()).unwrap_or_else(|| "/".into()),
        None => to.to_string(),
    }
}

/// The refusal a form post came back with: a redirect back to the page with the server
/// function's path and the error (base64 JSON) in the query. Returns the error and the page
/// path (without the error's parameters).
fn refusal(res: &reqwest::Response, name: &str) -> (domain::ApiError, String) {
    assert_eq!(res.status(), StatusCode::FOUND, "a refused form post goes back to the page");
    assert!(res.headers().get("set-cookie").is_none(), "a refusal sets no cookie");
    let to = location(res);
    let url = reqwest::Url::parse(&format!("http://page{to}")).unwrap();
    let pairs: Vec<(String, String)> = url.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_else(|| panic!("no {key} in {to}"));
    assert_eq!(get("__path"), format!("/api/fn/{name}"), "{to}");
    let error = leptos::server_fn::error::ServerFnUrlError::<domain::ApiError>::decode_err(&get("__err"));
    let rest: Vec<String> = pairs.iter().filter(|(k, _)| k != "__path" && k != "__err").map(|(k, v)| format!("{k}={v}")).collect();
    let page = if rest.is_empty() { url.path().to_string() } else { format!("{}?{}", url.path(), rest.join("&")) };
    (error, page)
}

/// The code of a JSON answer's refusal.
async fn json_code(res: reqwest::Response) -> (StatusCode, String) {
    let status = res.status();
    let body: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    (status, body["code"].as_str().unwrap_or_default().to_string())
}

/// The nonce in a page's Content-Security-Policy, after checking that scripts need it.
fn csp_nonce(headers: &reqwest::header::HeaderMap) -> String {
    let policy = headers["content-security-policy"].to_str().unwrap();
    let script_src = policy.split(';').map(str::trim).find(|d| d.starts_with("script-src ")).unwrap_or_else(|| panic!("no script-src in {policy}"));
    assert!(!script_src.contains("unsafe-inline") && script_src.contains("'strict-dynamic'"), "{script_src}");
    assert!(policy.contains("default-src 'self'") && policy.contains("object-src 'none'") && policy.contains("form-action 'self'"), "{policy}");
    let start = script_src.find("'nonce-").expect("a nonce") + "'nonce-".len();
    script_src[start..].split('\'').next().unwrap().to_string()
}

fn cookie_value(res: &reqwest::Response, name: &str) -> Option<String> {
    cookie_value_of(res.headers(), name)
}

/// The mails in the outbox (DATA_DIR/mail), oldest first, quoted-printable undone.
fn mails(app: &TestApp) -> Vec<String> {
    let mut mails: Vec<(std::time::SystemTime, String)> = std::fs::read_dir(app._dir.path().join("mail"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap().replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
            (e.metadata().unwrap().modified().unwrap(), text)
        })
        .collect();
    mails.sort();
    mails.into_iter().map(|(_, m)| m).collect()
}

/// The newest link starting with `path` in the mail outbox (a path and a 64-character token).
fn mail_link(app: &TestApp, path: &str) -> String {
    let mails = mails(app);
    let mail = mails.iter().rev().find(|m| m.contains(path)).unwrap_or_else(|| panic!("no mail with {path}"));
    let start = mail.find(path).unwrap();
    mail[start..start + path.len() + 64].to_string()
}

/// The newest mail in the outbox, headers included.
fn newest_mail(app: &TestApp) -> String {
    mails(app).pop().expect("a mail")
}

const SIGNUP: &str = "email=anna%40example.nl&name=Anna&password=rode+kater+op+het+dak&date_of_birth=1990-05-17&signup_message=&network=adnet&sub1=x";

async fn signed_up(app: &TestApp, email: &str) -> String {
    let body = SIGNUP.replace("anna%40example.nl", &email.replace('@', "%40"));
    let res = app.form("signup", &body, "/signup", &[("origin", &app.origin())]).await;
    assert_eq!(res.headers()["location"], "/complete-signup");
    format!("auth.session={}", cookie_value(&res, "auth.session").expect("signed up"))
}

fn cookie_value_of(headers: &reqwest::header::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(|c| c[name.len() + 1..].split(';').next().unwrap_or("").to_string())
}

/// A confirmed member with basics filled in: signed up, activated through the mailed link.
async fn ready_member(app: &TestApp, email: &str, gender: &str) -> String {
    let cookie = signed_up(app, email).await;
    let link = mail_link(app, "/activate?token=");
    let res = app.press(&link, "activate").await;
    assert_eq!(res.headers()["location"], "/activate/done");
    let basics = format!("from=complete&gender={gender}&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem");
    let res = app.form("save_basics", &basics, "/complete-signup", &[("origin", &app.origin()), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/signup-matches");
    cookie
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x * 5) as u8, (y * 3) as u8, 160]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

impl TestApp {
    /// Posts the profile's upload form (multipart, as a browser sends it from `/profile`; a
    /// script says what it accepts in `headers`).
    async fn upload(&self, headers: &[(&str, &str)], bytes: &[u8], private: bool) -> reqwest::Response {
        let referer = format!("{}/profile", self.base);
        let mut all: Vec<(&str, &str)> = headers.to_vec();
        if !headers.iter().any(|(k, _)| *k == "accept") {
            all.extend([("accept", "text/html"), ("referer", referer.as_str())]);
        }
        let headers = &all[..];
        let boundary = "----vonk-test-boundary-7MA4YWxk";
        let mut body = Vec::new();
        if private {
            body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"private\"\r\n\r\n1\r\n").as_bytes());
        }
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let mut req = self
            .client
            .post(format!("{}/api/fn/upload_photo", self.base))
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .body(body);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }
}

impl TestApp {
    /// Sends a chat photo as the chat's script does (multipart, JSON answer), with its form
    /// fields (`client_id`, and `conversation` or `to`).
    async fn chat_photo(&self, cookie: &str, fields: &[(&str, String)], bytes: &[u8]) -> reqwest::Response {
        let boundary = "----vonk-chat-boundary-7MA4YWxk";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
        }
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        self.client
            .post(format!("{}/api/fn/send_chat_photo", self.base))
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .header("origin", self.origin())
            .header("cookie", cookie)
            .header("accept", "application/json")
            .body(body)
            .send()
            .await
            .unwrap()
    }
}

fn photo_id(location: &str, html: &str) -> i64 {
    let start = html.find("/media/photos/").unwrap_or_else(|| panic!("no photo after {location}")) + "/media/photos/".len();
    let digits: String = html[start..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap_or_else(|_| panic!("{}", &html[start - 20..start + 40]))
}

/// Waits (briefly) for a mail containing `needle`: like mails go out in the background.
async fn wait_for_mail(app: &TestApp, needle: &str) -> bool {
    for _ in 0..50 {
        let found = std::fs::read_dir(app._dir.path().join("mail"))
            .map(|d| d.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok()).any(|m| m.replace("=\r\n", "").replace("=3D", "=").contains(needle)))
            .unwrap_or(false);
        if found {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}

async fn counts(app: &TestApp, cookie: &str) -> serde_json::Value {
    let res = app.call("counts", "", &[("origin", &app.origin()), ("cookie", cookie)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    serde_json::from_str(&res.text().await.unwrap()).unwrap()
}

/// The first conversation link of a chat page (`/chats/{id}`).
fn conversation_id(html: &str) -> i64 {
    let start = html.find("href=\"/chats/").expect("a conversation link") + "href=\"/chats/".len();
    html[start..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

/// A chat socket of the member with `cookie`, resuming after `after`.
async fn socket(app: &TestApp, cookie: &str, after: i64) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("{}/ws?after={after}", app.base.replace("http://", "ws://")).into_client_request().unwrap();
    request.headers_mut().insert("cookie", cookie.parse().unwrap());
    request.headers_mut().insert("origin", app.origin().parse().unwrap());
    tokio_tungstenite::connect_async(request).await.expect("the socket opens").0
}

/// The next push of a type (skipping others), or None within the time.
async fn next_push(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    kind: &str,
    within: std::time::Duration,
) -> Option<serde_json::Value> {
    use futures_util::StreamExt;
    tokio::time::timeout(within, async {
        while let Some(Ok(frame)) = ws.next().await {
            if let tokio_tungstenite::tungstenite::Message::Text(text) = frame {
                let push: serde_json::Value = serde_json::from_str(&text).unwrap();
                if push["type"] == kind {
                    return Some(push);
                }
            }
        }
        None
    })
    .await
    .ok()
    .flatten()
}

/// The id in `/transactions/{id}`.
fn payment_id(location: &str) -> i64 {
    location.trim_start_matches("/transactions/").split(['?', '#']).next().unwrap().parse().unwrap()
}

/// The authenticator app's code for a secret shown as groups of four.
fn app_code(grouped: &str, at: u64) -> String {
    let secret = totp_rs::Secret::try_from_base32(grouped.replace(' ', "")).unwrap().to_vec();
    totp_rs::Builder::new().with_secret(secret).build().unwrap().generate(at).to_string()
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

/// The two-step secret [`grant_staff`] gives staff.
/// The account ids of `emails`, in their order.
async fn user_ids<const N: usize>(app: &TestApp, emails: [&str; N]) -> [i64; N] {
    let mut ids = [0; N];
    for (id, email) in ids.iter_mut().zip(emails) {
        (*id,) = sqlx::query_as("SELECT id FROM users WHERE email = $1").bind(email).fetch_one(app.state.db.pool()).await.unwrap();
    }
    ids
}

const STAFF_TOTP_SECRET: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/// Gives every account of `email` a staff role with two-step login on (staff use their roles only
/// with it; the secret is a fixed test one). Returns how many accounts there are.
async fn grant_staff(app: &TestApp, email: &str, role: domain::staff::StaffRole) -> u64 {
    let n = app.state.accounts.set_staff_role(email, role, true).await.unwrap();
    sqlx::query("UPDATE users SET totp_secret = $2 WHERE email = $1 AND totp_secret IS NULL")
        .bind(email)
        .bind(STAFF_TOTP_SECRET)
        .execute(app.state.db.pool())
        .await
        .unwrap();
    n
}
