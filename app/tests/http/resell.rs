//! `member_resell` over HTTP: staff switch it on, a member's settings offer the company's other
//! site, one tap makes the account there and sends the browser to that site's sign-in link,
//! which signs in on that site; lies and markup change nothing.

use super::*;

#[tokio::test]
async fn a_member_joins_the_companys_other_site_from_settings_and_is_signed_in_there() {
    let app = start().await;
    let origin = app.origin();
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let res = app
        .form(
            "staff_new_site",
            "domain=vonk-zuid.nl&name=Vonk+%3Cb%3EZuid%3C%2Fb%3E&domain_language=nl-NL",
            "/staff/site",
            &[("origin", &origin), ("cookie", &staff)],
        )
        .await;
    assert_eq!(location(&res), "/staff/site?created=vonk-zuid.nl#new-site");
    let zuid = app.state.sites.for_host(Some("vonk-zuid.nl")).unwrap().settings.id;

    // Off by default: no panel.
    let (_, _, settings) = app.get("/settings", &[("cookie", &anna)]).await;
    assert!(!settings.contains(r#"data-testid="sister-sites""#));

    // Staff switch it on with the invitation settings; the panel offers the new site by name
    // (its markup as text), not vonk.de (it serves no Dutch members).
    let page = app.get("/invitations", &[("cookie", &staff), ("accept", "text/html")]).await.2;
    assert!(page.contains(r#"name="member_resell""#) && page.contains("Leden krijgen de andere sites van het bedrijf aangeboden"));
    let res = app.form("staff_site_invitations", "invitation_days=14&member_resell=on", "/invitations", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/invitations?saved=1");
    assert!(app.state.sites.for_host(None).unwrap().member_resell);
    let (_, headers, settings) = app.get("/settings", &[("cookie", &anna)]).await;
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.contains("form-action 'self' https://vonk.de https://vonk-zuid.nl")
            || policy.contains("form-action 'self' https://vonk-zuid.nl https://vonk.de"),
        "the tap's post goes on there: {policy}"
    );
    let (_, headers, _) = app.get("/", &[]).await;
    assert!(headers["content-security-policy"].to_str().unwrap().ends_with("form-action 'self'"), "a visitor's forms stay on the site");
    assert!(settings.contains("Onze andere sites") && settings.contains("Lid worden van Vonk &lt;b&gt;Zuid&lt;/b&gt;"), "offered, the name as text");
    assert!(!settings.contains("<b>Zuid"));
    assert_eq!(settings.matches(r#"data-testid="sister-site""#).count(), 1);
    // Staff are not offered it.
    let (_, _, theirs) = app.get("/settings", &[("cookie", &staff)]).await;
    assert!(!theirs.contains(r#"data-testid="sister-sites""#));

    // Lies: another id, markup, nothing; a visitor; another page's origin. No 5xx, nothing made.
    for body in ["site=999999", "site=%3Cscript%3E", "", "site=1"] {
        let res = app.call("join_sister_site", body, &[("origin", &origin), ("cookie", &anna)]).await;
        assert!(res.status().is_client_error(), "{body}: {}", res.status());
    }
    let res = app.call("join_sister_site", &format!("site={zuid}"), &[("origin", &origin)]).await;
    assert!(res.status().is_client_error(), "a visitor: {}", res.status());
    let res = app.call("join_sister_site", &format!("site={zuid}"), &[("origin", "https://evil.example"), ("cookie", &anna)]).await;
    assert!(res.status().is_client_error(), "another site's page: {}", res.status());
    let joined = || async {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE email = 'anna@example.nl' AND site_id = $1")
            .bind(zuid)
            .fetch_one(app.state.db.pool())
            .await
            .unwrap();
        n
    };
    assert_eq!(joined().await, 0);

    // The tap (a form, as without JavaScript): the account there, and off to that site's link.
    let res = app.form("join_sister_site", &format!("site={zuid}"), "/settings", &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    let to = location(&res);
    let token = to.strip_prefix("https://vonk-zuid.nl/").expect("that site's own address").to_string();
    assert_eq!(token.len(), 64, "a sign-in link: {to}");
    assert_eq!(joined().await, 1);
    // Again: refused, and the panel now links to that site's login instead.
    let res = app.call("join_sister_site", &format!("site={zuid}"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(res.status().is_client_error());
    let (_, _, settings) = app.get("/settings", &[("cookie", &anna)]).await;
    assert!(settings.contains("Je hebt al een account op Vonk &lt;b&gt;Zuid&lt;/b&gt;.") && settings.contains(r#"href="https://vonk-zuid.nl/login""#));
    assert_eq!(joined().await, 1);

    // On the other site the link asks first, then signs Anna in there, on its members page.
    let zuid_origin = "http://vonk-zuid.nl";
    let (_, headers, _) = app.get(&format!("/{token}"), &[("host", "vonk-zuid.nl")]).await;
    assert_eq!(headers["location"], format!("/sign-in?token={token}"));
    let (_, _, ask) = app.get(&format!("/sign-in?token={token}"), &[("host", "vonk-zuid.nl")]).await;
    assert!(ask.contains("Welkom terug, Anna!"));
    let (_, _, elsewhere) = app.get(&format!("/sign-in?token={token}"), &[]).await;
    assert!(!elsewhere.contains("Welkom terug, Anna!"), "the link is that site's only");
    let res = app.form("sign_in_with_link", &format!("token={token}"), "/sign-in", &[("origin", zuid_origin), ("host", "vonk-zuid.nl")]).await;
    assert_eq!(location(&res), "/members");
    let cookie = format!("auth.session={}", cookie_value(&res, "auth.session").expect("a session there"));
    let (status, _, members) = app.get("/members", &[("cookie", &cookie), ("host", "vonk-zuid.nl")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(members.contains(r#"action="/api/fn/logout""#), "signed in on the other site");
}
