//! HTTP tests against the real application, served on 127.0.0.1 port 0 with a fresh SQLite
//! database in a temporary data directory.

use std::collections::HashMap;

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
    let mut vars: HashMap<&str, String> =
        [("VONK_ADDR", "127.0.0.1:0".to_string()), ("DATA_DIR", dir.path().display().to_string()), ("VONK_DEMO_MEMBERS", "0".to_string())].into_iter().collect();
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
    let client = Client::builder().redirect(Policy::none()).timeout(std::time::Duration::from_secs(30)).pool_idle_timeout(std::time::Duration::from_secs(5)).build().unwrap();
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
        assert!(html.contains(&format!(r#"action="/api/fn/{name}""#)) && html.contains(&format!(r#"name="token" value="{token}""#)), "{link}: one button that posts the token");
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

#[tokio::test]
async fn home_renders_in_dutch_with_shell_and_entry_warning() {
    let app = start().await;
    let (status, headers, html) = app.get("/", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"<html lang="nl""#), "default language is Dutch");
    assert!(html.contains("Ontmoet iemand die dezelfde vonk voelt"));
    assert!(html.contains("layout--default"));
    for href in ["/pages/terms", "/pages/privacy", "/pages/cookies", "/pages/ban", "/pricing", "/complaints", "/pages/return-policy", "/pages/faq", "/pages/service"] {
        assert!(html.contains(&format!(r#"href="{href}""#)), "footer link {href}");
    }
    assert!(html.contains(r#"data-testid="entry-warning""#), "entry warning for a new visitor");
    assert!(html.contains("<title>Daten en chatten voor volwassenen | Vonk</title>"));
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert!(headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));

    let (_, _, html) = app.get("/", &[("cookie", "entry_accepted=1")]).await;
    assert!(!html.contains(r#"data-testid="entry-warning""#), "accepted warning stays away");
}

#[tokio::test]
async fn the_signup_modal_brings_its_form_when_it_opens_in_the_pages_language() {
    let app = start().await;
    // A visitor's page carries the modal's frame only; the form's labels and checks are not on it.
    let (_, _, html) = app.get("/", &[("cookie", "entry_accepted=1")]).await;
    assert!(html.contains(r#"data-testid="signup-modal""#));
    assert!(html.contains("Aanmeldformulier laden…"));
    assert!(!html.contains(r#"autocomplete="new-password""#), "no signup form on the page");
    // Opening it reads them, in the language the page is in.
    let (status, _, body) = app.get("/api/fn/signup_modal", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let content: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(content["labels"]["password"], "Wachtwoord");
    assert_eq!(content["intro"], "Binnen een minuut klaar. Je e-mailadres blijft privé.");
    assert!(content["texts"].as_array().unwrap().iter().any(|t| t[0] == "validation.email_taken"), "{body}");
    let (_, _, body) = app.get("/api/fn/signup_modal", &[("cookie", "i18n_redirected=en")]).await;
    let content: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(content["labels"]["password"], "Password");
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

#[tokio::test]
async fn every_script_on_a_page_carries_the_nonce_of_its_policy() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let mut seen = std::collections::HashSet::new();
    // A visitor's page, a member's pages with islands and resources, the not-found page.
    for (path, cookie) in [("/", ""), ("/members", anna.as_str()), ("/profile", anna.as_str()), ("/settings", anna.as_str()), ("/chats", anna.as_str()), ("/no-such-page", "")] {
        let (_, headers, html) = app.get(path, &[("cookie", cookie), ("accept", "text/html")]).await;
        let nonce = csp_nonce(&headers);
        assert!(nonce.len() >= 32 && seen.insert(nonce.clone()), "{path}: a fresh nonce per answer");
        let scripts: Vec<&str> = html.match_indices("<script").map(|(i, _)| &html[i..i + html[i..].find('>').unwrap()]).collect();
        assert!(!scripts.is_empty(), "{path}: the hydration scripts");
        for tag in scripts {
            assert!(tag.contains(&format!(r#"nonce="{nonce}""#)), "{path}: {tag} runs without the nonce");
        }
        assert!(!html.contains(" onclick=") && !html.contains(" onload=") && !html.contains("javascript:"), "{path}: no inline handlers");
    }
    // Server-function answers get a policy too.
    let res = app.call("logout", "", &[("origin", &origin), ("cookie", &anna)]).await;
    csp_nonce(res.headers());
}

#[tokio::test]
async fn language_follows_cookie_then_site_then_browser() {
    let app = start().await;
    let (_, _, html) = app.get("/", &[("cookie", "i18n_redirected=fr")]).await;
    assert!(html.contains(r#"<html lang="fr""#));
    // The default site's domain language (nl-NL) beats the browser's preference.
    let (_, _, html) = app.get("/", &[("accept-language", "de-DE,de;q=0.9")]).await;
    assert!(html.contains(r#"<html lang="nl""#));
    // Another site (by Host) has its own language and theme.
    let (_, _, html) = app.get("/", &[("host", "vonk.de")]).await;
    assert!(html.contains(r#"<html lang="de""#));
    assert!(html.contains("--color-primary:#6d1140"));
    // Unsupported cookie values fall through.
    let (_, _, html) = app.get("/", &[("cookie", "i18n_redirected=xx")]).await;
    assert!(html.contains(r#"<html lang="nl""#));
}

#[tokio::test]
async fn switcher_offers_the_countrys_languages() {
    let app = start_in("BE").await;
    let (_, _, html) = app.get("/", &[]).await;
    // A visitor from Belgium: nl, fr, de.
    for lang in ["nl", "fr", "de"] {
        assert!(html.contains(&format!(r#"data-lang="{lang}""#)), "switcher offers {lang}");
    }
    assert!(!html.contains(r#"data-lang="pl""#));
    let (status, _, html) = app.get("/lang-config", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(html.matches("class=\"lang-card__name\"").count(), 11, "all eleven languages on /lang-config");
}

#[tokio::test]
async fn language_post_sets_cookie_only_for_same_origin_and_valid_input() {
    let app = start().await;
    let origin = app.origin();
    let ok = app.form("set_language", "lang=de&return_to=%2Fpricing", "/pricing", &[("origin", &origin)]).await;
    assert_eq!(ok.status(), StatusCode::FOUND);
    assert_eq!(ok.headers()["location"], "/pricing");
    let cookie = ok.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("i18n_redirected=de;"));
    assert!(cookie.contains("Max-Age=31536000") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));

    let cross = app.form("set_language", "lang=de", "/pricing", &[("origin", "https://evil.example")]).await;
    assert_eq!(cross.status(), StatusCode::FORBIDDEN);
    assert!(cross.headers().get("set-cookie").is_none(), "a cross-origin post changes nothing");
    assert_eq!(cross.text().await.unwrap(), r#"{"code":"forbidden_origin"}"#);
    let fetch_meta = app.form("set_language", "lang=de", "/pricing", &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(fetch_meta.status(), StatusCode::FORBIDDEN);

    let bad = app.call("set_language", "lang=xx", &[("origin", &origin)]).await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.headers().get("set-cookie").is_none());
    assert_eq!(bad.text().await.unwrap(), r#"{"code":"unsupported_language"}"#);
    // The same from the switcher's form: back to the page with the refusal.
    let bad = app.form("set_language", "lang=xx&return_to=%2Fpricing", "/pricing", &[("origin", &origin)]).await;
    let (error, page) = refusal(&bad, "set_language");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::UnsupportedLanguage, "/pricing"));

    let open_redirect = app.form("set_language", "lang=en&return_to=%2F%2Fevil.example", "/pricing", &[("origin", &origin)]).await;
    assert_eq!(open_redirect.headers()["location"], "/");
}

#[tokio::test]
async fn entry_warning_acceptance_sets_cookie() {
    let app = start().await;
    let origin = app.origin();
    let res = app.form("accept_entry_warning", "return_to=%2Fpages%2Ffaq", "/pages/faq", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(res.headers()["location"], "/pages/faq");
    assert!(res.headers()["set-cookie"].to_str().unwrap().starts_with("entry_accepted=1;"));
}

#[tokio::test]
async fn unknown_paths_get_the_404_page() {
    let app = start().await;
    let (status, _, html) = app.get("/does-not-exist", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("Deze pagina kon niet worden gevonden"));
    assert!(html.contains("Terug naar de startpagina"));
    let (status, _, html) = app.get("/members/123/unknown/deeper", &[("cookie", "i18n_redirected=en")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("This page could not be found"));
    assert!(html.contains("Back to the home page"));
}

#[tokio::test]
async fn info_pages_show_company_details_from_the_database() {
    let app = start().await;
    for (path, title) in [
        ("/pages/terms", "Algemene voorwaarden"),
        ("/pages/privacy", "Privacyverklaring"),
        ("/pages/cookies", "Cookiebeleid"),
        ("/pages/ban", "Blokkeringsbeleid"),
        ("/pages/return-policy", "Retourbeleid"),
        ("/pages/faq", "Veelgestelde vragen"),
        ("/pages/service", "Klantenservice"),
        ("/complaints", "Klachten"),
    ] {
        let (status, _, html) = app.get(path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(html.contains(&format!("<h1 class=\"page__title\">{title}</h1>")), "{path} title");
        assert!(html.contains("Vonk Media B.V.") && html.contains("81234567"), "{path} company details");
        assert!(!html.contains("{site}") && !html.contains("{email}"), "{path} has unfilled placeholders");
        for namespace in ["pages.", "title.", "error.", "nav.", "footer."] {
            assert!(!html.contains(&format!(">{namespace}")), "{path} shows a raw locale key {namespace}…");
        }
    }
    let (_, _, html) = app.get("/pages/terms", &[]).await;
    assert!(html.contains("Versie van 1 december 2023"), "terms version date");
    let (_, _, html) = app.get("/pages/service", &[]).await;
    assert!(html.contains(">+31201234567<"), "support phone without dashes and spaces");
}

#[tokio::test]
async fn pricing_lists_packs_and_mounts_the_payment_widget() {
    let app = start().await;
    let (status, _, html) = app.get("/pricing", &[]).await;
    assert_eq!(status, StatusCode::OK);
    for credits in ["25", "60", "150", "400"] {
        assert!(html.contains(&format!(r#"data-credits="{credits}""#)));
    }
    assert!(html.contains("€ 9,95") && html.contains("€ 19,95"));
    assert!(html.contains("Meest gekozen"));
    assert!(html.contains(r#"data-widget="PaymentMethodBlocks""#));
    let (_, _, html) = app.get("/pricing", &[("cookie", "i18n_redirected=en")]).await;
    assert!(html.contains("€ 9.95"), "English uses a decimal point");
}

#[tokio::test]
async fn server_function_answers_same_origin_only() {
    let app = start().await;
    let origin = app.origin();
    let res = app.post_form("/api/fn/credit_packs", "", &[("origin", &origin), ("accept", "application/json")]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let packs: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(packs.as_array().unwrap().len(), 4);
    let cross = app.post_form("/api/fn/credit_packs", "", &[("origin", "https://evil.example")]).await;
    assert_eq!(cross.status(), StatusCode::FORBIDDEN);
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

#[tokio::test]
async fn signup_logs_in_and_the_top_bar_shows_the_member() {
    let app = start().await;
    let origin = app.origin();
    let res = app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(res.headers()["location"], "/complete-signup", "step 2 of signup");
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(set.starts_with("auth.session=") && set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.contains("Max-Age=2592000"), "{set}");
    let session = cookie_value(&res, "auth.session").unwrap();
    let cookie = format!("auth.session={session}");
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="credits""#) && html.contains("20 credits"), "signup credits shown");
    assert!(html.contains(r#"action="/api/fn/logout""#));
    assert!(!html.contains(r#"data-testid="entry-warning""#), "members are past the entry warning");
    // A mail went to the outbox (DATA_DIR/mail).
    let mails: Vec<_> = std::fs::read_dir(app._dir.path().join("mail")).unwrap().collect();
    assert_eq!(mails.len(), 1);

    // The same address again: back to the form with the spec's text.
    let again = app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let (error, page) = refusal(&again, "signup");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::EmailTaken, "/signup"));
    let (_, html) = app.follow(&again, "").await;
    assert!(html.contains(r#"data-testid="form-error""#) && html.contains("Dit e-mailadres heeft al een account op deze site."));
}

#[tokio::test]
async fn bad_signup_changes_nothing_and_cross_origin_signup_is_refused() {
    let app = start().await;
    let origin = app.origin();
    let res = app.form("signup", &SIGNUP.replace("name=Anna", "name=%40anna"), "/signup", &[("origin", &origin)]).await;
    let (error, _) = refusal(&res, "signup");
    assert_eq!(error.code, domain::ErrorCode::NameStartsWithAt);
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Je profielnaam mag niet beginnen met een @"));
    let cross = app.form("signup", SIGNUP, "/signup", &[("origin", "https://evil.example")]).await;
    assert_eq!(cross.status(), StatusCode::FORBIDDEN);
    assert!(!app._dir.path().join("mail").exists(), "no account, no mail");
    // Unknown error codes in the URL are not echoed.
    for err in ["PHNjcmlwdD4%3D", "eyJjb2RlIjoiPHNjcmlwdD4ifQ%3D%3D"] {
        // `<script>` and `{"code":"<script>"}`, base64.
        let (_, _, html) = app.get(&format!("/login?__path=/api/fn/login&__err={err}"), &[]).await;
        assert!(!html.contains("<script>") && html.contains("Er is een fout opgetreden"), "{err}");
    }
}

#[tokio::test]
async fn login_rotates_the_session_logout_ends_it_and_lockout_speaks_dutch() {
    let app = start().await;
    let origin = app.origin();
    let signup = app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let first = cookie_value(&signup, "auth.session").unwrap();
    let login = app
        .form("login", "email=anna%40example.nl&password=rode+kater+op+het+dak&return_to=%2Fpricing", "/login?return_to=/pricing", &[("origin", &origin), ("cookie", &format!("auth.session={first}"))])
        .await;
    assert_eq!(login.status(), StatusCode::FOUND);
    assert_eq!(login.headers()["location"], "/pricing");
    let second = cookie_value(&login, "auth.session").unwrap();
    assert_ne!(first, second, "session id rotated at login");
    let (_, _, html) = app.get("/", &[("cookie", &format!("auth.session={first}"))]).await;
    assert!(!html.contains(r#"action="/api/fn/logout""#), "the old session no longer works");

    let logout = app.form("logout", "", "/", &[("origin", &origin), ("cookie", &format!("auth.session={second}"))]).await;
    assert_eq!(logout.headers()["location"], "/");
    assert!(logout.headers()["set-cookie"].to_str().unwrap().starts_with("auth.session=; Path=/; Max-Age=0"));
    let (_, _, html) = app.get("/", &[("cookie", &format!("auth.session={second}"))]).await;
    assert!(!html.contains(r#"action="/api/fn/logout""#), "logout ends the session on the server");

    for _ in 0..4 {
        let res = app.form("login", "email=anna%40example.nl&password=fout", "/login", &[("origin", &origin)]).await;
        let (error, page) = refusal(&res, "login");
        assert_eq!((error.code, page.as_str()), (domain::ErrorCode::LoginFailed, "/login"));
    }
    let res = app.form("login", "email=anna%40example.nl&password=fout", "/login", &[("origin", &origin)]).await;
    let (error, _) = refusal(&res, "login");
    assert_eq!((error.code, error.arg_i64("minutes")), (domain::ErrorCode::TooManyAttempts, Some(15)));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Te veel foute pogingen, account voor 15 min geblokkeerd."));
}

#[tokio::test]
async fn activation_link_lands_on_done_then_error() {
    let app = start().await;
    let origin = app.origin();
    app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let link = mail_link(&app, "/activate?token=");
    let link = link.as_str();
    let res = app.press(link, "activate").await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(res.headers()["location"], "/activate/done");
    let res = app.press(link, "activate").await;
    assert_eq!(res.headers()["location"], "/activate/error", "single use");
    let (status, _, html) = app.get("/activate/error", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Activeren mislukt"));
}

#[tokio::test]
async fn login_attempts_per_address_are_rate_limited() {
    let app = start().await;
    let origin = app.origin();
    for i in 0..20 {
        let res = app.form("login", &format!("email=user{i}%40example.nl&password=x"), "/login", &[("origin", &origin)]).await;
        assert_eq!(refusal(&res, "login").0.code, domain::ErrorCode::LoginFailed);
    }
    let res = app.form("login", "email=user%40example.nl&password=x", "/login", &[("origin", &origin)]).await;
    assert_eq!(refusal(&res, "login").0.code, domain::ErrorCode::TooManyRequests);
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Te veel verzoeken"));
    // A script gets the status.
    let res = app.call("login", "email=user%40example.nl&password=x", &[("origin", &origin)]).await;
    assert_eq!(json_code(res).await, (StatusCode::TOO_MANY_REQUESTS, "too_many_requests".to_string()));
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limit() {
    let app = start_with(&[("VONK_TRUSTED_PROXIES", "127.0.0.1/32")]).await;
    let origin = app.origin();
    let login = |client: &'static str, i: usize| {
        let (app, origin) = (&app, origin.clone());
        async move {
            // The client's own X-Forwarded-For entry comes first; the proxy appends the real one.
            let forwarded = format!("6.6.6.6, {client}");
            let res = app.form("login", &format!("email=user{i}%40example.nl&password=x"), "/login", &[("origin", &origin), ("x-forwarded-for", &forwarded)]).await;
            refusal(&res, "login").0.code
        }
    };
    for i in 0..20 {
        assert_eq!(login("203.0.113.7", i).await, domain::ErrorCode::LoginFailed);
    }
    assert_eq!(login("203.0.113.7", 20).await, domain::ErrorCode::TooManyRequests);
    // Another client behind the same proxy is not punished for the first one.
    assert_eq!(login("203.0.113.8", 21).await, domain::ErrorCode::LoginFailed);

    // Without trusted proxies the header is ignored: everyone here is 127.0.0.1.
    let direct = start().await;
    let origin = direct.origin();
    for i in 0..21 {
        let res = direct.form("login", &format!("email=user{i}%40example.nl&password=x"), "/login", &[("origin", &origin), ("x-forwarded-for", &format!("198.51.100.{i}"))]).await;
        let expected = if i < 20 { domain::ErrorCode::LoginFailed } else { domain::ErrorCode::TooManyRequests };
        assert_eq!(refusal(&res, "login").0.code, expected);
    }
}

#[tokio::test]
async fn password_reset_over_http() {
    let app = start().await;
    let origin = app.origin();
    app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let res = app.form("request_password_reset", "email=nobody%40example.nl", "/reset-password", &[("origin", &origin)]).await;
    let (error, page) = refusal(&res, "request_password_reset");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::EmailNotFound, "/reset-password"));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("E-mailadres niet gevonden"));
    let res = app.form("request_password_reset", "email=anna%40example.nl", "/reset-password", &[("origin", &origin)]).await;
    assert_eq!(res.headers()["location"], "/reset-password?sent=1");

    let link = mail_link(&app, "/reset-password/do?token=");
    let token = &link["/reset-password/do?token=".len()..];
    let (status, _, html) = app.get(&format!("/reset-password/do?token={token}"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&format!(r#"name="token" value="{token}""#)));

    let page = format!("/reset-password/do?token={token}");
    let res = app.form("reset_password", &format!("token={token}&password=nieuw+wachtwoord+1&password_repeat=anders+wachtwoord"), &page, &[("origin", &origin)]).await;
    let (error, back) = refusal(&res, "reset_password");
    assert_eq!((error.code, back.as_str()), (domain::ErrorCode::PasswordsDiffer, page.as_str()));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("De opgegeven wachtwoorden zijn niet gelijk."));
    assert!(html.contains(&format!(r#"name="token" value="{token}""#)), "the form keeps the token");
    let res = app.form("reset_password", &format!("token={token}&password=nieuw+wachtwoord+1&password_repeat=nieuw+wachtwoord+1"), &page, &[("origin", &origin)]).await;
    assert_eq!(res.headers()["location"], "/");
    assert!(cookie_value(&res, "auth.session").is_some());
    let again = app.form("reset_password", &format!("token={token}&password=x&password_repeat=x"), &page, &[("origin", &origin)]).await;
    assert_eq!(refusal(&again, "reset_password").0.code, domain::ErrorCode::LinkExpired);
    let (_, html) = app.follow(&again, "").await;
    assert!(html.contains("Link verlopen of invalide, vraag een nieuwe e-mail aan"));
}

#[tokio::test]
async fn member_only_pages_and_calls_need_a_session() {
    let app = start().await;
    let origin = app.origin();
    let (status, headers, _) = app.get("/settings", &[("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/login?return_to=/settings");
    let res = app.call("set_invisible", "invisible=1", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.text().await.unwrap(), r#"{"code":"authentication_required"}"#);
    // A form posted without a session goes back to its page, which sends the visitor to log in.
    let res = app.form("set_invisible", "invisible=1", "/settings", &[("origin", &origin)]).await;
    let (error, page) = refusal(&res, "set_invisible");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::AuthenticationRequired, "/settings"));
    let (status, headers, _) = app.get(&location(&res), &[("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/login?return_to=/settings");
}

#[tokio::test]
async fn the_activation_reminder_follows_the_spec() {
    let app = start().await;
    let origin = app.origin();
    let signup = app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let cookie = format!("auth.session={}", cookie_value(&signup, "auth.session").unwrap());
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="activation-reminder""#) && html.contains("anna@example.nl"));
    let (_, _, html) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="activation-reminder""#), "hidden on the settings page");
    assert!(html.contains(r#"data-testid="member-email">anna@example.nl<"#));
    let res = app.form("resend_activation", "return_to=%2Fpricing", "/pricing", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/pricing?activation=sent");
    assert_eq!(std::fs::read_dir(app._dir.path().join("mail")).unwrap().count(), 2);
    let res = app.form("set_invisible", "invisible=1", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/settings?saved=invisible");
    let (_, _, html) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"name="invisible" value="1" checked"#), "invisible mode is on");
}

#[tokio::test]
async fn email_change_over_http_and_language_is_remembered_for_members() {
    let app = start().await;
    let origin = app.origin();
    let signup = app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let cookie = format!("auth.session={}", cookie_value(&signup, "auth.session").unwrap());
    // A session alone cannot move the account: the password is asked.
    let res = app.form("change_email", "email=dief%40example.nl&password=geraden", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    let (error, _) = refusal(&res, "change_email");
    assert_eq!(error.code, domain::ErrorCode::PasswordWrong);
    let (_, html) = app.follow(&res, &cookie).await;
    assert!(html.contains("Dit wachtwoord klopt niet."));
    let res = app.form("change_email", "email=geen&password=rode+kater+op+het+dak", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    let (error, page) = refusal(&res, "change_email");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::NewEmailInvalid, "/settings"));
    let (_, html) = app.follow(&res, &cookie).await;
    assert!(html.contains("Nieuw e-mailadres invalide."));
    let res =
        app.form("change_email", "email=anna2%40example.nl&password=rode+kater+op+het+dak", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/settings?saved=email");
    // A second browser is logged in too; confirming ends it.
    let login = app.form("login", "email=anna%40example.nl&password=rode+kater+op+het+dak", "/login", &[("origin", &origin)]).await;
    let other = format!("auth.session={}", cookie_value(&login, "auth.session").unwrap());
    let link = mail_link(&app, "/mail-change/do?token=");
    app.get(&link, &[]).await;
    let (_, _, html) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="member-email">anna@example.nl<"#), "opening the link alone changes nothing");
    // The member opens the link in the browser they are logged in with.
    let token = link[link.find("token=").unwrap() + 6..].to_string();
    let res = app.form("confirm_email_change", &format!("token={token}"), &link, &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/mail-change/do?done=1");
    let res = app.form("confirm_email_change", &format!("token={token}"), &link, &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(refusal(&res, "confirm_email_change").0.code, domain::ErrorCode::LinkExpired, "single use");
    let (_, _, html) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="member-email">anna2@example.nl<"#), "the confirming browser stays logged in");
    let (status, _, _) = app.get("/settings", &[("cookie", &other), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::FOUND, "the other browser's session ended");
    // The old address is told and can put itself back; then everyone is logged out.
    let notice = newest_mail(&app);
    assert!(notice.contains("To: anna@example.nl") && notice.contains("anna2@example.nl"), "{notice}");
    let undo = mail_link(&app, "/mail-change/undo?token=");
    let res = app.press(&undo, "undo_email_change").await;
    assert_eq!(res.headers()["location"], "/mail-change/undo?done=1");
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Je oude e-mailadres is terug"));
    let (status, _, _) = app.get("/settings", &[("cookie", &cookie), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::FOUND, "every session ended");
    let login = app.form("login", "email=anna%40example.nl&password=rode+kater+op+het+dak", "/login", &[("origin", &origin)]).await;
    let cookie = format!("auth.session={}", cookie_value(&login, "auth.session").expect("the old address logs in again"));

    // A member's language choice is stored with the account, too.
    let res = app.form("set_language", "lang=de&return_to=%2F", "/", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    let res = app.form("resend_activation", "return_to=%2F", "/", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/?activation=sent");
    let mut newest: Vec<(std::time::SystemTime, String)> = std::fs::read_dir(app._dir.path().join("mail"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.metadata().unwrap().modified().unwrap(), std::fs::read_to_string(e.path()).unwrap())
        })
        .collect();
    newest.sort();
    let last = &newest.last().unwrap().1;
    assert!(last.contains("Hallo Anna"), "the resent mail is in German now");
}

#[tokio::test]
async fn delete_and_reactivate_over_http() {
    let app = start().await;
    let origin = app.origin();
    let signup = app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    let cookie = format!("auth.session={}", cookie_value(&signup, "auth.session").unwrap());
    let res = app.form("delete_account", "password=fout&reason=&confirm=1", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    let (error, page) = refusal(&res, "delete_account");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::PasswordWrong, "/settings"));
    let (_, html) = app.follow(&res, &cookie).await;
    assert!(html.contains("Dit wachtwoord klopt niet."));
    let res = app.form("delete_account", "password=rode+kater+op+het+dak&reason=te+druk&confirm=1", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/account-deleted");
    assert!(res.headers()["set-cookie"].to_str().unwrap().starts_with("auth.session=; Path=/; Max-Age=0"));
    let res = app.form("login", "email=anna%40example.nl&password=rode+kater+op+het+dak", "/login", &[("origin", &origin)]).await;
    assert_eq!(refusal(&res, "login").0.code, domain::ErrorCode::AccountNotDeletedYet);
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Dit account is nog niet definitief verwijderd."));
    let link = mail_link(&app, "/account-deleted?token=");
    let res = app.press(&link, "reactivate").await;
    assert_eq!(res.headers()["location"], "/account-deleted?reactivated=1");
    let res = app.form("login", "email=anna%40example.nl&password=rode+kater+op+het+dak", "/login", &[("origin", &origin)]).await;
    assert_eq!(res.headers()["location"], "/");
}


async fn signed_up(app: &TestApp, email: &str) -> String {
    let body = SIGNUP.replace("anna%40example.nl", &email.replace('@', "%40"));
    let res = app.form("signup", &body, "/signup", &[("origin", &app.origin())]).await;
    assert_eq!(res.headers()["location"], "/complete-signup");
    format!("auth.session={}", cookie_value(&res, "auth.session").expect("signed up"))
}

#[tokio::test]
async fn tracking_from_the_landing_page_reaches_the_member() {
    let app = start().await;
    let origin = app.origin();
    let stored = |email: &'static str| {
        let pool = app.state.db.pool().clone();
        async move {
            let row: (Option<String>, Option<String>, Option<String>, Option<String>, Option<String>) =
                sqlx::query_as("SELECT tracking_network, tracking_ref, tracking_sub1, tracking_sub2, tracking_sub3 FROM users WHERE email = $1").bind(email).fetch_one(&pool).await.unwrap();
            row
        }
    };
    let form = |email: &str| format!("email={}&name=Lena&password=rode+kater+op+het+dak&date_of_birth=1990-05-17&signup_message=", email.replace('@', "%40"));

    // A landing page with parameters leaves them in a cookie; one without leaves none.
    let (_, headers, _) = app.get("/members?gender=female&network=adnet&ref=r7&sub2=blue%20banner", &[]).await;
    let kept = cookie_value_of(&headers, "vonk_tracking").expect("the landing's tracking is kept");
    assert!(headers.get_all("set-cookie").iter().any(|c| c.to_str().unwrap().contains("HttpOnly") && c.to_str().unwrap().contains("Max-Age=2592000")));
    let (_, headers, _) = app.get("/members?gender=female", &[]).await;
    assert!(cookie_value_of(&headers, "vonk_tracking").is_none());

    // The visitor signs up later from another page: the cookie's tracking is stored on the member.
    let cookie = format!("vonk_tracking={kept}");
    let res = app.form("signup", &form("lena@example.nl"), "/pages/faq", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/complete-signup");
    assert_eq!(stored("lena@example.nl").await, (Some("adnet".into()), Some("r7".into()), None, Some("blue banner".into()), None));

    // The signup page and the modal carry the URL's parameters, and those win over the cookie.
    let (_, _, page) = app.get("/signup?network=partner&sub1=s1", &[("cookie", &cookie)]).await;
    assert!(page.contains(r#"name="network" value="partner""#) && page.contains(r#"name="sub1" value="s1""#));
    let res = app.form("signup", &format!("{}&network=partner&sub1=s1", form("mila@example.nl")), "/signup?network=partner&sub1=s1", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(stored("mila@example.nl").await, (Some("partner".into()), None, Some("s1".into()), None, None));

    // No tracking anywhere: none stored.
    let res = app.form("signup", &form("noor@example.nl"), "/signup", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(stored("noor@example.nl").await, (None, None, None, None, None));
    // An oversized or hostile value is cut and cannot break the cookie.
    let (_, headers, _) = app.get(&format!("/?network={}%3B%20Secure%0D%0Ax&sub3=%22q%22", "n".repeat(300)), &[]).await;
    let value = cookie_value_of(&headers, "vonk_tracking").unwrap();
    let tracking = domain::account::Tracking::from_query(&value);
    assert_eq!(tracking.network.as_ref().map(|n| n.chars().count()), Some(100));
    assert_eq!(tracking.sub3.as_deref(), Some("\"q\""));
}

fn cookie_value_of(headers: &reqwest::header::HeaderMap, name: &str) -> Option<String> {
    headers.get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()).find(|c| c.starts_with(&format!("{name}="))).map(|c| c[name.len() + 1..].split(';').next().unwrap_or("").to_string())
}

#[tokio::test]
async fn geoip_picks_the_visitors_country() {
    let methods = |page: &str| (page.contains("iDEAL"), page.contains("Bancontact"));
    // Nothing configured: the Dutch site's own country, the Netherlands.
    let app = start().await;
    let (_, _, page) = app.get("/pricing", &[("cf-ipcountry", "BE")]).await;
    assert_eq!(methods(&page), (true, false), "iDEAL, no Bancontact; no proxy is trusted, so the header is not read");
    let (_, _, page) = app.get("/complete-signup", &[("cookie", &signed_up(&app, "nina@example.nl").await)]).await;
    assert!(page.contains(r#"<option value="NL" selected>"#), "the signup's country starts Dutch");

    // A database places loopback in Belgium; a trusted proxy's header comes first.
    let app = start_in_with("BE", &[("VONK_TRUSTED_PROXIES", "127.0.0.1"), ("VONK_GEOIP_HEADER", "CF-IPCountry")]).await;
    let (_, _, page) = app.get("/pricing", &[]).await;
    assert_eq!(methods(&page), (false, true), "Bancontact for Belgium");
    let (_, _, page) = app.get("/pricing", &[("cf-ipcountry", "NL")]).await;
    assert_eq!(methods(&page), (true, false), "the proxy's country, not the kept Belgian page");
    let (_, _, page) = app.get("/pricing", &[("cf-ipcountry", "XX")]).await;
    assert_eq!(methods(&page), (false, true), "an unknown country falls back to the database");
    let (_, _, page) = app.get("/", &[("cf-ipcountry", "PL")]).await;
    assert!(page.contains(r#"data-lang="pl""#) && !page.contains(r#"data-lang="fr""#), "Polish visitors are offered Polish");

    // A member's country is their profile's, wherever they are.
    let origin = app.origin();
    let cookie = signed_up(&app, "anna@example.nl").await;
    let (_, _, page) = app.get("/complete-signup", &[("cookie", &cookie)]).await;
    assert!(page.contains(r#"<option value="BE" selected>"#), "before a country is chosen, the visitor's is the first guess");
    let res = app.form("save_basics", "from=complete&gender=female&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem", "/complete-signup", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    let (_, _, page) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert_eq!(methods(&page), (true, false), "the member lives in the Netherlands");

    // A header from a peer that is not a trusted proxy is not believed.
    let app = start_in_with("BE", &[("VONK_TRUSTED_PROXIES", "10.0.0.1"), ("VONK_GEOIP_HEADER", "CF-IPCountry")]).await;
    let (_, _, page) = app.get("/pricing", &[("cf-ipcountry", "NL")]).await;
    assert_eq!(methods(&page), (false, true));
}

#[tokio::test]
async fn complete_signup_keeps_input_on_error_and_fills_the_profile() {
    let app = start_in("BE").await;
    let origin = app.origin();
    let cookie = signed_up(&app, "anna@example.nl").await;
    let (status, _, html) = app.get("/complete-signup", &[("cookie", &cookie)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Maak je profiel af") && html.contains(r#"name="gender""#) && html.contains(r#"name="sexuality""#));
    // The visitor's country (BE here) is the first guess; its provinces are offered.
    assert!(html.contains(r#"<option value="BE" selected>"#) && html.contains("Oost-Vlaanderen") && html.contains("Gebruik mijn locatie"));
    assert!(!html.contains(r#"data-testid="activation-reminder""#), "no reminder during signup");

    let bad = "from=complete&gender=male&sexuality=lesbian&country=NL&region=NL-NH&city=Haarlem";
    let res = app.form("save_basics", bad, "/complete-signup", &[("origin", &origin), ("cookie", &cookie)]).await;
    let (error, page) = refusal(&res, "save_basics");
    assert_eq!(error.code, domain::ErrorCode::SexualityRequired);
    assert!(page.starts_with("/complete-signup?gender=male&sexuality=lesbian&country=NL&region=NL-NH&city=Haarlem"), "{page}");
    let (_, html) = app.follow(&res, &cookie).await;
    assert!(html.contains("Kies je geaardheid.") && html.contains(r#"value="Haarlem""#), "the form keeps what was typed");
    let (_, _, html) = app.get("/profile", &[("cookie", &cookie)]).await;
    assert!(html.contains("Nog niet ingevuld"), "nothing was stored");

    let good = "from=complete&gender=female&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem";
    let res = app.form("save_basics", good, "/complete-signup", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/signup-matches", "signup ends with members who fit");
    let (_, _, html) = app.get("/signup-matches", &[("cookie", &cookie)]).await;
    assert!(html.contains("Deze leden passen bij jou") && html.contains(r#"href="/profile?saved=welcome""#), "with a way on to the profile");
    let (_, _, html) = app.get("/profile?saved=welcome", &[("cookie", &cookie)]).await;
    assert!(html.contains("Welkom bij Vonk! Je profiel is klaar."));
    assert!(html.contains("Haarlem, Noord-Holland") && html.contains("Vrouw") && html.contains("Hetero"));
    assert!(html.contains("Anna") && (html.contains("36 jaar") || html.contains("37 jaar")), "age from the date of birth");

    // Another member sees only their own profile (the calls take no id).
    let other = signed_up(&app, "bart@example.nl").await;
    let (_, _, html) = app.get("/profile", &[("cookie", &other)]).await;
    assert!(!html.contains("Haarlem"));
    // Cross-origin posts change nothing.
    let res = app.form("save_basics", &good.replace("Haarlem", "Zandvoort"), "/complete-signup", &[("origin", "https://evil.example"), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let (_, _, html) = app.get("/profile", &[("cookie", &cookie)]).await;
    assert!(html.contains("Haarlem") && !html.contains("Zandvoort"));
}

#[tokio::test]
async fn geocode_and_location_settings() {
    let app = start().await;
    let origin = app.origin();
    let cookie = signed_up(&app, "anna@example.nl").await;
    let geocode = |body: &'static str, cookie: Option<String>| {
        let (app, origin) = (&app, origin.clone());
        async move {
            let mut headers = vec![("origin", origin.as_str())];
            if let Some(c) = &cookie {
                headers.push(("cookie", c.as_str()));
            }
            let res = app.call("geocode", body, &headers).await;
            (res.status(), res.text().await.unwrap())
        }
    };
    let (status, body) = geocode("lat=52.37&lon=4.90", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::FORBIDDEN, r#"{"code":"authentication_required"}"#));
    let (status, body) = geocode("lat=52.37&lon=4.90", Some(cookie.clone())).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, r#"{"code":"NL-NH","country":"NL","name":"Noord-Holland"}"#);
    let (status, body) = geocode("lat=40.7&lon=-74.0", Some(cookie.clone())).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "null"), "outside the site's countries");
    // Not a position: refused. (The status should be 400, `bad_request`'s; it is 500 because
    // arguments that do not parse never reach `crate::ssr::fail`.)
    let (status, body) = geocode("lat=abc", Some(cookie.clone())).await;
    assert_eq!(body, r#"{"code":"bad_request"}"#, "not a position");
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let res = app.form("save_location", "country=BE&region=NL-NH&city=Gent", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    let (error, page) = refusal(&res, "save_location");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::RegionRequired, "/settings"));
    let (_, html) = app.follow(&res, &cookie).await;
    assert!(html.contains("Kies je regio."), "the refusal's text by the location form");
    let res = app.form("save_location", "country=BE&region=BE-VOV&city=Gent", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/settings?saved=location#location");
    let (_, _, html) = app.get("/settings?saved=location", &[("cookie", &cookie)]).await;
    assert!(html.contains("Je locatie is opgeslagen.") && html.contains(r#"value="Gent""#));
    assert!(!html.contains(r#"data-testid="activation-reminder""#), "no reminder on the settings page");
}

#[tokio::test]
async fn notification_preferences_unsubscribe_and_the_alert() {
    let app = start().await;
    let origin = app.origin();
    let cookie = signed_up(&app, "anna@example.nl").await;
    let res = app.form("save_notification_prefs", "messages=1", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/settings?saved=notifications#notifications");
    let (_, _, html) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"name="messages" value="1" checked"#) && html.contains(r#"name="likes" value="1">"#), "likes off, messages on");

    // The mail's unsubscribe page changes nothing by itself (link scanners open links).
    let link = mail_link(&app, "/unsubscribe?token=");
    let token = link["/unsubscribe?token=".len()..].to_string();
    let mail = newest_mail(&app);
    let header = mail.lines().find(|l| l.starts_with("List-Unsubscribe: <")).expect("a List-Unsubscribe header");
    assert!(header.ends_with(&format!("/api/unsubscribe?token={token}>")), "the header is the one-click endpoint: {header}");
    assert!(mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    assert!(mail.replace(&format!("/api/unsubscribe?token={token}"), "").contains(&format!("/unsubscribe?token={token}")), "the footer links to the page");
    let (status, _, html) = app.get(&link, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Afmelden voor e-mailmeldingen"));
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#));

    // RFC 8058: the mail program posts from anywhere, without cookies.
    let res = app
        .post_form(&format!("/api/unsubscribe?token={token}"), "List-Unsubscribe=One-Click", &[("origin", "https://mail.example"), ("sec-fetch-site", "cross-site")])
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), "unsubscribed");
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="notifications-alert""#) && html.contains("Je hebt je afgemeld voor e-mailmeldingen."));
    assert!(!html.contains(r#"data-testid="activation-reminder""#), "the reminder steps aside (SPEC §4)");
    // Unknown tokens: the same answer, nothing changes.
    let res = app.post_form(&format!("/api/unsubscribe?token={}", "a".repeat(64)), "List-Unsubscribe=One-Click", &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(res.status(), StatusCode::OK);

    // Dismissed, it stays away; turned back on, it is gone.
    let res = app.form("dismiss_alert", "alert=notifications_disabled&return_to=%2Fpricing", "/pricing", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/pricing");
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#));
    let res = app.call("dismiss_alert", "alert=%3Cx%3E", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(json_code(res).await, (StatusCode::BAD_REQUEST, "bad_request".to_string()), "not an alert");
    let res = app.form("enable_notifications", "return_to=%2F", "/", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], "/");
    // Our own confirmation page's button lands on the done state.
    let res = app.press(&link, "unsubscribe").await;
    assert_eq!(res.headers()["location"], "/unsubscribe?done=1");
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains(r#"data-testid="unsubscribed""#));
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="notifications-alert""#), "unsubscribed again");
}

#[tokio::test]
async fn mail_provider_reports_need_the_shared_secret() {
    let off = start().await;
    let res = off.client.post(format!("{}/api/mail-events", off.base)).header("content-type", "application/json").body(serde_json::json!({"event": "bounce", "email": "anna@example.nl"}).to_string()).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND, "off without VONK_MAIL_EVENTS_SECRET");

    let secret = "a-shared-secret-of-enough-length";
    let app = start_with(&[("VONK_MAIL_EVENTS_SECRET", secret)]).await;
    let cookie = signed_up(&app, "anna@example.nl").await;
    let report = serde_json::json!({"event": "bounce", "email": "anna@example.nl"});
    let url = format!("{}/api/mail-events", app.base);
    let res = app.client.post(&url).bearer_auth("wrong").header("content-type", "application/json").body(report.to_string()).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(res.text().await.unwrap(), r#"{"code":"forbidden"}"#);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#), "a refused report changes nothing");
    let res = app.client.post(&url).bearer_auth(secret).header("content-type", "application/json").body(serde_json::json!({"event": "party", "email": "anna@example.nl"}).to_string()).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST, "an unknown event");
    assert_eq!(res.text().await.unwrap(), r#"{"code":"bad_request"}"#);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#), "an unknown event changes nothing");
    let res = app.client.post(&url).bearer_auth(secret).header("sec-fetch-site", "cross-site").header("content-type", "application/json").body(report.to_string()).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), r#"{"accounts":1}"#);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="notifications-alert""#) && html.contains("niet aankwamen"));
}

#[tokio::test]
async fn activation_reminder_is_a_phone_modal_after_api_signup() {
    let app = start().await;
    let cookie = signed_up(&app, "anna@example.nl").await;
    let (_, _, html) = app.get("/pricing?api_signup_complete=1", &[("cookie", &cookie)]).await;
    assert!(html.contains("banner--phone-modal") && html.contains(r#"role="dialog""#) && html.contains("Bevestig je e-mailadres"));
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="activation-reminder""#) && !html.contains("banner--phone-modal"));
    // The account menu offers My profile, Settings and Logout.
    assert!(html.contains(r#"href="/profile""#) && html.contains(r#"href="/settings""#) && html.contains(r#"action="/api/fn/logout""#));
}

#[tokio::test]
async fn members_search_filters_in_the_url_and_profiles_with_blocking() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "60")]).await;
    let origin = app.origin();
    // Visitors may search on this site (logged_out_search is on in the demo seed).
    let (status, _, html) = app.get("/members?gender=female&country=NL&min_age=20&max_age=70", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="search-filters""#) && html.contains(r#"class="member-card__link""#));
    assert!(html.contains(r#"<option value="female" selected"#), "the filters render from the URL");
    assert!(html.contains("/media/public/demo/female-"), "demo portraits");
    // Bad filter values fall back to "any" instead of failing.
    let (status, _, _) = app.get("/members?gender=robot&min_age=abc&page=-3", &[]).await;
    assert_eq!(status, StatusCode::OK);

    // A demo profile opens with the fictional warning; an unknown one is a 404.
    let start = html.find("href=\"/members/").unwrap() + "href=\"/members/".len();
    let id: i64 = html[start..].split('"').next().unwrap().parse().unwrap();
    let (status, _, page) = app.get(&format!("/members/{id}"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#"data-testid="member-profile""#) && page.contains(r#"data-testid="fictional-warning""#));
    assert!(!page.contains(r#"data-testid="block-toggle""#), "visitors cannot block");
    let (status, _, page) = app.get("/members/999999", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("Dit profiel bestaat niet (meer) of is niet zichtbaar."));
    let (status, _, _) = app.get("/members/abc", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A member blocks the profile: it leaves their search and offers to unblock.
    let cookie = signed_up(&app, "anna@example.nl").await;
    let profile = format!("/members/{id}");
    let body = format!("id={id}");
    let res = app.form("block", &body, &profile, &[("origin", "https://evil.example"), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN, "no cross-site blocking");
    let res = app.form("block", &body, &profile, &[("origin", &origin)]).await;
    let (error, page) = refusal(&res, "block");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::AuthenticationRequired, profile.as_str()));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains(r#"data-code="authentication_required""#) && html.contains("Log opnieuw in."), "the profile page says why");
    let res = app.form("block", &body, &profile, &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], format!("/members/{id}?blocked=1").as_str());
    let (_, _, page) = app.get(&format!("/members/{id}?blocked=1"), &[("cookie", &cookie)]).await;
    assert!(page.contains("geblokkeerd") && page.contains(r#"action="/api/fn/unblock""#) && page.contains(&format!(r#"name="id" value="{id}""#)));
    let mut seen = false;
    for p in 1..=5 {
        let (_, _, html) = app.get(&format!("/members?gender=any&page={p}"), &[("cookie", &cookie)]).await;
        seen |= html.contains(&format!("href=\"/members/{id}\""));
    }
    assert!(!seen, "a blocked member is gone from search");
    let res = app.form("unblock", &body, &format!("/members/{id}?blocked=1"), &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.headers()["location"], format!("/members/{id}?unblocked=1").as_str());
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
        body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n").as_bytes());
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let mut req = self.client.post(format!("{}/api/fn/upload_photo", self.base)).header("content-type", format!("multipart/form-data; boundary={boundary}")).body(body);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }
}

fn photo_id(location: &str, html: &str) -> i64 {
    let start = html.find("/media/photos/").unwrap_or_else(|| panic!("no photo after {location}")) + "/media/photos/".len();
    let digits: String = html[start..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap_or_else(|_| panic!("{}", &html[start - 20..start + 40]))
}

#[tokio::test]
async fn staff_block_a_member_with_a_reason_and_the_log_shows_it() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(app.state.accounts.set_staff("staff@example.nl", true).await.unwrap(), 1);
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();

    let (status, _, _) = app.get("/staff/members?q=anna%40example.nl", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "members do not see the page");
    let res = app.form("staff_change_member", &format!("id={anna_id}&change=staff"), "/staff/members", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"), "nor use its function");

    let (status, _, page) = app.get("/staff/members?q=anna%40example.nl", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&format!("(#{anna_id})")) && page.contains("Actief") && page.contains("Blokkeren"), "the member, their status and the actions");
    let (_, _, page) = app.get("/staff/members?q=nobody%40example.nl", &[("cookie", &staff)]).await;
    assert!(page.contains("Geen lid gevonden"));

    // Without a reason: refused in Dutch, nothing changed.
    let res = app.form("staff_change_member", &format!("id={anna_id}&change=block&reason="), "/staff/members", &[("origin", &origin), ("cookie", &staff)]).await;
    let (error, back) = refusal(&res, "staff_change_member");
    assert_eq!(error.code, domain::ErrorCode::ReasonRequired);
    assert!(back.starts_with(&format!("/staff/members?q={anna_id}")), "{back}");
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Geef een reden op (hoogstens 500 tekens)."));
    let (status, _, _) = app.get("/settings", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK, "still logged in");

    let res = app.form("staff_change_member", &format!("id={anna_id}&change=block&reason=Scam+messages"), "/staff/members", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), format!("/staff/members?q={anna_id}&saved=1"));
    let (_, _, page) = app.get(&location(&res), &[("cookie", &staff)]).await;
    assert!(page.contains("Geblokkeerd") && page.contains("Deblokkeren"));
    let (status, headers, _) = app.get("/settings", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(status.is_redirection() && headers["location"].to_str().unwrap().starts_with("/login"), "the blocked member's session is gone");
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(page.contains("Lid geblokkeerd") && page.contains("Scam messages") && page.contains(&format!("member #{anna_id}")), "the staff log says who, what and why");
}

#[tokio::test]
async fn staff_set_prices_countries_and_codes_and_members_see_the_change() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    app.state.accounts.set_staff("staff@example.nl", true).await.unwrap();
    let credits = "message_credits=12&photo_credits=15&gift_credits=25&signup_credits=0&free_messages=2&message_length=800&welcome_discount_percent=30&welcome_discount_hours=6&refund_days=14&direct_debit_monthly_limit=150";

    // Members: not found, and the functions refuse them without changing anything.
    for path in ["/staff/site", "/staff/pricing"] {
        let (status, _, _) = app.get(path, &[("cookie", &anna)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let res = app.form("staff_site_credits", credits, "/staff/site", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"));
    assert_ne!(app.state.sites.for_host(None).unwrap().settings.message_credits, 12);

    // The page shows the current values with the rule's limits.
    let (status, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    let input = &page[page.find(r#"name="message_credits""#).expect("the message price field")..];
    assert!(input[..120].contains(r#"min="0" max="1000""#), "limits from domain::staff: {}", &input[..120]);
    assert!(page.contains("Credits per bericht") && page.contains("Cadeaus in de chat") && page.contains(r#"type="color""#));

    // Out of range: refused in Dutch, naming the field; nothing changed.
    let res = app.form("staff_site_credits", &credits.replace("gift_credits=25", "gift_credits=5000"), "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    let (error, _) = refusal(&res, "staff_site_credits");
    assert_eq!(error.code, domain::ErrorCode::OutOfRange);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Credits per cadeau: Kies een waarde van 0 tot en met 1000."), "the setting named, translated");

    // Saved: the site's prices change for everyone at once (the pricing page shows them).
    let res = app.form("staff_site_credits", credits, "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=credits#credits");
    assert_eq!(app.state.sites.for_host(None).unwrap().settings.message_credits, 12);
    let (_, _, pricing) = app.get("/pricing", &[]).await;
    let message_cost = &pricing[pricing.find("Een bericht sturen").unwrap()..];
    assert!(message_cost[..200].contains(r#"<span class="cost__value">12 credits</span>"#), "the pricing page lists the new message price: {}", &message_cost[..200]);

    // Countries: the default must be among them; a pinned country makes every visitor Belgian.
    let res = app.form("staff_site_countries", "countries%5BNL%5D=on&geoip_country=BE&geoip_selected_country=&min_age=18", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_site_countries").0.code, domain::ErrorCode::ChoiceInvalid);
    let res = app.form("staff_site_countries", "countries%5BNL%5D=on&countries%5BBE%5D=on&geoip_country=NL&geoip_selected_country=BE&min_age=21", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=countries#countries");
    let settings = app.state.sites.for_host(None).unwrap();
    assert_eq!((settings.settings.countries.clone(), settings.settings.geoip_selected_country.clone(), settings.settings.min_age), (vec!["NL".to_string(), "BE".to_string()], Some("BE".to_string()), 21));

    // Theme colours reach the page; a bad one does not.
    let res = app.form("staff_site_theme", "primary=%23123456&secondary=%23abcdef&accent=red%3B%7D", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_site_theme").0.code, domain::ErrorCode::ColourInvalid);
    app.form("staff_site_theme", "primary=%23123456&secondary=%23abcdef&accent=%23ff9f1c", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    let (_, _, home) = app.get("/", &[]).await;
    assert!(home.contains("#123456"), "the new colour is on the page");

    // A bundle added with a price typed the Dutch way; a discount code; switched off again.
    let res = app.form("staff_save_pack", "credits=777&price=59%2C95&currency=eur&sort_order=5&active=on", "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    assert!(location(&res).starts_with("/staff/pricing?saved=pack-"), "{}", location(&res));
    let (_, _, pricing) = app.get("/pricing", &[]).await;
    assert!(pricing.contains("777") && pricing.contains("59,95"), "on offer at once");
    let res = app.form("staff_save_pack", "credits=777&price=gratis&currency=EUR&sort_order=5", "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_save_pack").0.code, domain::ErrorCode::OutOfRange);
    let res = app.form("staff_add_discount", "code=lente10&percentage=10&minimum_order=20&country=NL&expires=2099-12-31", "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/pricing?saved=codes#codes");
    let res = app.form("staff_add_discount", "code=LENTE10&percentage=10", "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    let (error, _) = refusal(&res, "staff_add_discount");
    assert_eq!(error.code, domain::ErrorCode::CodeTaken);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Deze code bestaat al."));
    let (_, _, page) = app.get("/staff/pricing", &[("cookie", &staff)]).await;
    assert!(page.contains("LENTE10") && page.contains("10 %") && page.contains("20.00") && page.contains("777 credits"));
    let (code_id, minimum): (i64, i64) = sqlx::query_as("SELECT id, minimum_order FROM discount_codes WHERE code = 'LENTE10'").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(minimum, 2000);
    app.form("staff_discount_active", &format!("id={code_id}&active=false"), "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    let (active,): (i64,) = sqlx::query_as("SELECT CASE WHEN active THEN 1 ELSE 0 END FROM discount_codes WHERE id = $1").bind(code_id).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(active, 0, "switched off");

    // Every change is in the staff log with its values.
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    for line in ["Credits gewijzigd", "message_credits: ", "→ 12", "Landen gewijzigd", "Kleuren gewijzigd", "Bundel toegevoegd", "Kortingscode toegevoegd", "Kortingscode uitgezet"] {
        assert!(page.contains(line), "{line}");
    }
    assert!(page.contains(r#"href="/staff/site""#) && page.contains(r#"href="/staff/pricing""#));
}

#[tokio::test]
async fn staff_set_visitor_rules_costs_company_and_logo_and_start_a_site() {
    let app = start_with(&[("VONK_PAGE_CACHE_SECS", "0")]).await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    app.state.accounts.set_staff("staff@example.nl", true).await.unwrap();
    let post = |name: &'static str, body: String, cookie: String| {
        let app = &app;
        let origin = origin.clone();
        async move { app.form(name, &body, "/staff/site", &[("origin", &origin), ("cookie", &cookie)]).await }
    };
    let rules = "niche=6&signups=all&domain_language=nl-NL&auto_likes=3&auto_like_gap_minutes=60&logged_out_search=on&visible_profile_fields%5Bhair_colour%5D=on&visible_profile_fields%5Btattoos%5D=on";

    // A member cannot; nothing changes.
    let res = post("staff_site_rules", rules.into(), anna.clone()).await;
    assert!(location(&res).contains("__err"));
    assert_eq!(app.state.sites.for_host(None).unwrap().niche.number(), 1);

    // The page has every new part, and a member tile link on a lander uses the niche's prefix after saving.
    let (_, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    for part in [r#"id="rules""#, r#"id="costs""#, r#"id="company""#, r#"id="logo""#, r#"id="new-site""#, "Bezoekers en aanmelden", "Bedrijfsgegevens", r#"name="cost[NL]""#] {
        assert!(page.contains(part), "{part}");
    }
    let res = post("staff_site_rules", rules.replace("niche=6", "niche=8"), staff.clone()).await;
    assert_eq!(refusal(&res, "staff_site_rules").0.code, domain::ErrorCode::OutOfRange);
    let res = post("staff_site_rules", rules.into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=rules#rules");
    let site = app.state.sites.for_host(None).unwrap();
    assert_eq!((site.niche.number(), site.enable_site_entry_popup, site.visible_profile_fields.clone()), (6, false, vec!["hair_colour".to_string(), "tattoos".to_string()]));
    let (status, headers, _) = app.get("/landers/gallery/amsterdam", &[]).await;
    assert!(status.is_redirection() && headers.get("location").unwrap().to_str().unwrap().ends_with("/landers/gallery/milf-amsterdam"), "the niche's prefix");

    // Minimum message price: typed the Dutch way, shown on the pricing page; a bad price refused.
    let res = post("staff_site_message_costs", "cost%5BNL%5D=gratis&currency%5BNL%5D=EUR".into(), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_site_message_costs");
    assert_eq!(error.code, domain::ErrorCode::OutOfRange);
    let res = post("staff_site_message_costs", "cost%5BNL%5D=0%2C89&currency%5BNL%5D=EUR&cost%5BBE%5D=&currency%5BBE%5D=EUR".into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=costs#costs");
    assert_eq!(app.state.sites.for_host(None).unwrap().minimum_message_costs, vec![domain::site::MessageCost { country: "NL".into(), costs: 89, currency: "EUR".into() }]);
    let (_, _, pricing) = app.get("/pricing", &[("cookie", &anna)]).await;
    assert!(pricing.contains("0,89"), "the minimum price is stated");

    // Company details: on the legal pages at once; a bad VAT number is refused, naming the field.
    let company = "company_name=Vonk+Holding+B.V.&address=Keizersgracht+1&postal_code=1015+AA&city=Amsterdam&company_country=NL&kvk=87654321&tradenames=Vonk%0AVonk+Zuid&vat_numbers=NL001234567B01&company_phone=020-123+4567&delete_discount=40";
    let res = post("staff_site_company", company.replace("NL001234567B01", "%3Cb%3E"), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_site_company");
    assert_eq!(error.code, domain::ErrorCode::ChoiceInvalid);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Btw-nummers (één per regel):"), "the field is named");
    let res = post("staff_site_company", company.into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=company#company");
    let (_, _, terms) = app.get("/pages/terms", &[]).await;
    assert!(terms.contains("Vonk Holding B.V.") && terms.contains("87654321"), "the terms name the company");

    // A logo: a picture is stored as PNG and shown in the header; other files are refused.
    let upload = |bytes: Vec<u8>| {
        let app = &app;
        let staff = staff.clone();
        async move {
            let boundary = "----vonk-logo-boundary-7MA4YWxk";
            let mut body = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"logo.png\"\r\nContent-Type: image/png\r\n\r\n").into_bytes();
            body.extend_from_slice(&bytes);
            body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
            app.client
                .post(format!("{}/api/fn/staff_site_logo", app.base))
                .header("content-type", format!("multipart/form-data; boundary={boundary}"))
                .header("accept", "text/html")
                .header("referer", format!("{}/staff/site", app.base))
                .header("origin", app.origin())
                .header("cookie", staff)
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    let res = upload(b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>".to_vec()).await;
    assert_eq!(refusal(&res, "staff_site_logo").0.code, domain::ErrorCode::PhotoNotAnImage);
    let res = upload(png(960, 240)).await;
    assert_eq!(location(&res), "/staff/site?saved=logo#logo");
    let logo = app.state.sites.for_host(None).unwrap().logo.clone().expect("a logo");
    assert_eq!((logo.width, logo.height), (480, 120));
    let (_, _, home) = app.get("/", &[]).await;
    assert!(home.contains(&format!(r#"src="{}""#, logo.url())) && home.contains(r#"class="logo__image""#), "the header shows it");
    let (status, headers, _) = app.get(&logo.url(), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers.get("content-type").unwrap(), "image/png");
    assert!(headers.get("cache-control").unwrap().to_str().unwrap().contains("immutable"));
    let res = post("staff_site_logo_remove", String::new(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=logo#logo");
    let (status, _, _) = app.get(&logo.url(), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A new site: refused on a taken or bad domain; then it answers on its domain, and the
    // staff member logs in there with the same password.
    let res = post("staff_new_site", "domain=vonk.de&name=Vonk+Zuid&domain_language=nl-NL".into(), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_new_site");
    assert_eq!(error.code, domain::ErrorCode::DomainTaken);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Op dit domein draait al een site."));
    let res = post("staff_new_site", "domain=vonk+zuid&name=Vonk+Zuid&domain_language=nl-NL".into(), staff.clone()).await;
    assert_eq!(refusal(&res, "staff_new_site").0.code, domain::ErrorCode::DomainInvalid);
    let res = post("staff_new_site", "domain=https%3A%2F%2Fwww.Vonk-Zuid.nl%2F&name=Vonk+Zuid&domain_language=nl-BE".into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?created=vonk-zuid.nl#new-site");
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Site vonk-zuid.nl is aangemaakt.") && html.contains(r#"href="https://vonk-zuid.nl/login""#));
    let (_, _, spoofed) = app.get("/staff/site?created=evil.example", &[("cookie", &staff)]).await;
    assert!(!spoofed.contains("site-created") && !spoofed.contains("https://evil.example"), "only a site of this company is announced");
    let (_, _, home) = app.get("/", &[("host", "vonk-zuid.nl")]).await;
    assert!(home.contains("Vonk Zuid"), "the new site answers on its domain");
    let login = app
        .client
        .post(format!("{}/api/fn/login", app.base))
        .header("host", "vonk-zuid.nl")
        .header("origin", "http://vonk-zuid.nl")
        .header("accept", "text/html")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("email=staff%40example.nl&password=rode+kater+op+het+dak")
        .send()
        .await
        .unwrap();
    assert!(cookie_value(&login, "auth.session").is_some(), "logged in on the new site: {:?}", login.headers());

    // Each change is logged.
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    for line in ["Bezoekers en aanmelden gewijzigd", "Minimale berichtprijzen gewijzigd", "Bedrijfsgegevens gewijzigd", "Nieuw logo geplaatst", "Logo verwijderd", "Nieuwe site aangemaakt"] {
        assert!(page.contains(line), "{line}");
    }
}

#[tokio::test]
async fn a_us_edition_footer_has_the_2257_statement_and_privacy_choices() {
    let app = start_with(&[("VONK_PAGE_CACHE_SECS", "0")]).await;
    let (_, _, page) = app.get("/pages/terms", &[]).await;
    assert!(!page.contains(r#"href="/pages/2257""#) && !page.contains("footer-us"), "not on the Dutch site");
    sqlx::query("UPDATE sites SET geoip_country = 'US'").execute(app.state.db.pool()).await.unwrap();
    app.state.sites.reload().await.unwrap();
    let (_, _, page) = app.get("/pages/terms", &[("accept-language", "en")]).await;
    assert!(page.contains(r#"href="/pages/2257""#) && page.contains(r#"href="/pages/privacy-choices""#), "the US footer links");
    assert!(page.contains(r#"data-testid="footer-us""#) && page.contains("18 U.S.C. 2257"));
    for (path, title) in [("/pages/2257", "Verklaring 18 U.S.C. 2257"), ("/pages/privacy-choices", "Jouw privacykeuzes")] {
        let (status, _, page) = app.get(path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(page.contains(&format!("<h1 class=\"page__title\">{title}</h1>")), "{path}");
        assert!(page.contains("support@"), "{path}: the support address filled in");
        assert!(!page.contains("{company}") && !page.contains("{email}") && !page.contains("{site}"), "{path}: every placeholder filled");
    }
}

#[tokio::test]
async fn the_lb_beacon_stores_a_bounce_and_staff_see_the_count() {
    let app = start().await;
    let origin = app.origin();
    let beacon = |referer: String, origin: String| {
        let client = app.client.clone();
        let url = format!("{}/api/fn/page_bounce", app.base);
        async move { client.post(url).header("content-type", "application/json").header("origin", origin).header("referer", referer).body("{}").send().await.unwrap() }
    };
    // The page's script sends the beacon only with `lb` in the URL.
    let (_, _, page) = app.get("/members/1/landing?lb=1", &[]).await;
    assert!(page.contains("/api/fn/page_bounce") && page.contains("visibilitychange"));
    let (_, _, plain) = app.get("/members/1/landing?network=adnet", &[]).await;
    assert!(!plain.contains("/api/fn/page_bounce"), "no beacon script without lb");

    let res = beacon(format!("{}/members/7/landing?lb=1&network=adnet&sub1=s", app.base), origin.clone()).await;
    assert!(res.status().is_success(), "{}", res.status());
    beacon(format!("{}/landers/gallery/milf-amsterdam?lb", app.base), origin.clone()).await;
    beacon(format!("{}/landers/gallery?lb=1&ref=r", app.base), origin.clone()).await;
    // Without `lb`, from another site's page, or posted by another site: nothing is stored.
    beacon(format!("{}/landers/gallery?network=x", app.base), origin.clone()).await;
    beacon("https://evil.example/landers/gallery?lb=1".to_string(), origin.clone()).await;
    let res = beacon(format!("{}/landers/gallery?lb=1", app.base), "https://evil.example".into()).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let rows: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as("SELECT lander, slug, network, sub1 FROM page_bounces ORDER BY id").fetch_all(app.state.db.pool()).await.unwrap();
    assert_eq!(rows, [
        ("landing".to_string(), String::new(), Some("adnet".to_string()), Some("s".to_string())),
        ("gallery".to_string(), "milf-amsterdam".to_string(), None, None),
        ("gallery".to_string(), String::new(), None, None),
    ]);

    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(app.state.accounts.set_staff("staff@example.nl", true).await.unwrap(), 1);
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    let table = &page[page.find(r#"data-testid="staff-bounces""#).expect("the bounce figures")..];
    assert!(table.contains("<td>gallery</td><td>2</td><td>1</td>") && table.contains("<td>landing</td><td>1</td><td>1</td>"), "{}", &table[..600.min(table.len())]);
}

#[tokio::test]
async fn complaints_are_filed_mailed_and_handled_by_staff_only() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bram = ready_member(&app, "bram@example.nl", "male").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(app.state.accounts.set_staff("staff@example.nl", true).await.unwrap(), 1);
    let bram_id: (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'bram@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let bram_id = bram_id.0;

    // The profile's report link opens the form about that member, the member's name and address filled in.
    let (_, _, profile) = app.get(&format!("/members/{bram_id}"), &[("cookie", &anna)]).await;
    assert!(profile.contains(&format!(r#"href="/complaints?member={bram_id}#complaint""#)) && profile.contains("Profiel melden"));
    let (status, _, page) = app.get(&format!("/complaints?member={bram_id}"), &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Je meldt het profiel van Anna.") && page.contains(&format!(r#"name="member" value="{bram_id}""#)), "the subject");
    assert!(page.contains(r#"value="anna@example.nl""#), "the member's address");

    // Bad input: a translated refusal, what was typed comes back, nothing is stored or mailed.
    let before = mails(&app).len();
    let body = format!("name=Anna&email=anna%40example.nl&category=harassment&concerning=&text=rude&member={bram_id}");
    let res = app.form("file_complaint", &body, "/complaints", &[("origin", &origin), ("cookie", &anna)]).await;
    let (error, page_path) = refusal(&res, "file_complaint");
    assert_eq!(error.code, domain::ErrorCode::ComplaintLength);
    assert!(page_path.contains("text=rude") && page_path.contains(&format!("member={bram_id}")), "{page_path}");
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("Beschrijf je klacht in 10 tot 4000 tekens.") && html.contains(">rude</textarea>") && html.contains("Je meldt het profiel van"));
    for bad in ["name=&email=anna%40example.nl&category=harassment&text=ten+characters+at+least", "name=A&email=nope&category=harassment&text=ten+characters+at+least", "name=A&email=a%40b.nl&category=made_up&text=ten+characters+at+least"] {
        let res = app.form("file_complaint", bad, "/complaints", &[("origin", &origin)]).await;
        assert_eq!(res.status(), StatusCode::FOUND, "{bad}");
        assert!(location(&res).contains("__err"), "{bad}");
    }
    assert_eq!(mails(&app).len(), before, "nothing mailed");
    // Another site's form cannot post here.
    let res = app.form("file_complaint", &body.replace("text=rude", "text=He+keeps+sending+rude+messages"), "/complaints", &[("origin", "https://evil.example"), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    // Filed: a reference on the page, a mail to support, a record for staff.
    let res = app.form("file_complaint", &body.replace("text=rude", "text=He+keeps+sending+rude+messages"), "/complaints", &[("origin", &origin), ("cookie", &anna)]).await;
    let to = location(&res);
    let reference = to.strip_prefix("/complaints?sent=").unwrap_or_else(|| panic!("{to}")).to_string();
    assert!(domain::complaint::is_reference(&reference));
    let (_, _, page) = app.get(&to, &[("cookie", &anna)]).await;
    assert!(page.contains("Bedankt, we hebben je bericht ontvangen") && page.contains(&reference));
    let mail = mails(&app).into_iter().rev().find(|m| m.contains(&reference)).expect("support was mailed");
    assert!(mail.contains("To: support@vonk.example") && mail.contains("He keeps sending rude messages"));

    // Staff pages: a visitor is sent to log in, a member gets a 404, staff see the complaint.
    let (status, headers, _) = app.get("/staff/complaints", &[("accept", "text/html")]).await;
    assert!(status.is_redirection() && headers["location"].to_str().unwrap().starts_with("/login"), "{status}");
    for path in ["/staff", "/staff/complaints"] {
        let (status, _, page) = app.get(path, &[("cookie", &bram)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(!page.contains(&reference));
    }
    let res = app.call("staff_complaints", "status=open", &[("origin", &origin), ("cookie", &bram)]).await;
    assert!(res.status().is_client_error(), "{}", res.status());
    let (status, _, page) = app.get("/staff/complaints", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&reference) && page.contains("He keeps sending rude messages") && page.contains("Intimidatie of ongewenste berichten"));
    let id: (i64,) = sqlx::query_as("SELECT id FROM complaints WHERE reference = $1").bind(&reference).fetch_one(app.state.db.pool()).await.unwrap();
    let res = app.form("set_complaint_status", &format!("id={}&handled=1", id.0), "/staff/complaints", &[("origin", &origin), ("cookie", &bram)]).await;
    assert!(location(&res).contains("__err"), "a member cannot handle it");
    let res = app.form("set_complaint_status", &format!("id={}&handled=1", id.0), "/staff/complaints", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/complaints?saved=1");
    let (_, _, page) = app.get("/staff/complaints?status=handled", &[("cookie", &staff)]).await;
    assert!(page.contains(&reference) && page.contains("Afgehandeld door"));
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(page.contains("Klacht afgehandeld") && page.contains(&reference), "the staff log");

    // The form's limit per address.
    let mut limited = false;
    for i in 0..12 {
        let res = app.form("file_complaint", &format!("name=A&email=a%40b.nl&category=other&text=complaint+number+{i}+here"), "/complaints", &[("origin", &origin)]).await;
        if location(&res).contains("__err") {
            limited = true;
            break;
        }
    }
    assert!(limited, "too many complaints from one address are refused");
}

#[tokio::test]
async fn photos_upload_review_and_who_sees_what() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(app.state.accounts.set_staff("staff@example.nl", true).await.unwrap(), 1);

    // Bad uploads come back with their Dutch text; cross-site and anonymous uploads are refused.
    let res = app.upload(&[("origin", &origin), ("cookie", &anna)], b"hello, not a picture", false).await;
    let (error, page) = refusal(&res, "upload_photo");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::PhotoNotAnImage, "/profile"));
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("Dit bestand is geen foto."));
    assert!(html.contains("0 van 3 foto&#x27;s") || html.contains("0 van 3 foto's"), "nothing stored");
    let res = app.upload(&[("origin", "https://evil.example"), ("cookie", &anna)], &png(40, 40), false).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.upload(&[("origin", &origin)], &png(40, 40), false).await;
    assert_eq!(refusal(&res, "upload_photo").0.code, domain::ErrorCode::AuthenticationRequired);
    let (_, headers, _) = app.get(&location(&res), &[("accept", "text/html")]).await;
    assert_eq!(headers["location"], "/login?return_to=/profile", "the page sends the visitor to log in");
    let res = app.upload(&[("origin", &origin), ("cookie", &anna), ("accept", "application/json")], b"GIF89a", false).await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(res.text().await.unwrap(), r#"{"code":"photo_not_an_image"}"#);

    // A good upload waits for review: Anna sees it, Bart and visitors do not.
    let res = app.upload(&[("origin", &origin), ("cookie", &anna)], &png(300, 400), false).await;
    assert_eq!(location(&res), "/profile?saved=photo#photos");
    let (_, _, html) = app.get("/profile?saved=photo", &[("cookie", &anna)]).await;
    assert!(html.contains("Wordt gecontroleerd") && html.contains(r#"data-testid="profile-main-photo""#));
    let id = photo_id("upload", &html);
    let (status, headers, _) = app.get(&format!("/media/photos/{id}/thumb"), &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "image/jpeg");
    assert!(headers["cache-control"].to_str().unwrap().starts_with("private"));
    for who in [&bart[..], ""] {
        let (status, _, _) = app.get(&format!("/media/photos/{id}"), &[("cookie", who)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "under inspection stays hidden");
    }
    // Originals never live under the public media folder.
    let (status, _, _) = app.get(&format!("/media/public/photos/{id}"), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Only staff review: members get a 404 page and a 403 on the action.
    let (status, _, _) = app.get("/staff/photos", &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let approve = format!("id={id}&approve=1");
    let res = app.call("review_photo", &approve, &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "forbidden".to_string()));
    let res = app.form("review_photo", &approve, "/staff/photos", &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(refusal(&res, "review_photo").0.code, domain::ErrorCode::Forbidden);
    let (status, _, html) = app.get("/staff/photos", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"action="/api/fn/review_photo""#) && html.contains(&format!(r#"name="id" value="{id}""#)) && html.contains(r#"name="approve""#));
    let res = app.form("review_photo", &approve, "/staff/photos", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/photos?saved=approved");

    // Approved: Bart and visitors see the main photo; a private one is locked for free Bart.
    let (status, _, _) = app.get(&format!("/media/photos/{id}"), &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = app.get(&format!("/media/photos/{id}/thumb"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    app.upload(&[("origin", &origin), ("cookie", &anna)], &png(200, 200), true).await;
    let (_, _, html) = app.get("/staff/photos", &[("cookie", &staff)]).await;
    let private = photo_id("queue", &html);
    assert_ne!(private, id);
    let res = app.form("review_photo", &format!("id={private}&approve=1"), "/staff/photos", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/photos?saved=approved");
    let (status, _, _) = app.get(&format!("/media/photos/{private}"), &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let anna_id: i64 = {
        let (_, _, html) = app.get("/members?gender=female", &[("cookie", &bart)]).await;
        let start = html.find("href=\"/members/").expect("Anna is found") + "href=\"/members/".len();
        html[start..].split('"').next().unwrap().parse().unwrap()
    };
    let (_, _, page) = app.get(&format!("/members/{anna_id}"), &[("cookie", &bart)]).await;
    assert!(page.contains(&format!("/media/photos/{id}")) && page.contains(r#"data-testid="locked-photo""#));
    assert!(!page.contains(&format!("/media/photos/{private}")), "a locked photo has no address on the page");

    // Bart cannot touch Anna's photos; Anna's stay as they were.
    for action in ["set_main_photo", "set_photo_private", "delete_photo"] {
        let res = app.form(action, &format!("id={id}&private=1"), "/profile", &[("origin", &origin), ("cookie", &bart)]).await;
        let (error, page) = refusal(&res, action);
        assert_eq!((error.code, page.as_str()), (domain::ErrorCode::NotFound, "/profile"), "{action}");
        let (_, html) = app.follow(&res, &bart).await;
        assert!(html.contains(r#"data-code="not_found""#) && html.contains("Niet gevonden."), "{action}");
    }
    let (status, _, _) = app.get(&format!("/media/photos/{id}/thumb"), &[]).await;
    assert_eq!(status, StatusCode::OK, "still public and main");

    // Anna deletes her main photo: it is gone for everyone, herself included.
    let res = app.form("delete_photo", &format!("id={id}"), "/profile", &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(location(&res), "/profile?saved=photo#photos");
    let (status, _, _) = app.get(&format!("/media/photos/{id}"), &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn uploads_are_rate_limited_and_a_full_account_is_refused_before_its_body_is_read() {
    let app = start_with(&[("VONK_RATE_LIMITS", "photo_upload=5/3600"), ("VONK_PHOTO_MAX_BYTES", "65536")]).await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    for _ in 0..3 {
        let res = app.upload(&[("origin", &origin), ("cookie", &anna)], &png(40, 40), false).await;
        assert_eq!(location(&res), "/profile?saved=photo#photos");
    }
    // Full: the answer is the photo limit, not the size of a body over the size limit, because
    // the count is asked before the body is read.
    let oversized = vec![0x5a_u8; 200_000];
    let res = app.upload(&[("origin", &origin), ("cookie", &anna)], &oversized, false).await;
    assert_eq!(refusal(&res, "upload_photo").0.code, domain::ErrorCode::PhotoLimitReached);
    let res = app.upload(&[("origin", &origin), ("cookie", &anna), ("accept", "application/json")], &png(40, 40), false).await;
    assert_eq!(json_code(res).await, (StatusCode::UNPROCESSABLE_ENTITY, "photo_limit_reached".to_string()));
    // The sixth upload in the hour is one too many, whatever it holds; another member has her own count.
    let res = app.upload(&[("origin", &origin), ("cookie", &anna)], &png(40, 40), false).await;
    assert_eq!(refusal(&res, "upload_photo").0.code, domain::ErrorCode::TooManyRequests);
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("3 van 3 foto"), "nothing stored");
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let res = app.upload(&[("origin", &origin), ("cookie", &bart)], &png(40, 40), false).await;
    assert_eq!(location(&res), "/profile?saved=photo#photos");
}

#[tokio::test]
async fn photo_alert_landing_pages_and_the_last_opened_profile() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;

    // No photo yet: the alert shows (not on /profile), and a dismissal holds.
    let (_, _, html) = app.get("/members", &[("cookie", &bart)]).await;
    assert!(html.contains(r#"data-testid="photo-alert""#) && html.contains("Voeg een profielfoto toe!"));
    let (_, _, html) = app.get("/profile", &[("cookie", &bart)]).await;
    assert!(!html.contains(r#"data-testid="photo-alert""#));
    let res = app.form("dismiss_alert", "alert=profile_photo&return_to=/members", "/members", &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(location(&res), "/members");
    let (_, _, html) = app.get("/members", &[("cookie", &bart)]).await;
    assert!(!html.contains(r#"data-testid="photo-alert""#));
    assert!(!html.contains(r#"data-testid="last-opened""#));

    // Bart opens Anna's profile; /members then offers the way back.
    let (_, _, html) = app.get("/members?gender=female", &[("cookie", &bart)]).await;
    let start = html.find("href=\"/members/").expect("Anna is found") + "href=\"/members/".len();
    let anna_id: i64 = html[start..].split('"').next().unwrap().parse().unwrap();
    app.get(&format!("/members/{anna_id}"), &[("cookie", &bart)]).await;
    let (_, _, html) = app.get("/members", &[("cookie", &bart)]).await;
    assert!(html.contains(r#"data-testid="last-opened""#) && html.contains("Laatst bekeken:"));

    // A visitor's way in through Anna's profile, with Anna remembered to the end of signup.
    let (status, _, html) = app.get(&format!("/members/{anna_id}/landing"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="landing-profile""#) && html.contains(&format!("/members/{anna_id}/signup")) && html.contains("Anna leren kennen"));
    let (status, _, html) = app.get(&format!("/members/{anna_id}/signup"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="signup-teaser""#) && html.contains(&format!(r#"name="profile" value="{anna_id}""#)));
    let (status, _, _) = app.get("/members/999999/landing", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, headers, _) = app.get(&format!("/members/{anna_id}/landing"), &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status} {headers:?}");
    assert_eq!(headers["location"], format!("/members/{anna_id}").as_str());

    let body = SIGNUP.replace("anna%40example.nl", "carl%40example.nl") + &format!("&profile={anna_id}");
    let res = app.form("signup", &body, &format!("/members/{anna_id}/signup"), &[("origin", &origin)]).await;
    assert_eq!(location(&res), format!("/complete-signup?profile={anna_id}"));
    let carl = format!("auth.session={}", cookie_value(&res, "auth.session").unwrap());
    let (_, _, html) = app.get(&format!("/complete-signup?profile={anna_id}"), &[("cookie", &carl)]).await;
    assert!(html.contains(&format!(r#"name="profile" value="{anna_id}""#)));
    let basics = format!("from=complete&gender=male&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem&profile={anna_id}");
    let res = app.form("save_basics", &basics, &format!("/complete-signup?profile={anna_id}"), &[("origin", &origin), ("cookie", &carl)]).await;
    assert_eq!(location(&res), format!("/members/{anna_id}?welcome=1"));
    let (_, _, html) = app.get(&format!("/members/{anna_id}?welcome=1"), &[("cookie", &carl)]).await;
    assert!(html.contains("Hier is het profiel van Anna."));
    // A failed signup from the profile goes back to that profile's signup page.
    let res = app.form("signup", &(SIGNUP.replace("anna%40example.nl", "not-an-address") + &format!("&profile={anna_id}")), &format!("/members/{anna_id}/signup"), &[("origin", &origin)]).await;
    let (error, page) = refusal(&res, "signup");
    assert_eq!((error.code, page), (domain::ErrorCode::EmailInvalid, format!("/members/{anna_id}/signup")));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Ongeldige e-mail") && html.contains(&format!(r#"name="profile" value="{anna_id}""#)), "the refusal, and Anna still carried along");
}

#[tokio::test]
async fn likes_tabs_are_paged() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "60")]).await;
    let origin = app.origin();
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let card_ids = |html: &str| -> Vec<i64> {
        html.split(r#"<li id="m-"#).skip(1).map(|rest| rest.split('"').next().unwrap().parse().unwrap()).collect()
    };
    let mut ids = Vec::new();
    for page in 1..=3 {
        let (_, _, html) = app.get(&format!("/members?page={page}"), &[("cookie", &bart)]).await;
        // Without a gender in the address, Bart (a straight man) is shown women.
        assert!(html.contains(r#"<option value="female" selected"#), "the gender Bart looks for");
        ids.extend(card_ids(&html));
    }
    ids.dedup();
    assert!(ids.len() >= 26, "enough demo members to like: {}", ids.len());
    for id in &ids[..26] {
        let res = app.call("like", &format!("id={id}&source=search"), &[("origin", &origin), ("cookie", &bart)]).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    // 24 cards on the first page, and a link to the next.
    let (_, _, html) = app.get("/likes/given", &[("cookie", &bart)]).await;
    let first = card_ids(&html);
    assert_eq!(first.len(), domain::likes::PAGE_SIZE as usize);
    assert!(html.contains(r#"href="/likes/given?page=2" rel="next""#) && !html.contains(r#"rel="prev""#));
    assert!(html.contains(r#"name="return_to" value="/likes/given""#));
    // The second has the other two, comes back to itself after a like, and links back.
    let (_, _, html) = app.get("/likes/given?page=2", &[("cookie", &bart)]).await;
    let second = card_ids(&html);
    assert_eq!(second.len(), 2);
    assert!(second.iter().all(|id| !first.contains(id)), "no card on both pages");
    assert!(html.contains(r#"href="/likes/given" rel="prev""#) && !html.contains(r#"rel="next""#) && html.contains("Pagina 2"));
    assert!(html.contains(r#"name="return_to" value="/likes/given?page=2""#));
    let mut all: Vec<i64> = first.into_iter().chain(second).collect();
    all.sort();
    let mut liked = ids[..26].to_vec();
    liked.sort();
    assert_eq!(all, liked, "the two pages are exactly the likes given");
    // A page past the end, or nonsense, still answers: empty with a way back, or the first.
    let (status, _, html) = app.get("/likes/given?page=9", &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(card_ids(&html).is_empty() && html.contains(r#"href="/likes/given?page=8" rel="prev""#));
    let (_, _, html) = app.get("/likes/given?page=abc", &[("cookie", &bart)]).await;
    assert_eq!(card_ids(&html).len(), 24);
}

#[tokio::test]
async fn likes_matches_pills_and_blocking() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let id_of = |html: &str| -> i64 {
        let start = html.find("href=\"/members/").expect("a member card") + "href=\"/members/".len();
        html[start..].split('"').next().unwrap().parse().unwrap()
    };
    let (_, _, html) = app.get("/members?gender=female", &[("cookie", &bart)]).await;
    let anna_id = id_of(&html);
    let (_, _, html) = app.get("/members?gender=male", &[("cookie", &anna)]).await;
    let bart_id = id_of(&html);

    // Likes need a session and the site's own origin.
    let (anna_page, like_anna) = (format!("/members/{anna_id}"), format!("id={anna_id}&source=profile"));
    let res = app.form("like", &like_anna, &anna_page, &[("origin", &origin)]).await;
    let (error, page) = refusal(&res, "like");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::AuthenticationRequired, anna_page.as_str()));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains(r#"data-code="authentication_required""#) && html.contains("Log opnieuw in."));
    let res = app.form("like", &like_anna, &anna_page, &[("origin", "https://evil.example"), ("cookie", &bart)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.form("like", &like_anna, &anna_page, &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(location(&res), format!("/members/{anna_id}?liked={anna_id}"));

    // Anna sees a pill, a counted title and a new like; opening Bart's profile clears it.
    let (_, _, html) = app.get("/likes", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="likes-pill""#) && html.contains("<title>(1) Likes | Vonk</title>"), "pill and title");
    assert!(html.contains(r#"data-testid="card-badge""#) && html.contains(&format!("/members/{bart_id}")));
    // Anna can like back from the card, and comes back to the same list.
    // The list's like form is written once; each card's heart submits it with its member's id.
    assert!(html.contains(r#"id="card-like-form" method="post" action="/api/fn/like""#) && html.contains(r#"name="return_to" value="/likes/received""#));
    assert!(html.contains(&format!(r#"form="card-like-form" name="id" value="{bart_id}""#)), "the card's heart");
    let (_, _, html) = app.get(&format!("/members/{bart_id}"), &[("cookie", &anna)]).await;
    assert!(html.contains("Bart vindt jou leuk!") || html.contains("vindt jou leuk!"));
    let (_, _, html) = app.get("/likes", &[("cookie", &anna)]).await;
    assert!(!html.contains(r#"data-testid="likes-pill""#) && !html.contains(r#"data-testid="card-badge""#));

    // Liking back from a card of the list would show the dialog there too.
    let (_, _, html) = app.get(&format!("/likes/received?match={bart_id}"), &[("cookie", &anna)]).await;
    assert!(!html.contains(r#"data-testid="match-dialog""#), "not before it is a match");
    // Anna likes back: a match, with the dialog, on both sides.
    let res = app.form("like", &format!("id={bart_id}&source=profile"), &format!("/members/{bart_id}"), &[("origin", &origin), ("cookie", &anna)]).await;
    let back = location(&res);
    assert_eq!(back, format!("/members/{bart_id}?match={bart_id}"));
    let (_, _, html) = app.get(&back, &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="match-dialog""#) && html.contains("Nieuwe like!"));
    let (_, _, html) = app.get("/likes/matches", &[("cookie", &bart)]).await;
    assert!(html.contains(&format!("/members/{anna_id}")));
    assert!(html.contains(r#"action="/api/fn/unlike""#) && html.contains(&format!(r#"form="card-unlike-form" name="id" value="{anna_id}""#)), "a match's heart takes the like back");
    let (_, _, html) = app.get(&format!("/likes/received?match={bart_id}"), &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="match-dialog""#), "the list shows the match dialog");
    let (status, _, _) = app.get("/likes/nonsense", &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, headers, _) = app.get(&format!("/likes/m/{anna_id}"), &[("cookie", &bart)]).await;
    assert!(status.is_redirection());
    assert_eq!(headers["location"], format!("/members/{anna_id}").as_str());

    // A script's like answers whether it is a match; the swipe game learns its allowance.
    let res = app.call("like", &format!("id={anna_id}&source=swipe"), &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), "true");
    let res = app.call("swipe", &format!("id={anna_id}&like=true"), &[("origin", &origin), ("cookie", &bart)]).await;
    let body: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(body["matched"], true);
    assert!(body["remaining"].is_number());

    // Anna blocks Bart: the likes are gone and Bart cannot like her again.
    let res = app.form("block", &format!("id={bart_id}"), &format!("/members/{bart_id}"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(location(&res), format!("/members/{bart_id}?blocked=1"));
    let (_, _, html) = app.get("/likes/matches", &[("cookie", &bart)]).await;
    assert!(html.contains(r#"data-testid="likes-empty""#));
    let res = app.form("like", &like_anna, &anna_page, &[("origin", &origin), ("cookie", &bart)]).await;
    let (error, page) = refusal(&res, "like");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::BlockedByMember, anna_page.as_str()));
    let (status, _, html) = app.get(&location(&res), &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "Anna's profile is hidden from Bart now");
    assert!(html.contains(r#"data-code="blocked_by_member""#) && html.contains("Dit lid heeft je geblokkeerd."));
    let res = app.call("like", &like_anna, &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "blocked_by_member".to_string()));
}

#[tokio::test]
async fn the_swipe_game_page_and_its_server_calls() {
    let app = start().await;
    let origin = app.origin();
    let (status, headers, _) = app.get("/swipe-game", &[("accept", "text/html")]).await;
    assert!(status.is_redirection());
    assert_eq!(headers["location"], "/login?return_to=/swipe-game");
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let (status, _, html) = app.get("/swipe-game", &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-widget="SwipeGame""#), "the widget's mount point");
    // Anna is in Bart's stack (the island's props carry the cards).
    assert!(html.contains("Haarlem") && html.contains("Nog {count} likes vandaag"));
    let (_, _, list) = app.get("/members?gender=female", &[("cookie", &bart)]).await;
    let start = list.find("href=\"/members/").unwrap() + "href=\"/members/".len();
    let anna_id: i64 = list[start..].split('"').next().unwrap().parse().unwrap();

    let swipe = |cookie: String, body: String| {
        let app = &app;
        let origin = origin.clone();
        async move {
            let res = app.post_form("/api/fn/swipe", &body, &[("origin", &origin), ("cookie", &cookie), ("accept", "application/json")]).await;
            assert_eq!(res.status(), StatusCode::OK);
            serde_json::from_str::<serde_json::Value>(&res.text().await.unwrap()).unwrap()
        }
    };
    let answer = swipe(bart.clone(), format!("id={anna_id}&like=true")).await;
    assert_eq!(answer["remaining"], 3);
    assert_eq!(answer["matched"], false);
    // Anna is out of Bart's stack now.
    let (_, _, html) = app.get("/swipe-game", &[("cookie", &bart)]).await;
    assert!(!html.contains("Haarlem"));
    let _ = anna;
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

#[tokio::test]
async fn card_likes_notifications_counts_and_the_match_finder() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let carl = ready_member(&app, "carl@example.nl", "male").await;
    let user_id = |email: &'static str| {
        let pool = app.state.db.pool().clone();
        async move { sqlx::query_as::<_, (i64,)>("SELECT id FROM users WHERE email = $1").bind(email).fetch_one(&pool).await.unwrap().0 }
    };
    let (anna_id, bart_id) = (user_id("anna@example.nl").await, user_id("bart@example.nl").await);
    let (_, _, html) = app.get("/members?gender=female", &[("cookie", &bart)]).await;
    assert!(html.contains(r#"action="/api/fn/like""#) && html.contains(&format!(r#"form="card-like-form" name="id" value="{anna_id}""#)) && html.contains(r#"aria-pressed="false""#), "a like button on the card");

    // Counters need a session.
    let res = app.call("counts", "", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.text().await.unwrap(), r#"{"code":"authentication_required"}"#);

    // Bart likes Anna from a search card (what the heart sends) and comes back to the same card.
    let body = format!("source=search&return_to=%2Fmembers%3Fgender%3Dfemale&card=true&id={anna_id}");
    let res = app.form("like", &body, "/members?gender=female", &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(location(&res), format!("/members?gender=female&liked={anna_id}#m-{anna_id}"));
    let (_, _, html) = app.get(&format!("/members?gender=female&liked={anna_id}"), &[("cookie", &bart)]).await;
    assert!(html.contains("Je vindt Anna leuk") && html.contains(&format!(r#"form="card-unlike-form" name="id" value="{anna_id}""#)) && html.contains(r#"aria-pressed="true""#));
    assert!(wait_for_mail(&app, &format!("/likes/m/{bart_id}")).await, "Anna is mailed about the like");

    // Anna: one new like and two notifications (welcome and the like), in the bar and from the API.
    assert_eq!(counts(&app, &anna).await, serde_json::json!({ "unread_messages": 0, "new_likes": 1, "notifications": 2 }));
    let (_, _, html) = app.get("/members", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="notifications-pill""#) && html.contains("<title>(1) Leden zoeken | Vonk</title>"), "pills and title");
    let (_, _, html) = app.get("/notifications", &[("cookie", &anna)]).await;
    assert!(html.contains("Anna") || html.contains("vindt je leuk"));
    assert!(html.contains("notification--new") && html.contains(r#"data-kind="like""#) && html.contains(r#"data-kind="welcome""#));
    assert!(!html.contains(r#"data-testid="notifications-pill""#), "read while shown");
    let (_, _, html) = app.get("/notifications", &[("cookie", &anna)]).await;
    assert!(!html.contains("notification--new"), "read now");
    assert_eq!(counts(&app, &anna).await["notifications"], 0);
    // Carl is told nothing about the two.
    let (_, _, html) = app.get("/notifications", &[("cookie", &carl)]).await;
    assert!(!html.contains(r#"data-kind="like""#) && !html.contains(r#"data-kind="match""#));

    // Anna's match finder offers Bart and Carl; liking them in one go is a match with Bart.
    let (status, _, html) = app.get("/match-finder", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    let bart_box = format!(r#"name="ids[{bart_id}]""#);
    assert!(html.contains(&bart_box) && html.contains(r#"data-testid="finder-like-all""#));
    let res = app.form("like_many", &format!("return_to=%2Fmatch-finder&ids%5B{bart_id}%5D=on"), "/match-finder", &[("origin", "https://evil.example"), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.form("like_many", "return_to=%2Fmatch-finder", "/match-finder", &[("origin", &origin), ("cookie", &anna)]).await;
    let (error, page) = refusal(&res, "like_many");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::NoneChosen, "/match-finder"));
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("Kies minstens één profiel om te liken."));
    assert!(html.contains(&bart_box), "nothing was liked");
    let res = app.form("like_many", &format!("return_to=%2Fmatch-finder&ids%5B{bart_id}%5D=on&ids%5B999999%5D=on"), "/match-finder", &[("origin", &origin), ("cookie", &anna)]).await;
    let back = location(&res);
    assert_eq!(back, format!("/match-finder?liked_many=1&match={bart_id}"));
    let (_, _, html) = app.get(&back, &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="match-dialog""#) && html.contains("Je hebt 1 leden geliket"));
    assert!(!html.contains(&bart_box), "liked ones leave the finder");
    let (_, _, html) = app.get("/notifications", &[("cookie", &bart)]).await;
    assert!(html.contains(r#"data-kind="match""#), "Bart hears of the match");
    assert!(wait_for_mail(&app, &format!("/likes/m/{anna_id}")).await, "and gets a mail");
    // Many notifications come a page at a time, older ones behind a link.
    let now = app.state.accounts.clock().now();
    for i in 0..31 {
        app.state.notifications.notify(user_id("carl@example.nl").await, domain::notifications::NotificationKind::PhotoApproved, now - 1000 + i).await.unwrap();
    }
    let (_, _, html) = app.get("/notifications", &[("cookie", &carl)]).await;
    assert_eq!(html.matches(r#"data-testid="notification""#).count(), 30);
    let start = html.find(r#"data-testid="older-notifications""#).and_then(|_| html.find(r#"href="/notifications?before="#)).expect("a link to older ones") + r#"href=""#.len();
    let older = html[start..].split('"').next().unwrap().to_string();
    let (status, _, html) = app.get(&older, &[("cookie", &carl)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(html.matches(r#"data-testid="notification""#).count(), 2, "the oldest notice and the welcome");
    assert!(!html.contains(r#"data-testid="older-notifications""#), "no older page after the last");
    let (status, _, _) = app.get("/notifications?before=junk", &[("cookie", &carl)]).await;
    assert_eq!(status, StatusCode::OK, "a bad cursor is the first page");
    // Another member's match is not shown to Carl through the finder's match parameter.
    let (_, _, html) = app.get(&format!("/match-finder?match={bart_id}"), &[("cookie", &carl)]).await;
    assert!(!html.contains(r#"data-testid="match-dialog""#));
}

#[tokio::test]
async fn auto_likes_come_once_due_from_operator_profiles() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "80")]).await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let res = app.call("auto_like", "", &[("sec-fetch-site", "same-origin")]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "authentication_required".to_string()));
    // Another site cannot make it happen through the member's browser.
    let res = app.call("auto_like", "", &[("cookie", &anna), ("sec-fetch-site", "cross-site")]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "forbidden_origin".to_string()));
    assert_eq!(counts(&app, &anna).await["new_likes"], 0);
    let res = app.call("auto_like", "", &[("cookie", &anna), ("sec-fetch-site", "same-origin")]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = res.text().await.unwrap();
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = answer["id"].as_i64().unwrap_or_else(|| panic!("a profile: {body}"));
    assert!(answer["name"].is_string() && answer["age"].is_number());
    assert_eq!(counts(&app, &anna).await["new_likes"], 1);
    // The demo profile is an operator-run man (Anna is a hetero woman).
    let (_, _, html) = app.get(&format!("/members/{id}"), &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="fictional-warning""#) && html.contains("vindt jou leuk!"));
    // The site waits an hour before the next one.
    let res = app.call("auto_like", "", &[("cookie", &anna), ("sec-fetch-site", "same-origin")]).await;
    assert_eq!((res.status(), res.text().await.unwrap().as_str()), (StatusCode::OK, "null"));
    // A new member's pages in the member area ask for auto-likes; others only answer `?t=N`.
    let (_, _, html) = app.get("/members", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-component="LikePopup_"#) && html.contains("{&quot;auto&quot;:true,"), "the popup island, asking");
    let (_, _, html) = app.get("/settings", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-component="LikePopup_"#) && html.contains("{&quot;auto&quot;:false,"), "outside the member area it waits for ?t=N");
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
async fn next_push(ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>, kind: &str, within: std::time::Duration) -> Option<serde_json::Value> {
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

#[tokio::test]
async fn chat_over_http_forms_calls_socket_and_media() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let carl = ready_member(&app, "carl@example.nl", "male").await;
    let (bart_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'bart@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();

    // Without a session: to the login page. With one: the chat page, usable without JavaScript.
    let (status, headers, _) = app.get(&format!("/members/{bart_id}/chat"), &[("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], format!("/login?return_to=/members/{bart_id}/chat").as_str());
    let page = format!("/members/{bart_id}/chat");
    let (status, _, html) = app.get(&page, &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="chat-fallback""#) && html.contains(r#"action="/api/fn/send_message""#) && html.contains(r#"data-widget="ChatPanel""#));

    // A plain form post sends and comes back to the conversation; the same client id twice stores one message.
    let body = format!("member={bart_id}&client_id=form-send-000001&text=Hoi+Bart%2C+zin+in+koffie%3F");
    let res = app.form("send_message", &body, &page, &[("origin", &origin), ("cookie", &anna)]).await;
    let (to, html) = app.follow(&res, &anna).await;
    assert!(to.starts_with("/chats/"), "{to}");
    assert!(html.contains("Hoi Bart, zin in koffie?"));
    let conversation = conversation_id(&html);
    let again = app.form("send_message", &body, &page, &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(location(&again).split('#').next(), to.split('#').next());
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(n, 1);
    // Too long: back to the page with the Dutch text and what was typed.
    let long = "x".repeat(2001);
    let res = app.form("send_message", &format!("conversation={conversation}&client_id=form-send-000002&text={long}"), &format!("/chats/{conversation}"), &[("origin", &origin), ("cookie", &anna)]).await;
    let (error, _) = refusal(&res, "send_message");
    assert_eq!(error.code, domain::ErrorCode::MessageTooLong);
    // Cross-origin: refused.
    let res = app.form("send_message", &body.replace("000001", "000003"), &page, &[("origin", "https://evil.example"), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    // Bart's socket gets Anna's next message live; Carl's gets nothing.
    let mut barts = socket(&app, &bart, 0).await;
    assert!(next_push(&mut barts, "message", std::time::Duration::from_secs(2)).await.is_some(), "the backlog since 0");
    let mut carls = socket(&app, &carl, 0).await;
    let res = app.call("send_message", &format!("conversation={conversation}&client_id=json-send-000004&text=Ben+je+er%3F"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let sent: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    let live = next_push(&mut barts, "message", std::time::Duration::from_secs(2)).await.expect("live within 2 s");
    assert_eq!(live["message"]["body"], "Ben je er?");
    assert_eq!(live["message"]["mine"], false);
    assert_eq!(live["message"]["id"], sent["message"]["id"]);
    assert!(next_push(&mut barts, "unread", std::time::Duration::from_secs(2)).await.is_some());
    assert!(next_push(&mut carls, "message", std::time::Duration::from_millis(500)).await.is_none());

    // Bart's list shows the unread pill, and his top bar the messages pill; opening reads it.
    let (_, _, html) = app.get("/members", &[("cookie", &bart)]).await;
    assert!(html.contains(r#"data-testid="messages-pill""#));
    let (status, _, html) = app.get(&format!("/chats/{conversation}"), &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Ben je er?"));
    assert_eq!(app.state.accounts.member(bart_id).await.unwrap().unwrap().counters.unread_messages, 0);

    // A photo goes to the two members only.
    let boundary = "----vonk-chat-boundary-7MA4YWxk";
    let mut body = Vec::new();
    for (name, value) in [("client_id", "photo-send-000005".to_string()), ("conversation", conversation.to_string())] {
        body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n").as_bytes());
    body.extend_from_slice(&png(60, 40));
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let res = app
        .client
        .post(format!("{}/api/fn/send_chat_photo", app.base))
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .header("origin", &origin)
        .header("cookie", &anna)
        .header("accept", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let photo: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    let src = photo["message"]["photo"].as_str().unwrap().to_string();
    assert_eq!(app.get(&src, &[("cookie", &bart)]).await.0, StatusCode::OK);
    assert_eq!(app.get(&src, &[("cookie", &anna)]).await.0, StatusCode::OK);
    assert_eq!(app.get(&src, &[("cookie", &carl)]).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&src, &[]).await.0, StatusCode::FORBIDDEN);

    // Carl can do nothing with the conversation: not the page, not the calls.
    assert_eq!(app.get(&format!("/chats/{conversation}"), &[("cookie", &carl)]).await.0, StatusCode::NOT_FOUND);
    for (name, body) in [
        ("chat_older", format!("conversation={conversation}&before=999999")),
        ("chat_thread", format!("conversation={conversation}")),
        ("send_message", format!("conversation={conversation}&client_id=carl-send-000006&text=ik+ook")),
        ("mark_chat_read", format!("conversation={conversation}&up_to=999999")),
        ("delete_chat", format!("conversation={conversation}")),
        ("chat_typing", format!("conversation={conversation}")),
    ] {
        let res = app.call(name, &body, &[("origin", &origin), ("cookie", &carl)]).await;
        assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()), "{name}");
    }
    // Sockets need a session and our origin.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("{}/ws", app.base.replace("http://", "ws://"));
    let mut no_origin = url.clone().into_client_request().unwrap();
    no_origin.headers_mut().insert("cookie", carl.parse().unwrap());
    assert!(tokio_tungstenite::connect_async(no_origin).await.is_err());
    let mut no_session = url.into_client_request().unwrap();
    no_session.headers_mut().insert("origin", origin.parse().unwrap());
    assert!(tokio_tungstenite::connect_async(no_session).await.is_err());

    // Deleting: gone from Anna's list at once; Bart keeps his.
    let res = app.call("delete_chat", &format!("conversation={conversation}"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, _, html) = app.get("/chats", &[("cookie", &anna)]).await;
    assert!(!html.contains(&format!("href=\"/chats/{conversation}\"")));
    let (_, _, html) = app.get("/chats", &[("cookie", &bart)]).await;
    assert!(html.contains(&format!("href=\"/chats/{conversation}\"")));
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}

/// The id in `/transactions/{id}`.
fn payment_id(location: &str) -> i64 {
    location.trim_start_matches("/transactions/").split(['?', '#']).next().unwrap().parse().unwrap()
}

#[tokio::test]
async fn buying_credits_through_the_test_provider_over_http() {
    let app = start_in("BE").await;
    let origin = app.origin();
    let anna = signed_up(&app, "anna@example.nl").await;
    let html = |path: &'static str, cookie: String| {
        let app = &app;
        async move { app.get(path, &[("cookie", &cookie), ("accept", "text/html")]).await }
    };

    // Visitors are sent to log in; members see the bundles with the time bonus applied.
    let (status, headers, _) = app.get("/credits", &[("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/login?return_to=/credits");
    let (status, _, page) = html("/credits", anna.clone()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Tijdbonus: 25% korting") && page.contains("€ 14,96") && page.contains("Normaal € 19,95") && page.contains("incl. 21% btw"), "{page}");
    // The time-bonus banner is in the member area, not on /credits.
    let (_, _, members) = html("/members", anna.clone()).await;
    assert!(members.contains(r#"data-testid="time-bonus""#) && (members.contains("04:00:00") || members.contains("03:59:")), "the banner with its countdown");
    // A code that does not exist, and one that does (40 % beats the bonus from 60 credits up).
    let (_, _, page) = html("/credits?code=nope", anna.clone()).await;
    assert!(page.contains("Code niet gevonden"));
    let (_, _, page) = html("/credits?code=vonk40", anna.clone()).await;
    assert!(page.contains("40% korting met code VONK40") && page.contains("€ 11,97"), "60 credits at 40 % off");

    let pack = app.state.payments.packs(app.state.sites.for_host(None).unwrap().settings.id, "BE").await.unwrap().into_iter().find(|p| p.credits == 60).unwrap().id;
    let (status, _, page) = app.get(&format!("/credits/{pack}/bancontact"), &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Betalen met Bancontact") && page.contains("PaymentMethodBlocks") && page.contains("<noscript>"), "a pay button, the blocks and the no-script buttons");

    // A method the country does not have is refused; the price never comes from the form.
    let res = app.form("start_checkout", &format!("pack={pack}&method=blik"), &format!("/credits/{pack}/blik"), &[("cookie", &anna), ("origin", &origin)]).await;
    assert_eq!(refusal(&res, "start_checkout").0.code, domain::ErrorCode::MethodUnavailable);
    let res = app.form("start_checkout", &format!("pack={pack}&method=bancontact&amount=1"), &format!("/credits/{pack}/bancontact"), &[("cookie", &anna), ("origin", &origin)]).await;
    assert!(res.status() == StatusCode::FOUND, "extra fields are ignored or refused, never used");
    // Cross-origin posts are refused before anything happens.
    let res = app.form("start_checkout", &format!("pack={pack}&method=bancontact"), "/credits", &[("cookie", &anna), ("origin", "https://evil.example")]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    let res = app.form("start_checkout", &format!("pack={pack}&method=bancontact"), &format!("/credits/{pack}/bancontact"), &[("cookie", &anna), ("origin", &origin)]).await;
    let checkout = location(&res);
    assert!(checkout.starts_with("/checkout/test/tst_"), "{checkout}");
    let (status, _, page) = app.get(&checkout, &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Testbetaling") && page.contains("€ 14,96") && page.contains(r#"value="paid""#));
    let id = checkout.trim_start_matches("/checkout/test/");
    let res = app.form("test_checkout_outcome", &format!("id={id}&outcome=paid"), &checkout, &[("origin", &origin)]).await;
    let result = location(&res);
    assert!(result.starts_with("/transactions/"), "{result}");
    // The result page settles the payment itself when the webhook has not come yet.
    let (status, _, page) = app.get(&result, &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Betaling gelukt!") && page.contains("60 credits zijn toegevoegd"), "{page}");
    let member = app.state.accounts.member(1).await.unwrap().unwrap();
    assert!(member.paid_user && member.credits >= 60);

    // The webhook: unknown ids and repeats answer 200 and change nothing; no cookie, no origin needed.
    for body in [format!("id={id}"), format!("id={id}"), "id=tst_unknown".to_string()] {
        let res = app.post_form("/webhooks/payments/test", &body, &[("origin", "https://api.provider.example")]).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app.post_form("/webhooks/payments/test", &"x".repeat(10_000), &[]).await;
    assert!(res.status().is_client_error(), "an oversized body");
    let payment = payment_id(&result);
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE reference = $1").bind(format!("payment:{payment}")).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(n, 1);
    assert!(mails(&app).iter().any(|m| m.contains("betaalbewijs")), "a receipt mail");

    // Paid members' credits link leads to the repeat order, which starts the same checkout.
    let (_, _, page) = html("/members", anna.clone()).await;
    assert!(page.contains(r#"href="/credits/repeat-order""#) && !page.contains(r#"data-testid="time-bonus""#), "premium: no time bonus");
    let res = app.form("repeat_order", "", "/credits/repeat-order", &[("cookie", &anna), ("origin", &origin)]).await;
    assert!(location(&res).starts_with("/checkout/test/tst_"));
    // While a payment is open its page asks again every 3 seconds (with or without JavaScript).
    let (open,): (i64,) = sqlx::query_as("SELECT MAX(id) FROM payments").fetch_one(app.state.db.pool()).await.unwrap();
    let (status, headers, page) = app.get(&format!("/transactions/{open}"), &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    let _ = headers;
    assert!(page.contains(r#"<noscript><meta http-equiv="refresh" content="3"></noscript>"#) && page.contains("PaymentWatcher"), "the island, and a refresh without JavaScript");
    assert!(page.contains(r#"data-status="open""#) && page.contains("Verder met betalen"));
    let (_, _, page) = app.get(&result, &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(!page.contains("http-equiv=\"refresh\"") && !page.contains("PaymentWatcher"), "a settled payment's page stays put");

    // Another member cannot see Anna's payment, nor learn that it exists.
    let bart = signed_up(&app, "bart@example.nl").await;
    let (status, _, page) = app.get(&result, &[("cookie", &bart), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("60 credits") && !page.contains("Bancontact"));
    let res = app.call("transaction", &format!("id={payment}"), &[("cookie", &bart), ("origin", &origin)]).await;
    assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()));
    let (_, _, page) = html("/transactions", bart.clone()).await;
    assert!(page.contains("Je hebt nog geen betalingen."));
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}

#[tokio::test]
async fn direct_debit_over_http_forms() {
    let app = start_in("BE").await;
    let origin = app.origin();
    let anna = signed_up(&app, "anna@example.nl").await;
    let pack = app.state.payments.packs(app.state.sites.for_host(None).unwrap().settings.id, "BE").await.unwrap().into_iter().find(|p| p.credits == 25).unwrap().id;
    let page = format!("/directdebit?pack={pack}");
    let (status, _, html) = app.get(&page, &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"name="iban""#) && html.contains(r#"name="phone""#));

    // A bad IBAN comes back with the Dutch text and what was typed.
    let res = app.form("start_direct_debit", &format!("pack={pack}&iban=NL00TEST0123456789&phone=0612345678"), &page, &[("cookie", &anna), ("origin", &origin)]).await;
    let (error, back) = refusal(&res, "start_direct_debit");
    assert_eq!(error.code, domain::ErrorCode::IbanInvalid);
    assert!(back.contains("iban=NL00TEST0123456789") && back.contains("phone=0612345678"), "{back}");
    let res = app.form("start_direct_debit", &format!("pack={pack}&iban=BE68+5390+0754+7034&phone=0470+12+34+56"), &page, &[("cookie", &anna), ("origin", &origin)]).await;
    let (to, html) = app.follow(&res, &anna).await;
    assert!(to.contains("&order="), "{to}");
    assert!(html.contains("We hebben een code gestuurd naar") && html.contains(r#"name="sms_code""#));
    let order: i64 = to.split("order=").nth(1).unwrap().split('&').next().unwrap().parse().unwrap();
    let sms_dir = app._dir.path().join("sms");
    let text = std::fs::read_dir(&sms_dir).unwrap().map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).next().unwrap();
    assert!(text.starts_with("To: +32470123456"), "{text}");
    let code: String = text.split("\n\n").nth(1).unwrap().chars().filter(|c| c.is_ascii_digit()).take(6).collect();
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let res = app.form("confirm_direct_debit", &format!("pack={pack}&order={order}&sms_code={wrong}"), &to, &[("cookie", &anna), ("origin", &origin)]).await;
    let (error, _) = refusal(&res, "confirm_direct_debit");
    assert_eq!(error.code, domain::ErrorCode::SmsCodeInvalid);
    let res = app.form("confirm_direct_debit", &format!("pack={pack}&order={order}&sms_code={code}"), &to, &[("cookie", &anna), ("origin", &origin)]).await;
    let (result, html) = app.follow(&res, &anna).await;
    assert!(result.starts_with("/transactions/") && html.contains("Betaling gelukt!"), "{result}");
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_blocked_member_is_logged_out_and_sent_to_the_ban_notice() {
    let app = start().await;
    let origin = app.origin();
    let anna = signed_up(&app, "anna@example.nl").await;
    let bart = signed_up(&app, "bart@example.nl").await;
    // Staff block them in the database; their sessions are still there.
    sqlx::query("UPDATE users SET status = 'blocked' WHERE email IN ('anna@example.nl', 'bart@example.nl')").execute(app.state.db.pool()).await.unwrap();

    let (status, headers, _) = app.get("/members", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/pages/ban");
    assert!(headers.get_all("set-cookie").iter().any(|v| v.to_str().unwrap().starts_with("auth.session=;")), "the cookie is cleared");
    // The session is gone: the same cookie is a visitor's now.
    let (_, _, html) = app.get("/pages/ban", &[("cookie", &anna)]).await;
    assert!(!html.contains(r#"data-testid="account-menu""#));
    // A call as the first request after the block is refused, and ends that session too.
    let res = app.call("set_invisible", "invisible=1", &[("cookie", &bart), ("origin", &origin)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "forbidden".to_string()));
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(n, 0);
}

#[tokio::test]
async fn members_answers_are_not_stored_and_https_sites_send_hsts() {
    let app = start().await;
    let anna = signed_up(&app, "anna@example.nl").await;
    let (_, headers, _) = app.get("/members", &[("cookie", &anna)]).await;
    assert_eq!(headers["cache-control"], "private, no-store");
    assert!(headers.get("strict-transport-security").is_none(), "no HSTS over plain http");
    let (_, headers, _) = app.get("/pages/faq", &[]).await;
    assert!(headers.get("cache-control").is_none_or(|v| !v.to_str().unwrap().contains("no-store")), "a visitor's public page may be cached");
    let res = app.call("transactions", "", &[("cookie", &anna), ("origin", &app.origin())]).await;
    assert_eq!(res.headers()["cache-control"], "private, no-store");

    let https = start_with(&[("VONK_SECURE_COOKIES", "true")]).await;
    let (_, headers, _) = https.get("/", &[]).await;
    assert_eq!(headers["strict-transport-security"], "max-age=31536000; includeSubDomains");
}

/// The authenticator app's code for a secret shown as groups of four.
fn app_code(grouped: &str, at: u64) -> String {
    let secret = totp_rs::Secret::try_from_base32(grouped.replace(' ', "")).unwrap().to_vec();
    totp_rs::Builder::new().with_secret(secret).build().unwrap().generate(at).to_string()
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

#[tokio::test]
async fn sessions_in_settings_and_two_step_login_over_http() {
    let app = start().await;
    let origin = app.origin();
    let laptop = signed_up(&app, "anna@example.nl").await;
    let login = app
        .form(
            "login",
            "email=anna%40example.nl&password=rode+kater+op+het+dak",
            "/login",
            &[
                ("origin", &origin),
                (
                    "user-agent",
                    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                ),
            ],
        )
        .await;
    let phone = format!("auth.session={}", cookie_value(&login, "auth.session").unwrap());
    let bob = signed_up(&app, "bob@example.nl").await;

    // Settings list both sessions, the current one first, with the phone's device.
    let (_, _, html) = app.get("/settings", &[("cookie", &laptop)]).await;
    assert_eq!(html.matches(r#"data-testid="session""#).count(), 2, "two sessions");
    assert!(html.contains("Dit apparaat, nu actief") && html.contains("Safari · iPhone"), "the list names devices");
    assert!(html.contains(r#"data-kind="login""#), "recent events show the login");
    let id_at = html.find(r#"name="session" value=""#).unwrap() + r#"name="session" value=""#.len();
    let phone_id = html[id_at..id_at + 16].to_string();
    // Bob cannot end it; Anna can.
    app.form("end_session", &format!("session={phone_id}"), "/settings", &[("origin", &origin), ("cookie", &bob)]).await;
    let (status, _, _) = app.get("/settings", &[("cookie", &phone), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK, "another member's id ends nothing");
    let res = app.form("end_session", &format!("session={phone_id}"), "/settings", &[("origin", &origin), ("cookie", &laptop)]).await;
    assert_eq!(res.headers()["location"], "/settings?saved=sessions#sessions");
    let (status, _, _) = app.get("/settings", &[("cookie", &phone), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::FOUND, "the phone is logged out");

    // Two-step login: set up (a post), the page shows the QR code, the key and the codes.
    let res = app.form("start_two_step", "", "/settings", &[("origin", &origin), ("cookie", &laptop)]).await;
    assert_eq!(res.headers()["location"], "/settings/two-step");
    let (_, html) = app.follow(&res, &laptop).await;
    assert!(html.contains("<svg") && html.contains(r#"data-testid="recovery-codes""#));
    let tag = html.find(r#"data-testid="two-step-secret""#).unwrap();
    let at = tag + html[tag..].find('>').unwrap() + 1;
    let secret = html[at..at + html[at..].find('<').unwrap()].to_string();
    let codes_at = html.find(r#"data-testid="recovery-codes""#).unwrap();
    assert!(!html.contains("<?xml"), "the QR code is inline SVG, without an XML prolog");
    let first_code = {
        let c = &html[codes_at..];
        let i = c.find("<code>").unwrap() + 6;
        c[i..i + 11].to_string()
    };
    let res =
        app.form("enable_two_step", "password=rode+kater+op+het+dak&code=000000", "/settings/two-step", &[("origin", &origin), ("cookie", &laptop)]).await;
    let (error, _) = refusal(&res, "enable_two_step");
    assert_eq!(error.code, domain::ErrorCode::TwoStepCodeInvalid);
    let (_, html) = app.follow(&res, &laptop).await;
    assert!(html.contains("Deze code klopt niet."));
    let code = app_code(&secret, now_secs());
    let res = app
        .form("enable_two_step", &format!("password=rode+kater+op+het+dak&code={code}"), "/settings/two-step", &[("origin", &origin), ("cookie", &laptop)])
        .await;
    assert_eq!(res.headers()["location"], "/settings?saved=two_step#two-step");

    // Now the password leads to the second step, not to a session.
    let res = app.form("login", "email=anna%40example.nl&password=rode+kater+op+het+dak&return_to=%2Fsettings", "/login", &[("origin", &origin)]).await;
    assert!(cookie_value(&res, "auth.session").is_none(), "no session after the password alone");
    assert_eq!(res.headers()["location"], "/login/two-step?return_to=/settings");
    let step = format!("vonk.two_step={}", cookie_value(&res, "vonk.two_step").expect("the step's cookie"));
    assert!(res
        .headers()
        .get_all("set-cookie")
        .iter()
        .any(|v| v.to_str().unwrap().starts_with("vonk.two_step=") && v.to_str().unwrap().contains("HttpOnly") && v.to_str().unwrap().contains("Max-Age=300")));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Code uit je app"));
    let res = app.form("second_step", "code=123456&return_to=%2Fsettings", "/login/two-step", &[("origin", &origin), ("cookie", &step)]).await;
    assert_eq!(refusal(&res, "second_step").0.code, domain::ErrorCode::TwoStepCodeInvalid);
    let res = app.form("second_step", &format!("code={first_code}&return_to=%2Fsettings"), "/login/two-step", &[("origin", &origin), ("cookie", &step)]).await;
    assert_eq!(res.headers()["location"], "/settings");
    let session = format!("auth.session={}", cookie_value(&res, "auth.session").expect("a session after the second step"));
    let (_, _, html) = app.get("/settings", &[("cookie", &session)]).await;
    assert!(html.contains(r#"data-testid="two-step-on""#) && html.contains("nog 9 herstelcodes"), "one recovery code used");
    assert!(html.contains(r#"data-kind="recovery_code_used""#) && html.contains(r#"data-kind="login_failed""#));
    // The step's cookie is spent.
    let res = app.form("second_step", &format!("code={first_code}"), "/login/two-step", &[("origin", &origin), ("cookie", &step)]).await;
    assert_eq!(refusal(&res, "second_step").0.code, domain::ErrorCode::LinkExpired);
}

#[tokio::test]
async fn a_session_in_use_renews_its_cookie() {
    let app = start().await;
    let cookie = signed_up(&app, "anna@example.nl").await;
    // Straight after login the cookie is fresh: nothing to renew.
    let (_, headers, _) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(headers.get_all("set-cookie").iter().all(|v| !v.to_str().unwrap().starts_with("auth.session=")));
    // Ten minutes later (the database says so) the same request renews it for 30 days.
    sqlx::query("UPDATE sessions SET last_seen_at = last_seen_at - 601").execute(app.state.db.pool()).await.unwrap();
    let (_, headers, _) = app.get("/settings", &[("cookie", &cookie)]).await;
    let renewed: Vec<&str> = headers.get_all("set-cookie").iter().map(|v| v.to_str().unwrap()).filter(|v| v.starts_with("auth.session=")).collect();
    assert_eq!(renewed.len(), 1, "{renewed:?}");
    assert!(renewed[0].starts_with(&format!("{cookie}; Path=/; Max-Age=2592000; SameSite=Lax; HttpOnly")), "{}", renewed[0]);
}

#[tokio::test]
async fn a_client_that_sends_its_headers_slowly_is_disconnected() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = start_with(&[("VONK_HEADER_TIMEOUT_SECS", "1")]).await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let mut slow = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let started = std::time::Instant::now();
    let mut buf = Vec::new();
    // The server ends the connection (an empty read, or a 408 and then the end).
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), slow.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "still connected after 10 s");
    let waited = started.elapsed();
    assert!(waited >= std::time::Duration::from_millis(900) && waited < std::time::Duration::from_secs(5), "{waited:?}");
    // Meanwhile and afterwards the site answers others.
    let (status, _, _) = app.get("/", &[]).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn operators_see_health_readiness_and_metrics_with_their_token() {
    let token = "scrape-token-0123456789";
    let app = start_with(&[("VONK_METRICS_TOKEN", token)]).await;
    let (status, headers, body) = app.get("/health", &[]).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "ok"));
    assert_eq!(headers["cache-control"], "no-store");
    let (status, _, body) = app.get("/ready", &[]).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "ready"));
    assert_eq!(app.get("/pages/terms", &[]).await.0, StatusCode::OK);
    assert_eq!(app.get("/members/999999999", &[]).await.0, StatusCode::NOT_FOUND);

    // Without the token, or with another, nothing is shown.
    assert_eq!(app.get("/metrics", &[]).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/metrics", &[("authorization", "Bearer scrape-token-0123456780")]).await.0, StatusCode::UNAUTHORIZED);
    let bearer = format!("Bearer {token}");
    let (status, headers, body) = app.get("/metrics", &[("authorization", &bearer)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/plain"));
    // Routes are patterns, not addresses: the profile id is not a label.
    for line in ["route=\"/pages/terms\",status=\"200\"", "route=\"/members/{id}\",status=\"404\"", "vonk_db_pool_connections{state=\"idle\"}", "vonk_http_request_duration_seconds_bucket{route=\"/pages/terms\",le=\"0.05\"}"] {
        assert!(body.contains(line), "{line} missing from:\n{body}");
    }
    assert!(!body.contains("/members/999999999"));
}

#[tokio::test]
async fn without_a_metrics_token_there_is_no_metrics_page_and_readiness_follows_the_database() {
    let app = start().await;
    assert_eq!(app.get("/metrics", &[("authorization", "Bearer anything-at-all-here")]).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/ready", &[]).await.0, StatusCode::OK);
    app.state.db.close().await;
    let (status, _, body) = app.get("/ready", &[]).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(!body.contains("closed"), "no internal error text: {body}");
    assert_eq!(app.get("/health", &[]).await.0, StatusCode::OK);
}

#[tokio::test]
async fn every_answer_carries_its_request_id() {
    let app = start().await;
    let id = |headers: &reqwest::header::HeaderMap| headers.get("x-request-id").expect("x-request-id").to_str().unwrap().to_string();
    let (_, first, _) = app.get("/", &[]).await;
    let (_, second, _) = app.get("/favicon.svg", &[]).await;
    assert!(!id(&first).is_empty());
    assert_ne!(id(&first), id(&second));
    // A proxy's id is kept when it looks like one, replaced when not.
    let (_, kept, _) = app.get("/pages/terms", &[("x-request-id", "lb-7f3a.42_x")]).await;
    assert_eq!(id(&kept), "lb-7f3a.42_x");
    let long = "a".repeat(65);
    let (_, replaced, _) = app.get("/pages/terms", &[("x-request-id", &long)]).await;
    assert_ne!(id(&replaced), long);
}

#[tokio::test]
async fn a_member_stores_a_push_subscription_for_the_session_and_the_page_offers_push() {
    let (private_key, public_key) = server::push::new_vapid_keys();
    let app = start_with(&[("VONK_VAPID_PRIVATE_KEY", private_key.as_str()), ("VONK_VAPID_SUBJECT", "mailto:support@vonk.example"), ("VONK_PUSH_SERVICES", "https://push.example")]).await;
    let origin = app.origin();
    let p256dh = "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY";
    let body = |endpoint: &str| format!("endpoint={}&p256dh={p256dh}&auth=_ordMnz7uTCmrpBTeUV4Bw", endpoint.replace(':', "%3A").replace('/', "%2F"));
    let count = || async {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM push_subscriptions").fetch_one(app.state.db.pool()).await.unwrap();
        n
    };

    // Visitors cannot store one.
    let res = app.call("save_push_subscription", &body("https://push.example/s/1"), &[("origin", &origin)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "authentication_required".into()));

    let cookie = signed_up(&app, "push@example.nl").await;
    // A service that is not listed, or a key that is not one, stores nothing.
    for bad in [body("https://evil.example/s/1"), body("http://127.0.0.1:6379/"), format!("endpoint=https%3A%2F%2Fpush.example%2Fs%2F1&p256dh=BAAA&auth=x")] {
        let res = app.call("save_push_subscription", &bad, &[("origin", &origin), ("cookie", &cookie)]).await;
        assert_eq!(json_code(res).await, (StatusCode::BAD_REQUEST, "bad_request".into()), "{bad}");
    }
    // From another site: refused before anything is read.
    let res = app.call("save_push_subscription", &body("https://push.example/s/1"), &[("origin", "https://evil.example"), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(count().await, 0);

    let res = app.call("save_push_subscription", &body("https://push.example/s/1"), &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    // Stored again (every page load of a subscribed browser does): still one.
    let res = app.call("save_push_subscription", &body("https://push.example/s/1"), &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(count().await, 1);

    // Member pages carry the alert, hidden until the browser has said where push stands, with
    // the key to subscribe with; while the profile photo alert shows, it waits its turn.
    let link = mail_link(&app, "/activate?token=");
    assert_eq!(app.press(&link, "activate").await.status(), StatusCode::FOUND);
    let basics = "from=complete&gender=female&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem";
    assert_eq!(app.form("save_basics", basics, "/complete-signup", &[("origin", &origin), ("cookie", &cookie)]).await.status(), StatusCode::FOUND);
    let (_, _, html) = app.get("/members", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="photo-alert""#) && !html.contains(r#"data-testid="push-alert""#), "one alert at a time");
    assert_eq!(app.call("dismiss_alert", "alert=profile_photo", &[("origin", &origin), ("cookie", &cookie)]).await.status(), StatusCode::OK);
    let (_, _, html) = app.get("/members", &[("cookie", &cookie)]).await;
    let alert = &html[html.find(r#"data-testid="push-alert""#).expect("the push alert") - 60..];
    assert!(alert[..200].contains("hidden"), "{}", &alert[..200]);
    assert!(html.contains(&public_key), "the island gets the public key");
    assert!(html.contains("Zet meldingen aan op dit apparaat."));

    // Logging out ends the session, and with it this browser's subscription.
    let res = app.form("logout", "", "/members", &[("origin", &origin), ("cookie", &cookie)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(count().await, 0);
}

#[tokio::test]
async fn the_app_manifest_is_the_sites() {
    let app = start().await;
    let (status, headers, body) = app.get("/manifest.webmanifest", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/manifest+json");
    let manifest: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!((manifest["name"].as_str(), manifest["display"].as_str(), manifest["start_url"].as_str()), (Some("Vonk"), Some("standalone"), Some("/members")));
    let sizes: Vec<&str> = manifest["icons"].as_array().unwrap().iter().map(|i| i["sizes"].as_str().unwrap()).collect();
    assert_eq!(sizes, vec!["any", "192x192", "512x512", "512x512"]);
    // The installed app's back button is on a member's profile, not on search.
    let (_, _, html) = app.get("/members", &[]).await;
    assert!(!html.contains("data-app-back"));
}

#[tokio::test]
async fn a_member_downloads_their_data_and_only_their_own() {
    let app = start_with(&[("VONK_RATE_LIMITS", "data_export=2/3600")]).await;
    // Visitors are sent to log in.
    let res = app.client.get(format!("{}/settings/data-export", app.base)).send().await.unwrap();
    assert_eq!((res.status(), location(&res)), (StatusCode::SEE_OTHER, "/login".to_string()));

    let anna = signed_up(&app, "anna@example.nl").await;
    let bob = signed_up(&app, "bob@example.nl").await;
    let (_, _, html) = app.get("/settings", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"href="/settings/data-export""#) && html.contains("Mijn gegevens downloaden"));
    let download = |cookie: String| {
        let (client, url) = (app.client.clone(), format!("{}/settings/data-export", app.base));
        async move { client.get(url).header("cookie", cookie).send().await.unwrap() }
    };
    let res = download(anna.clone()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/zip");
    assert!(res.headers()["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\"vonk-data-"));
    assert_eq!(res.headers()["cache-control"], "no-store");
    let bytes = res.bytes().await.unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut account = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("account.json").unwrap(), &mut account).unwrap();
    assert!(account.contains("anna@example.nl") && !account.contains("bob@example.nl"));

    // Bob's download is Bob's.
    let res = download(bob).await;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(res.bytes().await.unwrap().to_vec())).unwrap();
    let mut account = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("account.json").unwrap(), &mut account).unwrap();
    assert!(account.contains("bob@example.nl") && !account.contains("anna@example.nl"));

    // Each download reads every photo: a few an hour, then the settings page says why not.
    assert_eq!(download(anna.clone()).await.status(), StatusCode::OK);
    let res = download(anna.clone()).await;
    assert_eq!((res.status(), location(&res)), (StatusCode::SEE_OTHER, "/settings?export=too_many#data".to_string()));
    let (_, _, html) = app.get("/settings?export=too_many", &[("cookie", &anna)]).await;
    assert!(html.contains("Je hebt je gegevens net al een paar keer gedownload."));
}

#[tokio::test]
async fn landers_render_on_the_server_and_send_slugs_to_the_sites_prefix() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "60")]).await;
    // Half the members have no photo (new signups): the landers show those with one first.
    sqlx::query("UPDATE profiles SET main_photo = NULL, main_thumb = NULL WHERE user_id % 2 = 0").execute(app.state.db.pool()).await.unwrap();
    // Every design renders its headline, members and the way to signup before any script runs,
    // and hosts its widget.
    for (route, widget, headline) in [
        ("alonetonight", "AloneTonight", "Alleen vannacht?"),
        ("collagelanding", "CollageLanding", "Zoveel leuke mensen, één klik verwijderd"),
        ("gallery", "GalleryLanding", "Ontdek wie er bij jou in de buurt is"),
        ("iconslanding", "IconsLanding", "Daten zoals jij het wilt"),
        ("maplanding", "MapLanding", "Singles bij jou om de hoek"),
        ("socialnetwork", "SocialNetwork", "Wat er vandaag gebeurt"),
        ("transitionsvideolanding", "TransitionsVideo", "Jouw volgende date is al online"),
        ("video", "VideoLanding", "Zie wie er nu live is"),
        ("tinderswipe", "TinderSwipe", "Swipe, like, date"),
    ] {
        let (status, _, html) = app.get(&format!("/landers/{route}"), &[("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::OK, "{route}");
        assert!(html.contains(r#"data-testid="lander-fallback""#) && html.contains(&format!("<h1 class=\"lander-fallback__title\">{headline}</h1>")), "{route}");
        assert!(html.contains(&format!(r#"data-widget="{widget}""#)), "{route} hosts its widget");
        assert!(html.contains(r#"href="/signup" data-signup-link="""#), "{route} leads to signup");
        assert!(html.contains(r#"data-testid="lander-profile""#) && html.contains("/media/public/demo/female-"), "{route} shows members");
        assert!(!html.contains("portrait--empty"), "{route}: members with a photo come first");
        assert!(html.contains(r#"class="lander-header""#) && html.contains(r#"data-testid="signup-modal""#), "{route}: lander layout with the signup modal");
        assert!(!html.contains("topbar__signup"), "{route}: the small lander header, not the top bar");
    }
    // The title and description are in the head every time (they come from blocking data).
    for _ in 0..8 {
        let (_, _, html) = app.get("/landers/gallery", &[]).await;
        assert!(html.contains("<title>Ontdek wie er bij jou in de buurt is | Vonk</title>"), "{}", &html[..html.find("</head>").unwrap_or(0)]);
        assert!(html.contains(r#"<meta name="description" content="Echte profielen met foto’s."#));
    }
    // The video landers carry the clip when ffmpeg made it from the demo portraits.
    let clip = app.state.config.data_dir.join("media").join(server::landers::CLIP_PATH);
    let (_, _, html) = app.get("/landers/video", &[]).await;
    if clip.exists() {
        assert!(html.contains("/media/public/demo/lander-clip.webm"));
        let (status, headers, _) = app.get("/media/public/demo/lander-clip.webm", &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers.get("content-type").unwrap(), "video/webm");
    }
    let (_, _, html) = app.get("/landers/gallery", &[]).await;
    assert!(!html.contains("lander-clip.webm"), "only the video landers play it");
    // ?t=N reaches the widget for the like popup.
    let (_, _, html) = app.get("/landers/gallery?t=5", &[]).await;
    let at = html.find("like_after").expect("like_after in the props");
    assert!(html[at..at + 30].contains(":5"), "{}", &html[at..at + 30]);

    // Unknown designs, a slug on the swipe lander and malformed slugs are not found.
    for path in ["/landers/nope", "/landers/tinderswipe/she-amsterdam", "/landers/gallery/Amsterdam", "/landers/gallery/a--b", "/landers/gallery/a%20b"] {
        let (status, _, _) = app.get(path, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    // The demo site is niche 1 (no prefix): another niche's prefix goes, permanently, with the query.
    let (status, headers, _) = app.get("/landers/gallery/milf-amsterdam?network=n1&lb", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(headers.get("location").unwrap(), "/landers/gallery/amsterdam?network=n1&lb");
    let (status, headers, _) = app.get("/landers/video/she", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(headers.get("location").unwrap(), "/landers/video");
    let (status, _, _) = app.get("/landers/gallery/amsterdam", &[]).await;
    assert_eq!(status, StatusCode::OK);
    // On a niche-6 site the prefix is milf.
    sqlx::query("UPDATE sites SET niche = 6").execute(app.state.db.pool()).await.unwrap();
    app.state.sites.reload().await.unwrap();
    let (status, headers, _) = app.get("/landers/gallery/gay-amsterdam", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::MOVED_PERMANENTLY);
    assert_eq!(headers.get("location").unwrap(), "/landers/gallery/milf-amsterdam");
    let (status, _, _) = app.get("/landers/gallery/milf-amsterdam", &[]).await;
    assert_eq!(status, StatusCode::OK);

    // One profile up front: landing2 (gallery) and landing3 (social network).
    let (_, _, search) = app.get("/members?gender=female", &[]).await;
    let start = search.find("href=\"/members/").unwrap() + "href=\"/members/".len();
    let id: i64 = search[start..].split('"').next().unwrap().parse().unwrap();
    let (name,): (String,) = sqlx::query_as("SELECT name FROM profiles WHERE user_id = $1").bind(id).fetch_one(app.state.db.pool()).await.unwrap();
    for kind in ["landing2", "landing3"] {
        let (status, _, html) = app.get(&format!("/members/{id}/{kind}"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{kind}");
        for _ in 0..6 {
            let (_, _, html) = app.get(&format!("/members/{id}/{kind}"), &[]).await;
            assert!(html.contains(&format!("<title>{name} wil je leren kennen | Vonk</title>")), "{kind}: the title in the head");
        }
        assert!(html.contains(&format!("{name} wil je leren kennen")), "{kind} puts the member up front");
        assert!(html.contains(&format!(r#"href="/members/{id}/signup""#)), "{kind} leads to signup about them");
        let featured = &html[html.find("lander-fallback__featured").unwrap()..];
        assert!(featured[..featured.find("</a>").unwrap()].contains(r#"<img src="/media/public/demo/"#), "{kind}: the member's photo");
        let (status, headers, _) = app.get(&format!("/members/{id}/{kind}/she-utrecht"), &[("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::MOVED_PERMANENTLY);
        assert_eq!(headers.get("location").unwrap().to_str().unwrap(), format!("/members/{id}/{kind}/milf-utrecht"));
    }
    let (status, _, _) = app.get("/members/999999/landing2", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = app.get(&format!("/members/{id}/landing4"), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Building a router while another serves pages (the tests start dozens in one process) must not
/// leave a page waiting: route generation switches resource loading off process-wide while it
/// runs, so the routes are generated once per process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_render_while_another_router_is_built() {
    // Every page rendered (none from the visitor page cache).
    let app = start_with(&[("VONK_DEMO_MEMBERS", "20"), ("VONK_PAGE_CACHE_SECS", "0")]).await;
    let state = app.state.clone();
    let builder = tokio::task::spawn_blocking(move || {
        for _ in 0..40 {
            drop(app::ssr::router(state.clone(), app::ssr::leptos_options("127.0.0.1:0".parse().unwrap())));
        }
    });
    for path in ["/landers/gallery", "/members", "/landers/video", "/pages/faq"].iter().cycle().take(40) {
        let (status, _, html) = tokio::time::timeout(std::time::Duration::from_secs(10), app.get(path, &[])).await.unwrap_or_else(|_| panic!("{path} did not render"));
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(html.contains("</html>"), "{path}");
    }
    builder.await.unwrap();
}
