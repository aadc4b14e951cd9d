//! Age assurance over HTTP: the banner, the gate against direct server-function calls, a check
//! through the test provider's page (its page and answer the member's own), the badge, and the
//! staff setting.

use super::*;

async fn count(app: &TestApp, sql: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as(sql).fetch_one(app.state.db.pool()).await.unwrap();
    n
}

#[tokio::test]
async fn where_the_site_asks_members_pass_a_check_before_chatting_or_buying() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let admin = ready_member(&app, "admin@example.nl", "male").await;
    grant_staff(&app, "admin@example.nl", domain::staff::StaffRole::Admin).await;
    let [anna_id, bart_id] = user_ids(&app, ["anna@example.nl", "bart@example.nl"]).await;

    // Nothing asked yet: no banner.
    let (_, _, html) = app.get("/members", &[("cookie", &anna)]).await;
    assert!(!html.contains(r#"data-testid="age-alert""#));

    // Staff: a list that is not one is refused with the setting named, markup included; then everywhere.
    let (_, _, page) = app.get("/staff/site", &[("cookie", &admin)]).await;
    assert!(page.contains(r#"data-testid="form-age""#) && page.contains(r#"name="age_check_countries""#));
    for bad in ["DEU", "%3Cb%3EGB%3C%2Fb%3E"] {
        let res = app.form("staff_site_age", &format!("age_check_countries={bad}"), "/staff/site", &[("origin", &origin), ("cookie", &admin)]).await;
        let (error, _) = refusal(&res, "staff_site_age");
        assert_eq!((error.code, error.args["setting"].as_str()), (domain::ErrorCode::ChoiceInvalid, "age_check_countries"));
    }
    let res = app.form("staff_site_age", "age_check_countries=*", "/staff/site", &[("origin", &origin), ("cookie", &bart)]).await;
    assert!(location(&res).contains("__err"), "a member changes nothing");
    assert_eq!(app.state.sites.by_id(1).unwrap().settings.age_check_countries, "");
    let res = app.form("staff_site_age", "age_check_countries=*", "/staff/site", &[("origin", &origin), ("cookie", &admin)]).await;
    assert_eq!(location(&res), "/staff/site?saved=age#age");
    assert_eq!(app.state.sites.by_id(1).unwrap().settings.age_check_countries, "*");

    // Every page says so and links to the check.
    let (_, _, html) = app.get("/members", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="age-alert""#) && html.contains(r#"href="/age-check""#), "{html}");

    // Called directly, the server functions refuse and store nothing.
    let res = app.call("send_message", &format!("member={bart_id}&client_id=age-send-000001&text=hoi"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "age_check_required".into()));
    let res = app
        .form(
            "send_message",
            &format!("member={bart_id}&client_id=age-send-000002&text=hoi"),
            &format!("/members/{bart_id}/chat"),
            &[("origin", &origin), ("cookie", &anna)],
        )
        .await;
    let (error, _) = refusal(&res, "send_message");
    assert_eq!(error.code, domain::ErrorCode::AgeCheckRequired);
    let (pack,): (i64,) =
        sqlx::query_as("SELECT id FROM credit_packs WHERE site_id = 1 AND credits = 60 AND country IS NULL").fetch_one(app.state.db.pool()).await.unwrap();
    let res = app.call("start_checkout", &format!("pack={pack}&method=ideal"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "age_check_required".into()));
    assert_eq!((count(&app, "SELECT COUNT(*) FROM messages").await, count(&app, "SELECT COUNT(*) FROM payments").await), (0, 0));

    // Her page explains, and sends her to the provider.
    let (status, _, html) = app.get("/age-check", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Leeftijd bevestigen") && html.contains("nooit je identiteitsbewijs"), "{html}");
    let res = app.form("start_age_check", "", "/age-check", &[("origin", &origin), ("cookie", &anna)]).await;
    let provider_page = location(&res);
    assert!(provider_page.starts_with("/age-check/test/tage_"), "{provider_page}");
    let reference = provider_page.trim_start_matches("/age-check/test/").to_string();

    // Bart, or a visitor, holding the address: nothing there, and his answer changes nothing.
    let (status, _, _) = app.get(&provider_page, &[("cookie", &bart), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, headers, _) = app.get(&provider_page, &[("accept", "text/html")]).await;
    assert!(status.is_redirection() && headers["location"].to_str().unwrap().starts_with("/login"));
    let res = app.call("test_age_check_outcome", &format!("id={reference}&adult=true"), &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(app.state.age.verified_at(anna_id).await.unwrap().is_none());

    // Her answer sends her back to her page, which asks the provider and shows the outcome.
    let (status, _, html) = app.get(&provider_page, &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("18 jaar of ouder") && html.contains("ingebouwde testdienst"));
    let res = app.form("test_age_check_outcome", &format!("id={reference}&adult=true"), &provider_page, &[("origin", &origin), ("cookie", &anna)]).await;
    let back = location(&res);
    assert!(back.starts_with("/age-check?check="), "{back}");
    // Bart opening her way back settles nothing of his.
    let (status, _, html) = app.get(&back, &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Dit bestaat niet (meer)") || html.contains("notice--error"), "{html}");
    assert!(app.state.age.verified_at(bart_id).await.unwrap().is_none());
    let (_, _, html) = app.get(&back, &[("cookie", &anna)]).await;
    assert!(html.contains("Je leeftijd is bevestigd"), "{html}");
    assert!(app.state.age.verified_at(anna_id).await.unwrap().is_some());
    // A lying check number is no number: her page as always.
    let (status, _, html) = app.get("/age-check?check=%3Cscript%3Ealert(1)%3C%2Fscript%3E", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("<script>alert(1)"));

    // The banner is gone, the chat and the checkout work, and Bart sees her badge.
    let (_, _, html) = app.get("/members", &[("cookie", &anna)]).await;
    assert!(!html.contains(r#"data-testid="age-alert""#));
    let res = app.call("send_message", &format!("member={bart_id}&client_id=age-send-000003&text=hoi"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = app.call("start_checkout", &format!("pack={pack}&method=ideal"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let (_, _, html) = app.get(&format!("/members/{anna_id}"), &[("cookie", &bart)]).await;
    assert!(html.contains(r#"data-testid="age-verified""#) && html.contains("Leeftijd bevestigd"));
    let (_, _, html) = app.get(&format!("/members/{bart_id}"), &[("cookie", &anna)]).await;
    assert!(!html.contains(r#"data-testid="age-verified""#));

    // Staff see the outcome and the reference in her file.
    let (_, _, html) = app.get(&format!("/staff/members?q=%23{anna_id}"), &[("cookie", &admin)]).await;
    assert!(html.contains(r#"data-testid="member-age""#) && html.contains("18+ bevestigd") && html.contains(&reference), "{html}");
}
