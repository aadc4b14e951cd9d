//! Visitors' tracking, country, and per-address limits behind a trusted proxy; the landers' bounce beacon.

use super::*;

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limit() {
    let app = start_with(&[("VONK_TRUSTED_PROXIES", "127.0.0.1/32")]).await;
    let origin = app.origin();
    let login = |client: &'static str, i: usize| {
        let (app, origin) = (&app, origin.clone());
        async move {
            // The client's own X-Forwarded-For entry comes first; the proxy appends the real one.
            let forwarded = format!("6.6.6.6, {client}");
            let res =
                app.form("login", &format!("email=user{i}%40example.nl&password=x"), "/login", &[("origin", &origin), ("x-forwarded-for", &forwarded)]).await;
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
        let res = direct
            .form("login", &format!("email=user{i}%40example.nl&password=x"), "/login", &[("origin", &origin), ("x-forwarded-for", &format!("198.51.100.{i}"))])
            .await;
        let expected = if i < 20 { domain::ErrorCode::LoginFailed } else { domain::ErrorCode::TooManyRequests };
        assert_eq!(refusal(&res, "login").0.code, expected);
    }
}

/// A member's stored tracking: network, ref, sub1, sub2, sub3.
type Tracking = (Option<String>, Option<String>, Option<String>, Option<String>, Option<String>);

