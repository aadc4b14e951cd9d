//! An attacker's round with the source open: markup in every address and field, malformed
//! bodies to every server function, the test payment provider, the multipart body limits,
//! redirects built from input, who is registered here, and the smaller holes. Each check runs
//! on a site with default settings and on one served as over https (`VONK_SECURE_COOKIES`).

use super::*;

/// What an attacker puts in every parameter: it ends a textarea and opens an element.
const MARKUP: &str = "</textarea><b id=x>";

/// The two sites every check runs on.
async fn both_sites() -> Vec<(&'static str, TestApp)> {
    vec![("default settings", start().await), ("secure cookies", start_with(&[("VONK_SECURE_COOKIES", "true"), ("VONK_ALLOW_TEST_PAYMENTS", "true")]).await)]
}

/// A page's markup without its scripts (serialised data in a script is not markup).
fn without_scripts(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</script>") {
            Some(end) => rest = &rest[start + end + "</script>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Every name a page reads from its address: the `.get("…")` calls of the app's source (a few
/// more names than are query parameters does no harm), and the search filters and SPEC §2's
/// tracking parameters, which are read as a whole.
fn query_names() -> Vec<String> {
    fn walk(dir: &std::path::Path, names: &mut std::collections::BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, names);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                for (i, _) in source.match_indices(".get(\"") {
                    let start = i + ".get(\"".len();
                    let name: String = source[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if !name.is_empty() && source[start + name.len()..].starts_with("\")") {
                        names.insert(name);
                    }
                }
            }
        }
    }
    let mut names = std::collections::BTreeSet::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut names);
    for extra in [
        "gender",
        "country",
        "countryregion",
        "region",
        "min_age",
        "max_age",
        "page",
        "t",
        "lb",
        "api_signup_complete",
        "network",
        "ref",
        "sub1",
        "sub2",
        "sub3",
        "q",
        "status",
    ] {
        names.insert(extra.to_string());
    }
    names.into_iter().collect()
}

/// `pattern` (`/members/{id}`) with every parameter set to `value`.
fn fill(pattern: &str, value: &str) -> String {
    pattern.split('/').map(|segment| if segment.starts_with('{') { value } else { segment }).collect::<Vec<_>>().join("/")
}

async fn staff_and_operator(app: &TestApp, email: &str) -> String {
    let cookie = ready_member(app, email, "male").await;
    grant_staff(app, email, domain::staff::StaffRole::Admin).await;
    grant_staff(app, email, domain::staff::StaffRole::Operator).await;
    cookie
}

#[tokio::test]
async fn no_page_puts_markup_from_its_address_or_its_fields_on_the_page() {
    let names = query_names();
    assert!(names.iter().any(|n| n == "text") && names.iter().any(|n| n == "code"), "{names:?}");
    let encoded = domain::account::percent_encode(MARKUP);
    let query: String = names.iter().map(|n| format!("{n}={encoded}")).collect::<Vec<_>>().join("&");
    let paths = app::ssr::page_paths();
    assert!(paths.len() > 60 && paths.iter().any(|p| p == "/complaints") && paths.iter().any(|p| p == "/chats/{id}"), "{paths:?}");
    for (site, app) in both_sites().await {
        let origin = app.origin();
        let anna = ready_member(&app, "anna@example.nl", "female").await;
        let staff = staff_and_operator(&app, "staff@example.nl").await;
        // Fields a member and staff fill in, shown back in textareas.
        let res = app.form("save_details", &format!("about={encoded}"), "/profile", &[("origin", &origin), ("cookie", &anna)]).await;
        assert_eq!(location(&res), "/profile?saved=profile", "{site}");
        let texts = format!(
            "name=Vonk&index_title=Daten&description={encoded}&support_email=support%40vonk.nl&support_phone=020-1234567&mail_name=Vonk&fictional_singular=model&fictional_plural=modellen"
        );
        let res = app.form("staff_site_texts", &texts, "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
        assert!(!location(&res).contains("__err"), "{site}: {}", location(&res));
        let (_, _, profile) = app.get("/profile", &[("cookie", &anna)]).await;
        assert!(profile.contains("&lt;/textarea&gt;&lt;b id=x&gt;"), "{site}: the about text is on the page, as text");

        let mut visited = 0;
        for path in &paths {
            for value in ["1", encoded.as_str()] {
                let address = format!("{}?{query}", fill(path, value));
                for (who, cookie) in [("visitor", ""), ("member", anna.as_str()), ("staff", staff.as_str())] {
                    let (status, _, html) = app.get(&address, &[("cookie", cookie), ("accept", "text/html")]).await;
                    assert!(status.as_u16() < 500, "{site}, {who}: {address} answered {status}");
                    let markup = without_scripts(&html);
                    assert!(
                        !markup.contains("<b id=x>"),
                        "{site}, {who}: {address} has live markup from its input:\n{}",
                        &markup[markup.find("<b id=x>").unwrap().saturating_sub(300)..]
                    );
                    visited += 1;
                }
            }
        }
        assert!(visited > 360, "{visited}");
    }
}

#[test]
fn every_textarea_is_the_escaping_component() {
    fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("forms.rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                if source.contains("<textarea") {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(found.is_empty(), "a textarea written by hand (use forms::TextArea): {found:?}");
}

/// Bodies no browser sends, each with its content type.
fn malformed_bodies() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("application/x-www-form-urlencoded", b"%%%zz=&&==&a[=1&ids%5B=x".to_vec()),
        ("application/x-www-form-urlencoded", b"id=\xff\xfe&text=\xc3".to_vec()),
        ("application/x-www-form-urlencoded", b"id=99999999999999999999999&pack=-1&page=abc&conversation=1e9&amount=NaN".to_vec()),
        ("application/json", b"{not json".to_vec()),
        ("application/json", b"[1,2,3]".to_vec()),
        ("multipart/form-data", b"--x\r\nContent-Disposition: form-data; name=\"photo\"\r\n\r\nabc\r\n--x--\r\n".to_vec()),
        ("multipart/form-data; boundary=", b"--\r\n".to_vec()),
        ("multipart/form-data; boundary=zz", b"--zz\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\nabc".to_vec()),
        ("text/plain", b"hello".to_vec()),
        ("", Vec::new()),
    ]
}

