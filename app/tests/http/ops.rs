//! Operations: health, readiness, metrics, request ids, slow clients, the mail provider's reports.

use super::*;

#[tokio::test]
async fn mail_provider_reports_need_the_shared_secret() {
    let off = start().await;
    let res = off
        .client
        .post(format!("{}/api/mail-events", off.base))
        .header("content-type", "application/json")
        .body(serde_json::json!({"event": "bounce", "email": "anna@example.nl"}).to_string())
        .send()
        .await
        .unwrap();
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
    let res = app
        .client
        .post(&url)
        .bearer_auth(secret)
        .header("content-type", "application/json")
        .body(serde_json::json!({"event": "party", "email": "anna@example.nl"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST, "an unknown event");
    assert_eq!(res.text().await.unwrap(), r#"{"code":"bad_request"}"#);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#), "an unknown event changes nothing");
    let res = app
        .client
        .post(&url)
        .bearer_auth(secret)
        .header("sec-fetch-site", "cross-site")
        .header("content-type", "application/json")
        .body(report.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), r#"{"accounts":1}"#);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="notifications-alert""#) && html.contains("niet aankwamen"));
}

#[tokio::test]
async fn amazon_ses_reports_through_sns_with_basic_authentication() {
    let secret = "a-shared-secret-of-enough-length";
    let app = start_with(&[("VONK_MAIL_EVENTS_SECRET", secret)]).await;
    let cookie = signed_up(&app, "carla@example.nl").await;
    let url = format!("{}/api/mail-events", app.base);
    let post = |body: String, password: &'static str| {
        let (client, url) = (app.client.clone(), url.clone());
        async move { client.post(&url).basic_auth("sns", Some(password)).header("content-type", "text/plain; charset=UTF-8").body(body).send().await.unwrap() }
    };
    // SNS first asks to confirm its subscription: answered, nothing fetched, nothing changed.
    let confirm = serde_json::json!({"Type": "SubscriptionConfirmation", "SubscribeURL": "http://127.0.0.1:9/confirm"});
    let res = post(confirm.to_string(), secret).await;
    assert_eq!(res.status(), StatusCode::OK);
    let complaint = serde_json::json!({"notificationType": "Complaint", "complaint": {"complainedRecipients": [{"emailAddress": "Carla@example.nl"}]}});
    let envelope = serde_json::json!({"Type": "Notification", "Message": complaint.to_string()});
    let res = post(envelope.to_string(), "wrong").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#));
    // A transient bounce is not a dead address.
    let transient =
        serde_json::json!({"eventType": "Bounce", "bounce": {"bounceType": "Transient", "bouncedRecipients": [{"emailAddress": "carla@example.nl"}]}});
    let res = post(transient.to_string(), secret).await;
    assert_eq!(res.text().await.unwrap(), r#"{"accounts":0}"#);
    let res = post(envelope.to_string(), secret).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.unwrap(), r#"{"accounts":1}"#);
    let (_, _, html) = app.get("/", &[("cookie", &cookie)]).await;
    assert!(html.contains(r#"data-testid="notifications-alert""#), "the complaint stopped the mails");
    // Not JSON at all: refused, no 5xx.
    let res = post("<xml/>".into(), secret).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
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
    for line in [
        "route=\"/pages/terms\",status=\"200\"",
        "route=\"/members/{id}\",status=\"404\"",
        "vonk_db_pool_connections{state=\"idle\"}",
        "vonk_http_request_duration_seconds_bucket{route=\"/pages/terms\",le=\"0.05\"}",
    ] {
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

/// `make dev`'s live reload: only with `VONK_DEV_RELOAD` do pages carry the listening script
/// (with the page's nonce) and does `/__dev/reload` name the server's start, the same on every
/// connection to one server (a restarted server names another: that makes open pages reload).
#[tokio::test]
async fn live_reload_only_in_the_edit_loop() {
    let off = start().await;
    let (_, _, html) = off.get("/", &[]).await;
    assert!(!html.contains("/__dev/reload"));
    let (status, _, _) = off.get("/__dev/reload", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let on = start_with(&[("VONK_DEV_RELOAD", "true")]).await;
    let (_, headers, html) = on.get("/", &[]).await;
    let nonce = csp_nonce(&headers);
    let script = html.find("/__dev/reload").expect("the listening script");
    assert!(html[..script].rfind("<script").is_some_and(|at| html[at..script].contains(&format!("nonce=\"{nonce}\""))), "it carries the page's nonce");
    let first_start = async |app: &TestApp| {
        let mut events = app.client.get(format!("{}/__dev/reload", app.base)).send().await.unwrap();
        assert_eq!(events.headers()["content-type"], "text/event-stream");
        let mut seen = String::new();
        while !seen.contains("data: ") || !seen[seen.find("data: ").unwrap()..].contains('\n') {
            seen.push_str(&String::from_utf8_lossy(&events.chunk().await.unwrap().expect("an event")));
        }
        let line = &seen[seen.find("data: ").unwrap() + "data: ".len()..];
        line[..line.find('\n').unwrap()].to_string()
    };
    let started = first_start(&on).await;
    assert!(started.parse::<u128>().is_ok(), "{started}");
    assert_eq!(first_start(&on).await, started, "the same server, the same start");

    // A stopping server ends the streams (its graceful shutdown waits for open responses: an
    // open tab would otherwise keep it from ever stopping).
    let mut events = on.client.get(format!("{}/__dev/reload", on.base)).send().await.unwrap();
    assert!(events.chunk().await.unwrap().is_some(), "the first event");
    server::http::dev_reload::stop();
    while let Some(chunk) = tokio::time::timeout(std::time::Duration::from_secs(10), events.chunk()).await.expect("the stream ends").unwrap() {
        assert!(!chunk.is_empty());
    }
}