#[tokio::test]
async fn tracking_from_the_landing_page_reaches_the_member() {
    let app = start().await;
    let origin = app.origin();
    let stored = |email: &'static str| {
        let pool = app.state.db.pool().clone();
        async move {
            let row: Tracking =
                sqlx::query_as("SELECT tracking_network, tracking_ref, tracking_sub1, tracking_sub2, tracking_sub3 FROM users WHERE email = $1")
                    .bind(email)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
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
    let res = app
        .form(
            "signup",
            &format!("{}&network=partner&sub1=s1", form("mila@example.nl")),
            "/signup?network=partner&sub1=s1",
            &[("origin", &origin), ("cookie", &cookie)],
        )
        .await;
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
    let res = app
        .form(
            "save_basics",
            "from=complete&gender=female&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem",
            "/complete-signup",
            &[("origin", &origin), ("cookie", &cookie)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::FOUND);
    let (_, _, page) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert_eq!(methods(&page), (true, false), "the member lives in the Netherlands");

    // A header from a peer that is not a trusted proxy is not believed.
    let app = start_in_with("BE", &[("VONK_TRUSTED_PROXIES", "10.0.0.1"), ("VONK_GEOIP_HEADER", "CF-IPCountry")]).await;
    let (_, _, page) = app.get("/pricing", &[("cf-ipcountry", "NL")]).await;
    assert_eq!(methods(&page), (false, true));
}

#[tokio::test]
async fn the_lb_beacon_stores_a_bounce_and_staff_see_the_count() {
    let app = start().await;
    let origin = app.origin();
    let beacon = |referer: String, origin: String| {
        let client = app.client.clone();
        let url = format!("{}/api/fn/page_bounce", app.base);
        async move {
            client.post(url).header("content-type", "application/json").header("origin", origin).header("referer", referer).body("{}").send().await.unwrap()
        }
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
    let rows: Vec<(String, String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT lander, slug, network, sub1 FROM page_bounces ORDER BY id").fetch_all(app.state.db.pool()).await.unwrap();
    assert_eq!(
        rows,
        [
            ("landing".to_string(), String::new(), Some("adnet".to_string()), Some("s".to_string())),
            ("gallery".to_string(), "milf-amsterdam".to_string(), None, None),
            ("gallery".to_string(), String::new(), None, None),
        ]
    );

    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await, 1);
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    let table = &page[page.find(r#"data-testid="staff-bounces""#).expect("the bounce figures")..];
    assert!(
        table.contains("<td>gallery</td><td>2</td><td>1</td>") && table.contains("<td>landing</td><td>1</td><td>1</td>"),
        "{}",
        &table[..600.min(table.len())]
    );
}

/// `/join`: the signup page in the empty layout (SPEC: "signup modal only"): the form, its
/// terms and privacy links, and nothing to navigate away by.
#[tokio::test]
async fn join_is_the_signup_page_alone() {
    let app = start().await;
    let (status, _, html) = app.get("/join?network=partner", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"class="layout layout--empty""#), "the empty layout");
    assert!(html.contains(r#"name="network" value="partner""#) && html.contains(r#"name="email""#), "the form, the traffic source kept");
    assert!(html.contains(r#"href="/pages/terms""#) && html.contains(r#"href="/pages/privacy""#), "terms and privacy linked");
    assert!(!html.contains(r#"class="topbar"#) && !html.contains("<footer"), "no top bar, no footer");
    // A signup from it works like any other.
    let res = app.form("signup", SIGNUP, "/join", &[("origin", &app.origin())]).await;
    assert_eq!(location(&res), "/complete-signup");
}

/// An invite-only site: visitors see no way to sign up but an invitation's link; the link shows
/// the form (opening it uses nothing up), the signup uses it, and a second signup with it is
/// refused with a translated text. Staff make links on `/invitations`; members only where the
/// site lets them.
#[tokio::test]
async fn an_invite_only_site_takes_new_members_through_an_invitation_link_only() {
    let app = start().await;
    let origin = app.origin();
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    sqlx::query("UPDATE sites SET signups = 'invite_only'").execute(app.state.db.pool()).await.unwrap();
    app.state.sites.reload().await.unwrap();

    // A visitor: no signup button anywhere the page draws one, the page says why.
    let (_, _, home) = app.get("/", &[("accept", "text/html")]).await;
    assert!(home.contains("data-invite-only") && home.contains("Op uitnodiging") && !home.contains("Gratis aanmelden</a>"), "top bar and hero offer no signup");
    let (status, _, page) = app.get("/signup", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("data-testid=\"invite-only\"") && page.contains("kan alleen met een uitnodigingslink") && !page.contains("name=\"password\""),
        "no form"
    );
    let body = SIGNUP.replace("anna%40example.nl", "nina%40example.nl");
    let res = app.form("signup", &body, "/signup", &[("origin", &origin)]).await;
    assert_eq!(refusal(&res, "signup").0.code, domain::ErrorCode::SignupInviteOnly);

    // Members may not make links here (the page is not theirs); staff may.
    let (status, _, _) = app.get("/invitations", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let res = app.form("make_invitation", "note=Nina+%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/invitations", &[("origin", &origin), ("cookie", &staff)]).await;
    let to = location(&res);
    let token = to.strip_prefix("/invitations?new=").unwrap_or_else(|| panic!("{to}")).to_string();
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains(&format!("/signup?invite={token}")), "the link shown once to its maker");
    assert!(html.contains("Nina &lt;script&gt;") && !html.contains("<script>alert"), "the note is text");
    assert!(html.contains("Open tot"), "{html}");

    // The link shows the form with the invitation in it; opening it twice uses nothing up.
    for _ in 0..2 {
        let (_, _, page) = app.get(&format!("/signup?invite={token}"), &[("accept", "text/html")]).await;
        assert!(page.contains("data-testid=\"invited\"") && page.contains(&format!("name=\"invitation\" value=\"{token}\"")), "the form carries it");
    }
    // The whole link pasted into the code field works as well; something else is told it does not.
    let (_, _, page) = app.get(&format!("/signup?invite=https%3A%2F%2Fvonk.nl%2Fsignup%3Finvite%3D{token}"), &[("accept", "text/html")]).await;
    assert!(page.contains("data-testid=\"invited\""));
    let (_, _, page) = app.get("/signup?invite=%3Cb%3Ehallo%3C%2Fb%3E", &[("accept", "text/html")]).await;
    assert!(page.contains("Deze uitnodiging is verlopen, ingetrokken of al gebruikt.") && !page.contains("<b>hallo"));
    let res = app.form("signup", &format!("{body}&invitation={token}"), "/signup", &[("origin", &origin)]).await;
    assert_eq!(location(&res), "/complete-signup");
    // Used: the next visitor with the same link is told so, in words, and nobody else joins.
    let (_, _, page) = app.get(&format!("/signup?invite={token}"), &[("accept", "text/html")]).await;
    assert!(page.contains("Deze uitnodiging is verlopen, ingetrokken of al gebruikt.") && !page.contains("name=\"password\""));
    let again = SIGNUP.replace("anna%40example.nl", "noor%40example.nl");
    let res = app.form("signup", &format!("{again}&invitation={token}"), "/signup", &[("origin", &origin)]).await;
    assert_eq!(refusal(&res, "signup").0.code, domain::ErrorCode::InvitationInvalid);
    let (_, _, list) = app.get("/invitations", &[("cookie", &staff), ("accept", "text/html")]).await;
    assert!(list.contains("Gebruikt door Anna"), "staff see who used it");

    // Staff let members invite (a declared settings form); then Anna has the page and a link.
    let res = app.form("staff_site_invitations", "member_invites=on&invitation_days=3", "/invitations", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/invitations?saved=1");
    let settings = app.state.sites.for_host(None).unwrap().settings.clone();
    assert!(settings.member_invites && settings.invitation_days == 3);
    let res = app.form("staff_site_invitations", "member_invites=on&invitation_days=365", "/invitations", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_site_invitations").0.code, domain::ErrorCode::OutOfRange);
    let (status, _, page) = app.get("/invitations", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("3 dagen geldig") && !page.contains("Gemaakt door"), "a member's own list, without makers");
    let res = app.form("make_invitation", "note=", "/invitations", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).starts_with("/invitations?new="));
}