#[tokio::test]
async fn malformed_bodies_and_headers_to_every_server_function_get_no_5xx() {
    let functions: Vec<(String, http::Method)> = leptos::server_fn::axum::server_fn_paths().map(|(path, method)| (path.to_string(), method)).collect();
    assert!(functions.len() > 80 && functions.iter().any(|(p, _)| p == "/api/fn/upload_photo"), "{}", functions.len());
    for (site, app) in both_sites().await {
        let origin = app.origin();
        let member = ready_member(&app, "anna@example.nl", "female").await;
        let referer = format!("{}/profile?x=%0d%0a", app.base);
        let mut failures = Vec::new();
        for (path, method) in &functions {
            if path.ends_with("/logout") {
                continue;
            }
            for cookie in ["", member.as_str()] {
                if *method == http::Method::GET {
                    let res = app.client.get(format!("{}{path}?%%%=&id=zz&a[=\u{1}", app.base)).header("cookie", cookie).send().await.unwrap();
                    if res.status().is_server_error() {
                        failures.push(format!("GET {path}: {}", res.status()));
                    }
                    continue;
                }
                for (content_type, body) in malformed_bodies() {
                    for accept in ["application/json", "text/html"] {
                        let mut req = app
                            .client
                            .post(format!("{}{path}", app.base))
                            .header("origin", &origin)
                            .header("cookie", cookie)
                            .header("accept", accept)
                            .header("referer", &referer)
                            .body(body.clone());
                        if !content_type.is_empty() {
                            req = req.header("content-type", content_type);
                        }
                        let res = req.send().await.unwrap();
                        let status = res.status();
                        let text = res.text().await.unwrap_or_default();
                        if status.is_server_error() || text.contains("panicked") || text.contains("backtrace") {
                            failures.push(format!(
                                "{path} ({content_type}, {accept}, {}): {status} {}",
                                if cookie.is_empty() { "visitor" } else { "member" },
                                &text[..text.len().min(120)]
                            ));
                        }
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{site}: {} answers of 5xx:\n{}", failures.len(), failures.join("\n"));
    }
}

#[tokio::test]
async fn a_multipart_post_without_a_boundary_is_refused_with_the_translated_error() {
    for (site, app) in both_sites().await {
        let member = ready_member(&app, "anna@example.nl", "female").await;
        for name in ["upload_photo", "send_chat_photo", "staff_site_logo"] {
            // Before any login check, for a script and for a browser's form.
            for cookie in ["", member.as_str()] {
                let res = post_fn(&app, name, &[("cookie", cookie), ("accept", "application/json"), ("content-type", "multipart/form-data")], "--x\r\n\r\n")
                    .await
                    .unwrap();
                assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{site}: {name}");
                assert_eq!(res.text().await.unwrap(), r#"{"code":"bad_request"}"#);
            }
            // A browser's form comes back to its page, which says it in Dutch.
            for content_type in ["multipart/form-data; charset=utf-8", "application/x-www-form-urlencoded"] {
                let referer = format!("{}/profile", app.base);
                let headers = [("cookie", member.as_str()), ("accept", "text/html"), ("referer", referer.as_str()), ("content-type", content_type)];
                let res = post_fn(&app, name, &headers, "--x\r\n\r\n").await.unwrap();
                let (error, page) = refusal(&res, name);
                assert_eq!((error.code, page.as_str()), (domain::ErrorCode::BadRequest, "/profile"), "{site}: {name}, {content_type}");
                if name == "upload_photo" {
                    let (_, html) = app.follow(&res, &member).await;
                    assert!(
                        html.contains(r#"data-code="bad_request""#) && html.contains("Er is een fout opgetreden, probeer het later opnieuw."),
                        "{site}: the page says it in Dutch"
                    );
                }
            }
        }
    }
}

/// A POST to the server function `name` with exactly these headers (and the site's origin).
async fn post_fn(app: &TestApp, name: &str, headers: &[(&str, &str)], body: impl Into<reqwest::Body>) -> reqwest::Result<reqwest::Response> {
    let mut req = app.client.post(format!("{}/api/fn/{name}", app.base)).header("origin", app.origin());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.body(body).send().await
}

/// A multipart body of `fields` small text fields (and no file), as a script could send it.
fn many_fields(fields: usize) -> (String, Vec<u8>) {
    let boundary = "----vonk-fields-7MA4YWxk".to_string();
    let mut body = Vec::new();
    for i in 0..fields {
        body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"f{i}\"\r\n\r\nwaarde\r\n").as_bytes());
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (boundary, body)
}

#[tokio::test]
async fn multipart_bodies_are_bounded_in_size_and_fields() {
    for (site, app) in both_sites().await {
        let member = ready_member(&app, "anna@example.nl", "female").await;
        let post = |content_type: String, body: Vec<u8>| {
            let (app, member) = (&app, member.clone());
            async move {
                post_fn(app, "upload_photo", &[("cookie", member.as_str()), ("accept", "application/json"), ("content-type", content_type.as_str())], body)
                    .await
            }
        };
        // Many small fields: refused at the first one too many.
        let (boundary, body) = many_fields(200);
        let res = post(format!("multipart/form-data; boundary={boundary}"), body).await.unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{site}");
        // A body that says it is larger than any upload may be: refused unread, with the
        // upload's own translated refusal.
        let headers = [
            ("cookie", member.as_str()),
            ("accept", "application/json"),
            ("content-type", "multipart/form-data; boundary=zz"),
            ("content-length", "500000000"),
        ];
        let res = post_fn(&app, "upload_photo", &headers, vec![b'x'; 64]).await;
        // The client may see the connection end before it could send its 500 MB: either way
        // nothing was read and nothing crashed.
        if let Ok(res) = res {
            assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE, "{site}");
            assert!(res.text().await.unwrap().contains(r#""code":"photo_too_large""#));
        }
        // A body of small fields larger than the limit, streamed without a length.
        let (boundary, body) = many_fields(8);
        let mut big = body[..body.len() - format!("--{boundary}--\r\n").len()].to_vec();
        big.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\n").as_bytes());
        big.extend(std::iter::repeat_n(b'p', app.state.config.photo_max_bytes + 200_000));
        let res = post(format!("multipart/form-data; boundary={boundary}"), big).await.unwrap();
        assert!(res.status().is_client_error(), "{site}: {}", res.status());
        let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM photos").fetch_one(app.state.db.pool()).await.unwrap();
        assert_eq!(rows, 0, "{site}: nothing stored");
    }
}

#[tokio::test]
async fn input_in_a_redirect_is_encoded_and_never_breaks_the_answer() {
    for (site, app) in both_sites().await {
        let origin = app.origin();
        let member = ready_member(&app, "anna@example.nl", "female").await;
        let pack = app.state.payments.packs(app.state.sites.for_host(None).unwrap().id, "NL").await.unwrap()[0].id;
        // A control character and a parameter of its own in the discount code of the
        // direct-debit choice.
        let res = app
            .form(
                "start_checkout",
                &format!("pack={pack}&method=direct_debit&code=A%01B%0D%0ASet-Cookie%3A+x%3D1%26pack%3D999"),
                &format!("/credits/{pack}"),
                &[("origin", &origin), ("cookie", &member)],
            )
            .await;
        assert_eq!(res.status(), StatusCode::FOUND, "{site}");
        assert!(res.headers().get("set-cookie").is_none(), "{site}: no header from the input");
        let to = location(&res);
        assert_eq!(to, format!("/directdebit?pack={pack}&code=A%01B%0D%0ASet-Cookie%3A%20x%3D1%26pack%3D999"), "{site}");
        let (status, _, _) = app.get(&to, &[("cookie", &member)]).await;
        assert!(status.as_u16() < 500, "{site}: {status}");
        // A lander slug with a line break is sent on without one.
        let (status, headers, _) = app.get("/landers/gallery/she-a%0D%0Ab", &[]).await;
        assert!(status.as_u16() < 500, "{site}: {status}");
        if let Some(to) = headers.get("location") {
            assert!(!to.to_str().unwrap().contains('\n'), "{site}");
        }
    }
}

#[tokio::test]
async fn the_test_provider_pays_only_for_its_own_buyer() {
    for (site, app) in both_sites().await {
        let origin = app.origin();
        let anna = ready_member(&app, "anna@example.nl", "female").await;
        let bart = ready_member(&app, "bart@example.nl", "male").await;
        let pack = app.state.payments.packs(app.state.sites.for_host(None).unwrap().id, "NL").await.unwrap()[0].id;
        let res =
            app.form("start_checkout", &format!("pack={pack}&method=ideal"), &format!("/credits/{pack}"), &[("origin", &origin), ("cookie", &anna)]).await;
        let checkout = location(&res);
        assert!(checkout.starts_with("/checkout/test/tst_"), "{site}: {checkout}");
        let id = checkout.trim_start_matches("/checkout/test/").to_string();

        // A visitor holding the address is sent to log in; another member finds nothing.
        let (status, headers, _) = app.get(&checkout, &[("accept", "text/html")]).await;
        assert!(status.is_redirection() && headers["location"].to_str().unwrap().starts_with("/login?return_to=/checkout/test/"), "{site}: {status}");
        let (status, _, html) = app.get(&checkout, &[("cookie", &bart)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{site}");
        assert!(!html.contains("testpay-amount"));
        for cookie in ["", bart.as_str()] {
            let res = app.call("test_checkout_outcome", &format!("id={id}&outcome=paid"), &[("origin", &origin), ("cookie", cookie)]).await;
            assert!(res.status().is_client_error(), "{site}: {}", res.status());
            let res = app.call("test_checkout", &format!("id={id}"), &[("origin", &origin), ("cookie", cookie)]).await;
            assert!(res.status().is_client_error(), "{site}: {}", res.status());
        }
        let (status,): (String,) = sqlx::query_as("SELECT status FROM test_checkouts WHERE id = $1").bind(&id).fetch_one(app.state.db.pool()).await.unwrap();
        assert_eq!(status, "open", "{site}: nobody else moved it");
        // The buyer can.
        let (status, _, html) = app.get(&checkout, &[("cookie", &anna)]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(html.contains("testpay-amount"));
        let res = app.form("test_checkout_outcome", &format!("id={id}&outcome=paid"), &checkout, &[("origin", &origin), ("cookie", &anna)]).await;
        assert!(location(&res).contains("/transactions/"), "{site}");
    }
}

#[tokio::test]
async fn the_test_provider_is_refused_on_an_https_site_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let base: Vec<(&str, String)> = vec![("DATA_DIR", dir.path().display().to_string()), ("VONK_DEMO_MEMBERS", "0".into())];
    let config = |extra: &[(&'static str, &str)]| {
        let mut vars: HashMap<&str, String> = base.iter().cloned().collect();
        vars.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
        server::Config::from_lookup(|k| vars.get(k).cloned())
    };
    assert!(config(&[]).is_err(), "the provider is an explicit choice");
    assert!(config(&[("VONK_PAYMENTS", "test")]).is_ok());
    assert!(config(&[("VONK_PAYMENTS", "test"), ("VONK_SECURE_COOKIES", "true")]).is_err());
    assert!(config(&[("VONK_PAYMENTS", "test"), ("VONK_PUBLIC_URL", "https://vonk.nl")]).is_err());
    assert!(config(&[("VONK_PAYMENTS", "test"), ("VONK_SECURE_COOKIES", "true"), ("VONK_ALLOW_TEST_PAYMENTS", "true")]).is_ok());
    assert!(config(&[("VONK_PAYMENTS", "mollie"), ("MOLLIE_API_KEY", "live_abcdef"), ("VONK_SECURE_COOKIES", "true")]).is_ok());
}

#[tokio::test]
async fn nobody_learns_who_is_registered_from_reset_or_login() {
    for (site, app) in both_sites().await {
        let origin = app.origin();
        ready_member(&app, "anna@example.nl", "female").await;
        // Reset: the same answer.
        for email in ["anna%40example.nl", "nobody%40example.nl"] {
            let res = app.form("request_password_reset", &format!("email={email}"), "/reset-password", &[("origin", &origin)]).await;
            assert_eq!(location(&res), "/reset-password?sent=1", "{site}: {email}");
        }
        // Login: the same answers, the fifth wrong password locking both.
        for email in ["anna%40example.nl", "nobody%40example.nl"] {
            let mut codes = Vec::new();
            for _ in 0..6 {
                let res = app.form("login", &format!("email={email}&password=fout"), "/login", &[("origin", &origin)]).await;
                let (error, _) = refusal(&res, "login");
                codes.push((error.code, error.arg_i64("minutes")));
            }
            let failed = (domain::ErrorCode::LoginFailed, None);
            let locked = (domain::ErrorCode::TooManyAttempts, Some(15));
            assert_eq!(codes, vec![failed, failed, failed, failed, locked, locked], "{site}: {email}");
        }
    }
}

#[tokio::test]
async fn a_locked_account_takes_as_long_to_answer_as_an_open_one() {
    let app = start_with(&[("VONK_RATE_LIMITS", "login=100/60")]).await;
    let origin = app.origin();
    ready_member(&app, "anna@example.nl", "female").await;
    ready_member(&app, "bart@example.nl", "male").await;
    let time = |email: &'static str| {
        let app = &app;
        let origin = origin.clone();
        async move {
            let started = std::time::Instant::now();
            let res = app.form("login", &format!("email={email}&password=fout"), "/login", &[("origin", &origin)]).await;
            (started.elapsed(), refusal(&res, "login").0.code)
        }
    };
    for _ in 0..5 {
        time("bart%40example.nl").await;
    }
    let median = |mut v: Vec<std::time::Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (mut open, mut locked) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        // Anna's count starts again at each lock's end: three wrong guesses stay under it.
        let (t, code) = time("anna%40example.nl").await;
        assert_eq!(code, domain::ErrorCode::LoginFailed);
        open.push(t);
        let (t, code) = time("bart%40example.nl").await;
        assert_eq!(code, domain::ErrorCode::TooManyAttempts);
        locked.push(t);
    }
    let (open, locked) = (median(open), median(locked));
    eprintln!("login answer: open account {open:?}, locked account {locked:?}");
    // The password check (tens of milliseconds of argon2id) runs for both.
    assert!(locked * 2 > open, "a locked account answered in {locked:?}, an open one in {open:?}");
}

#[tokio::test]
async fn the_operator_console_is_not_found_for_members_and_the_data_export_is_a_post() {
    for (site, app) in both_sites().await {
        let origin = app.origin();
        let anna = ready_member(&app, "anna@example.nl", "female").await;
        let (status, _, _) = app.get("/staff/chats", &[("cookie", &anna)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{site}: as every other staff page");
        let (status, _, _) = app.get("/staff", &[("cookie", &anna)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let operator = staff_and_operator(&app, "olga@example.nl").await;
        let (status, _, html) = app.get("/staff/chats", &[("cookie", &operator)]).await;
        assert_eq!(status, StatusCode::OK, "{site}");
        assert!(!html.contains("profile-not-found"));

        // A link or an image on another site is a GET: it exports nothing.
        let res = app.client.get(format!("{}/settings/data-export", app.base)).header("cookie", &anna).send().await.unwrap();
        assert_eq!((res.status(), location(&res)), (StatusCode::SEE_OTHER, "/settings#data".to_string()), "{site}");
        // Another site's form post is refused.
        let res = app
            .client
            .post(format!("{}/settings/data-export", app.base))
            .header("cookie", &anna)
            .header("origin", "https://evil.example")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{site}");
        let res =
            app.client.post(format!("{}/settings/data-export", app.base)).header("cookie", &anna).header("sec-fetch-site", "cross-site").send().await.unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{site}");
        // The settings page's own form.
        let (_, _, settings) = app.get("/settings", &[("cookie", &anna)]).await;
        assert!(settings.contains(r#"<form method="post" action="/settings/data-export">"#), "{site}");
        let res = app.client.post(format!("{}/settings/data-export", app.base)).header("cookie", &anna).header("origin", &origin).send().await.unwrap();
        assert_eq!((res.status(), res.headers()["content-type"].to_str().unwrap()), (StatusCode::OK, "application/zip"), "{site}");
    }
}
