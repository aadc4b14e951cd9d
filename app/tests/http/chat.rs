//! Chat: forms, calls, the socket and chat photos.

use super::*;

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
    assert!(
        html.contains(r#"data-testid="chat-fallback""#) && html.contains(r#"action="/api/fn/send_message""#) && html.contains(r#"data-widget="ChatPanel""#)
    );
    // A new conversation says so before the panel runs (and without JavaScript); once there are
    // messages, they show instead.
    assert!(html.contains(r#"<p class="chat-fallback__empty">Nog geen berichten. Zeg hallo tegen Anna!</p>"#), "{html}");

    // A plain form post sends and comes back to the conversation; the same client id twice stores one message.
    let body = format!("member={bart_id}&client_id=form-send-000001&text=Hoi+Bart%2C+zin+in+koffie%3F");
    let res = app.form("send_message", &body, &page, &[("origin", &origin), ("cookie", &anna)]).await;
    let (to, html) = app.follow(&res, &anna).await;
    assert!(to.starts_with("/chats/"), "{to}");
    assert!(html.contains("Hoi Bart, zin in koffie?"));
    assert!(!html.contains("chat-fallback__empty"));
    let conversation = conversation_id(&html);
    let again = app.form("send_message", &body, &page, &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(location(&again).split('#').next(), to.split('#').next());
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(n, 1);
    // Too long: back to the page with the Dutch text and what was typed.
    let long = "x".repeat(2001);
    let res = app
        .form(
            "send_message",
            &format!("conversation={conversation}&client_id=form-send-000002&text={long}"),
            &format!("/chats/{conversation}"),
            &[("origin", &origin), ("cookie", &anna)],
        )
        .await;
    let (error, _) = refusal(&res, "send_message");
    assert_eq!(error.code, domain::ErrorCode::MessageTooLong);
    // Cross-origin: refused.
    let res = app.form("send_message", &body.replace("000001", "000003"), &page, &[("origin", "https://evil.example"), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    // Bart's socket gets Anna's next message live; Carl's gets nothing.
    let mut barts = socket(&app, &bart, 0).await;
    assert!(next_push(&mut barts, "message", std::time::Duration::from_secs(2)).await.is_some(), "the backlog since 0");
    let mut carls = socket(&app, &carl, 0).await;
    let res = app
        .call("send_message", &format!("conversation={conversation}&client_id=json-send-000004&text=Ben+je+er%3F"), &[("origin", &origin), ("cookie", &anna)])
        .await;
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
    let res = app.chat_photo(&anna, &[("client_id", "photo-send-000005".to_string()), ("conversation", conversation.to_string())], &png(60, 40)).await;
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

/// Contact details: masked for the recipient (the sender's answer says so), refused with the
/// Dutch reason and the typed text kept once staff refuse them, through the staff form.
#[tokio::test]
async fn contact_details_are_masked_then_refused_after_staff_change_the_rule() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let (bart_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'bart@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();

    let res = app
        .call(
            "send_message",
            &format!("member={bart_id}&client_id=contact-send-0001&text=Mijn+nummer%3A+06-1234+5678+%3Cb%3Ebel%3C%2Fb%3E"),
            &[("origin", &origin), ("cookie", &anna)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let sent: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(sent["notice"], "Verstuurd. Contactgegevens in je bericht zijn verborgen (•••).", "the sender is told, in words");
    assert_eq!(sent["message"]["body"], "Mijn nummer: ••• <b>bel</b>");
    let conversation = sent["message"]["conversation"].as_i64().unwrap();
    let (_, _, html) = app.get(&format!("/chats/{conversation}"), &[("cookie", &bart)]).await;
    // (The number itself: an island's name carries a hash, whose digits may hold "1234".)
    assert!(!html.contains("1234 5678") && html.contains("Mijn nummer: •••") && !html.contains("<b>bel"), "masked and escaped for Bart");

    // Staff refuse phone numbers; a member's form post cannot.
    let rule = "contact%5Bphone%5D=refuse&contact%5Bemail%5D=mask&contact%5Bweb%5D=allow&contact%5Bmessenger%5D=mask";
    let res = app.form("staff_site_contact", rule, "/staff/site", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"));
    let (_, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    assert!(page.contains(r#"id="contact""#) && page.contains("Contactgegevens in de chat") && page.contains(r#"name="contact[phone]""#));
    let res = app.form("staff_site_contact", "contact%5Bphone%5D=%3Cscript%3E", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_site_contact").0.code, domain::ErrorCode::ChoiceInvalid);
    let res = app.form("staff_site_contact", rule, "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=contact#contact");
    assert_eq!(app.state.sites.for_host(None).unwrap().contact_rules.phone, domain::contact::ContactRule::Refuse);

    // Without JavaScript: back to the conversation with the reason and the typed text.
    let res = app
        .form(
            "send_message",
            &format!("conversation={conversation}&client_id=contact-send-0002&text=nul+zes+12+34+56+78"),
            &format!("/chats/{conversation}"),
            &[("origin", &origin), ("cookie", &anna)],
        )
        .await;
    let (error, back) = refusal(&res, "send_message");
    assert_eq!(error.code, domain::ErrorCode::ContactDetailsRefused);
    assert!(back.contains("nul zes 12 34 56 78"), "{back}");
    let (_, _, html) = app.get(&location(&res), &[("cookie", &anna)]).await;
    assert!(html.contains("Contactgegevens (een telefoonnummer"), "the Dutch reason is shown");
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(n, 1, "nothing stored");
}

/// The operator queue over HTTP: the first operator to open a waiting conversation holds it,
/// the second sees who and cannot answer; notes are shared and escaped; figures are shown.
#[tokio::test]
async fn two_operators_one_claim_shared_notes() {
    let app = start().await;
    let origin = app.origin();
    server::members::demo::seed_demo_members(&app.state.db, None, 2, server::seed::now_unix()).await.unwrap();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let (profile,): (i64,) =
        sqlx::query_as("SELECT id FROM users WHERE fictional = $1 ORDER BY id LIMIT 1").bind(true).fetch_one(app.state.db.pool()).await.unwrap();
    let res = app
        .call("send_message", &format!("member={profile}&client_id=queue-send-0001&text=Hoi%2C+ben+je+er%3F"), &[("origin", &origin), ("cookie", &anna)])
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let sent: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    let conversation = sent["message"]["conversation"].as_i64().unwrap();
    let mut cookies = Vec::new();
    for (email, name) in [("olga@example.nl", "Olga"), ("piet@example.nl", "Piet")] {
        let cookie = ready_member(&app, email, "male").await;
        grant_staff(&app, email, domain::staff::StaffRole::Operator).await;
        sqlx::query("UPDATE profiles SET name = $1 WHERE user_id = (SELECT id FROM users WHERE email = $2)")
            .bind(name)
            .bind(email)
            .execute(app.state.db.pool())
            .await
            .unwrap();
        cookies.push(cookie);
    }
    let (olga, piet) = (&cookies[0], &cookies[1]);

    // The queue shows the wait; Olga opens it and holds it.
    let (_, _, queue) = app.get("/staff/chats", &[("cookie", piet)]).await;
    assert!(queue.contains(r#"data-testid="console-waited""#) && queue.contains("wacht 0 min"), "the wait is shown");
    // Piet's open queue page hears of it live (server-sent events); a member hears nothing.
    let (status, _, _) = app.get("/staff/chats/events", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let mut events = app.client.get(format!("{}/staff/chats/events", app.base)).header("cookie", piet.as_str()).send().await.unwrap();
    assert_eq!(events.headers()["content-type"], "text/event-stream");
    let page = format!("/staff/chats?c={conversation}");
    let (_, _, html) = app.get(&page, &[("cookie", olga)]).await;
    let heard = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        let mut seen = String::new();
        while let Some(chunk) = events.chunk().await.unwrap() {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains("event: queue") {
                return seen;
            }
        }
        seen
    })
    .await
    .expect("the claim reached the open queue page");
    assert!(heard.contains("event: queue"), "{heard}");
    drop(events);
    // What the page then reads: the list, with Olga's claim, and reading claims nothing.
    let (_, _, list) = app.get("/api/fn/operator_queue", &[("cookie", piet)]).await;
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list[0]["id"], conversation);
    assert_eq!(list[0]["claimed_by"], "Olga");
    let (status, _, _) = app.get("/api/fn/operator_queue", &[("cookie", &anna)]).await;
    assert!(status.is_client_error());
    assert!(html.contains(r#"data-testid="console-mine""#) && html.contains(r#"data-testid="console-text""#));
    assert!(
        html.contains(r#"data-testid="console-member""#) && html.contains("Haarlem") && html.contains("Bekijk profiel"),
        "the member's profile beside the conversation"
    );
    // Piet sees who has it, gets no answer box, and a post is refused.
    let (_, _, html) = app.get(&page, &[("cookie", piet)]).await;
    assert!(html.contains("Dit gesprek wordt nu beantwoord door Olga.") && !html.contains(r#"data-testid="console-text""#), "taken");
    let (_, _, queue) = app.get("/staff/chats", &[("cookie", piet)]).await;
    assert!(queue.contains("bezig: Olga"));
    let res = app
        .form("operator_reply", &format!("conversation={conversation}&client_id=queue-reply-0001&text=ik+ook"), &page, &[("origin", &origin), ("cookie", piet)])
        .await;
    assert_eq!(refusal(&res, "operator_reply").0.code, domain::ErrorCode::ClaimedByOther);
    let res = app.call("operator_claim", &format!("conversation={conversation}"), &[("origin", &origin), ("cookie", piet)]).await;
    assert_eq!(res.text().await.unwrap(), "false");
    let res = app.call("operator_claim", &format!("conversation={conversation}"), &[("origin", &origin), ("cookie", olga)]).await;
    assert_eq!(res.text().await.unwrap(), "true");
    // Olga answers.
    let res = app
        .form(
            "operator_reply",
            &format!("conversation={conversation}&client_id=queue-reply-0002&text=Hoi+Anna%21"),
            &page,
            &[("origin", &origin), ("cookie", olga)],
        )
        .await;
    assert_eq!(location(&res), page);

    // Notes: saved by Olga, seen by Piet, markup stays text; a member cannot.
    let res = app
        .form(
            "operator_note",
            &format!("conversation={conversation}&note=Woont+in+Zwolle+%3Cscript%3Ealert(1)%3C%2Fscript%3E"),
            &page,
            &[("origin", &origin), ("cookie", olga)],
        )
        .await;
    assert_eq!(location(&res), page);
    let (_, _, html) = app.get(&page, &[("cookie", piet)]).await;
    assert!(
        html.contains("Woont in Zwolle &lt;script&gt;alert(1)&lt;/script&gt;") || html.contains("Woont in Zwolle &lt;script>alert(1)&lt;/script>"),
        "escaped in the textarea"
    );
    assert!(!html.contains("<script>alert(1)"));
    assert!(html.contains(r#"data-testid="console-figures""#) && html.contains("Uitgegeven:"));
    let res = app.form("operator_note", &format!("conversation={conversation}&note=hack"), &page, &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(refusal(&res, "operator_note").0.code, domain::ErrorCode::NotFound);
}

/// Staff see the operator figures on `/staff` and download them as CSV; members and operators
/// without the staff role get not-found.
#[tokio::test]
async fn operator_figures_on_the_staff_page_and_as_csv() {
    let app = start().await;
    let origin = app.origin();
    server::members::demo::seed_demo_members(&app.state.db, None, 2, server::seed::now_unix()).await.unwrap();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let (profile,): (i64,) =
        sqlx::query_as("SELECT id FROM users WHERE fictional = $1 ORDER BY id LIMIT 1").bind(true).fetch_one(app.state.db.pool()).await.unwrap();
    let res = app.call("send_message", &format!("member={profile}&client_id=figures-send-0001&text=Hoi"), &[("origin", &origin), ("cookie", &anna)]).await;
    let sent: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    let conversation = sent["message"]["conversation"].as_i64().unwrap();
    let olga = ready_member(&app, "olga@example.nl", "female").await;
    grant_staff(&app, "olga@example.nl", domain::staff::StaffRole::Operator).await;
    sqlx::query("UPDATE profiles SET name = '=Olga' WHERE user_id = (SELECT id FROM users WHERE email = 'olga@example.nl')")
        .execute(app.state.db.pool())
        .await
        .unwrap();
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;

    // Before the answer: one conversation waits.
    let (_, _, home) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(home.contains("Wacht nu op antwoord: 1 gesprek, al "), "the wait is shown");
    let res = app
        .form(
            "operator_reply",
            &format!("conversation={conversation}&client_id=figures-reply-0001&text=Hoi+Anna"),
            &format!("/staff/chats?c={conversation}"),
            &[("origin", &origin), ("cookie", &olga)],
        )
        .await;
    assert!(!location(&res).contains("__err"), "{}", location(&res));
    let (_, _, home) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(home.contains(r#"data-testid="staff-operators""#) && home.contains("=Olga") && home.contains("Er wacht nu niemand op antwoord."));
    let res = app.client.get(format!("{}/staff/operators.csv", app.base)).header("cookie", &staff).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let csv = res.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "day,operator_id,operator,answers,median_wait_secs,p90_wait_secs");
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(lines[1].contains(",\"'=Olga\",1,"), "a formula-like name is defused: {csv}");
    for cookie in [&anna, &olga] {
        let res = app.client.get(format!("{}/staff/operators.csv", app.base)).header("cookie", cookie.as_str()).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
    let res = app.client.get(format!("{}/staff/operators.csv", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND, "no login form for a visitor either");
}

/// Spam held back over HTTP: staff set the threshold through their form, the second alike
/// first message waits, the review page shows it escaped to staff only, and staff release it
/// (a member cannot) or block the sender.
#[tokio::test]
async fn alike_first_messages_wait_for_staff_review() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let pool = app.state.db.pool().clone();
    let id_of = |email: &'static str| {
        let pool = pool.clone();
        async move {
            let (id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = $1").bind(email).fetch_one(&pool).await.unwrap();
            id
        }
    };
    let mut men = Vec::new();
    let mut carl = String::new();
    for email in ["bart@example.nl", "carl@example.nl", "dirk@example.nl"] {
        let cookie = ready_member(&app, email, "male").await;
        if email.starts_with("carl") {
            carl = cookie;
        }
        men.push(id_of(email).await);
    }
    let anna_id = id_of("anna@example.nl").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    sqlx::query("UPDATE users SET paid_user = $1 WHERE email = 'anna@example.nl'").bind(true).execute(app.state.db.pool()).await.unwrap();

    // The threshold: one member may get the same first message. Members cannot set it; a value
    // out of range is refused with the setting named.
    let rules = "spam_recipients=1&spam_window_minutes=60&spam_similarity=80";
    let res = app.form("staff_site_spam", rules, "/staff/site", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"));
    let res = app
        .form("staff_site_spam", "spam_recipients=1&spam_window_minutes=60&spam_similarity=%3Cb%3E", "/staff/site", &[("origin", &origin), ("cookie", &staff)])
        .await;
    assert!(location(&res).contains("__err"), "a non-number is refused");
    let res = app
        .form("staff_site_spam", "spam_recipients=1&spam_window_minutes=60&spam_similarity=5", "/staff/site", &[("origin", &origin), ("cookie", &staff)])
        .await;
    assert_eq!(refusal(&res, "staff_site_spam").0.code, domain::ErrorCode::OutOfRange);
    let res = app.form("staff_site_spam", rules, "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=spam#spam");
    let (_, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    assert!(page.contains(r#"id="spam""#) && page.contains("Spam tegenhouden") && page.contains(r#"name="spam_recipients""#));

    let text = "Hoi lieverd, ik ben Anna <img src=x onerror=alert(1)> en ik zoek een leuke man voor vanavond!";
    let send = |to: i64, n: u32| format!("member={to}&client_id=spam-send-{n:04}&text={}", domain::account::percent_encode(text));
    let res = app.call("send_message", &send(men[0], 1), &[("origin", &origin), ("cookie", &anna)]).await;
    let first: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(first["message"]["waiting"], false);
    let res = app.call("send_message", &send(men[1], 2), &[("origin", &origin), ("cookie", &anna)]).await;
    let second: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(second["message"]["waiting"], true, "{second}");
    let (_, _, html) = app.get("/chats", &[("cookie", &carl)]).await;
    assert!(!html.contains("lieverd"), "Carl does not get it yet");

    // The review list: for staff, escaped; for a member, nothing.
    let (_, _, html) = app.get("/staff/held", &[("cookie", &anna)]).await;
    assert!(!html.contains("lieverd") && !html.contains(r#"data-testid="held-item""#));
    let (status, _, html) = app.get("/staff/held", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Tegengehouden berichten") && html.contains("1 bericht aan 1 lid"), "{html}");
    assert!(html.contains("&lt;img src=x") && !html.contains("<img src=x"), "the text is escaped");

    let res = app.form("staff_release_held", &format!("sender={anna_id}"), "/staff/held", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"), "a member cannot release");
    let res = app.form("staff_release_held", &format!("sender={anna_id}"), "/staff/held", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/held?released=1&unpaid=0");
    let (_, _, html) = app.get(&location(&res), &[("cookie", &staff)]).await;
    assert!(html.contains("1 bericht vrijgegeven en bezorgd.") && html.contains(r#"data-testid="held-empty""#));
    let (_, _, html) = app.get("/chats", &[("cookie", &carl)]).await;
    assert!(html.contains("lieverd"), "Carl has it now");

    // Held again; staff block her (the reason is required).
    let res = app.call("send_message", &send(men[2], 3), &[("origin", &origin), ("cookie", &anna)]).await;
    let third: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(third["message"]["waiting"], true);
    let res = app.form("staff_block_held", &format!("sender={anna_id}&reason="), "/staff/held", &[("origin", &origin), ("cookie", &staff)]).await;
    assert!(location(&res).contains("__err"));
    let res = app.form("staff_block_held", &format!("sender={anna_id}&reason=Spam"), "/staff/held", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/held?blocked=1");
    let (status,): (String,) = sqlx::query_as("SELECT status FROM users WHERE id = $1").bind(anna_id).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(status, "blocked");
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}
