//! Accounts over HTTP: signup, login and lockout, activation, password reset, email change, deletion, settings, sessions and two-step login, push subscriptions, the data export.

use super::*;

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
        .form(
            "login",
            "email=anna%40example.nl&password=rode+kater+op+het+dak&return_to=%2Fpricing",
            "/login?return_to=/pricing",
            &[("origin", &origin), ("cookie", &format!("auth.session={first}"))],
        )
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
async fn password_reset_over_http() {
    let app = start().await;
    let origin = app.origin();
    app.form("signup", SIGNUP, "/signup", &[("origin", &origin)]).await;
    // An address without an account gets the same answer as one with an account.
    let res = app.form("request_password_reset", "email=nobody%40example.nl", "/reset-password", &[("origin", &origin)]).await;
    assert_eq!(res.headers()["location"], "/reset-password?sent=1");
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Als dit e-mailadres een account heeft, hebben we je een mail gestuurd."));
    let res = app.form("request_password_reset", "email=anna%40example.nl", "/reset-password", &[("origin", &origin)]).await;
    assert_eq!(res.headers()["location"], "/reset-password?sent=1");
    assert!(wait_for_mail(&app, "/reset-password/do?token=").await, "the mail goes out after the answer");

    let link = mail_link(&app, "/reset-password/do?token=");
    let token = &link["/reset-password/do?token=".len()..];
    let (status, _, html) = app.get(&format!("/reset-password/do?token={token}"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&format!(r#"name="token" value="{token}""#)));

    let page = format!("/reset-password/do?token={token}");
    let res = app
        .form("reset_password", &format!("token={token}&password=nieuw+wachtwoord+1&password_repeat=anders+wachtwoord"), &page, &[("origin", &origin)])
        .await;
    let (error, back) = refusal(&res, "reset_password");
    assert_eq!((error.code, back.as_str()), (domain::ErrorCode::PasswordsDiffer, page.as_str()));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("De opgegeven wachtwoorden zijn niet gelijk."));
    assert!(html.contains(&format!(r#"name="token" value="{token}""#)), "the form keeps the token");
    let res = app
        .form("reset_password", &format!("token={token}&password=nieuw+wachtwoord+1&password_repeat=nieuw+wachtwoord+1"), &page, &[("origin", &origin)])
        .await;
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
    let res =
        app.form("delete_account", "password=rode+kater+op+het+dak&reason=te+druk&confirm=1", "/settings", &[("origin", &origin), ("cookie", &cookie)]).await;
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
    let res =
        app.form("save_basics", &good.replace("Haarlem", "Zandvoort"), "/complete-signup", &[("origin", "https://evil.example"), ("cookie", &cookie)]).await;
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
        .post_form(
            &format!("/api/unsubscribe?token={token}"),
            "List-Unsubscribe=One-Click",
            &[("origin", "https://mail.example"), ("sec-fetch-site", "cross-site")],
        )
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
async fn the_browsers_time_zone_is_kept_on_login_and_renewal_and_nonsense_is_not() {
    let app = start().await;
    let origin = app.origin();
    let zone = |app: &TestApp| {
        let pool = app.state.db.pool().clone();
        async move {
            let (zone,): (Option<String>,) = sqlx::query_as("SELECT time_zone FROM users WHERE email = 'anna@example.nl'").fetch_one(&pool).await.unwrap();
            zone
        }
    };
    // The page's first script sets the cookie; signup is the first session.
    let signup = app.form("signup", SIGNUP, "/signup", &[("origin", &origin), ("cookie", "tz=Europe/Helsinki")]).await;
    assert_eq!(zone(&app).await.as_deref(), Some("Europe/Helsinki"));
    let cookie = format!("auth.session={}", cookie_value(&signup, "auth.session").unwrap());
    // Markup or a made-up zone changes nothing, at renewal either.
    sqlx::query("UPDATE sessions SET last_seen_at = last_seen_at - 601").execute(app.state.db.pool()).await.unwrap();
    app.get("/settings", &[("cookie", &format!("{cookie}; tz=<script>alert(1)</script>"))]).await;
    assert_eq!(zone(&app).await.as_deref(), Some("Europe/Helsinki"));
    // A trip abroad: the next renewal keeps the new zone.
    sqlx::query("UPDATE sessions SET last_seen_at = last_seen_at - 601").execute(app.state.db.pool()).await.unwrap();
    app.get("/settings", &[("cookie", &format!("{cookie}; tz=America/New_York"))]).await;
    assert_eq!(zone(&app).await.as_deref(), Some("America/New_York"));
    // Every page's first script is what sets it.
    let (_, _, html) = app.get("/", &[]).await;
    assert!(html.contains("resolvedOptions().timeZone"), "the tz cookie script");
}

#[tokio::test]
async fn a_member_stores_a_push_subscription_for_the_session_and_the_page_offers_push() {
    let (private_key, public_key) = server::push::new_vapid_keys();
    let app = start_with(&[
        ("VONK_VAPID_PRIVATE_KEY", private_key.as_str()),
        ("VONK_VAPID_SUBJECT", "mailto:support@vonk.example"),
        ("VONK_PUSH_SERVICES", "https://push.example"),
    ])
    .await;
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
    for bad in [body("https://evil.example/s/1"), body("http://127.0.0.1:6379/"), "endpoint=https%3A%2F%2Fpush.example%2Fs%2F1&p256dh=BAAA&auth=x".to_string()]
    {
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
async fn a_member_downloads_their_data_and_only_their_own() {
    let app = start_with(&[("VONK_RATE_LIMITS", "data_export=2/3600")]).await;
    // Visitors are sent to log in.
    let res = app.client.post(format!("{}/settings/data-export", app.base)).header("origin", app.origin()).send().await.unwrap();
    assert_eq!((res.status(), location(&res)), (StatusCode::SEE_OTHER, "/login".to_string()));

    let anna = signed_up(&app, "anna@example.nl").await;
    let bob = signed_up(&app, "bob@example.nl").await;
    let (_, _, html) = app.get("/settings", &[("cookie", &anna)]).await;
    assert!(html.contains(r#"action="/settings/data-export""#) && html.contains("Mijn gegevens downloaden"));
    let download = |cookie: String| {
        let (client, url, origin) = (app.client.clone(), format!("{}/settings/data-export", app.base), app.origin());
        async move { client.post(url).header("cookie", cookie).header("origin", origin).send().await.unwrap() }
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
async fn the_demo_seed_makes_a_member_staff_and_an_operator_to_log_in_with() {
    let app = start().await;
    let origin = app.origin();
    let password = server::seed::demo_accounts(&app.state).await.unwrap().expect("a new demo database gets its accounts");
    assert!(password.starts_with("vonk-") && password.len() > 12, "{password}");
    assert_eq!(server::seed::demo_accounts(&app.state).await.unwrap(), None, "once: the site has members now");
    // Confirmed from the start: no activation mail to an address nobody reads, no reminders.
    let mails = std::fs::read_dir(app.state.config.data_dir.join("mail")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(mails, 0, "no mail to the demo accounts");
    let (jobs,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM jobs WHERE kind = 'confirm_reminder'").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(jobs, 0, "no reminders queued");
    let login = |email: &'static str| {
        let (app, origin, password) = (&app, origin.clone(), password.clone());
        async move {
            let res = app
                .form("login", &format!("email={}&password={}", email.replace('@', "%40"), password.replace(' ', "+")), "/login", &[("origin", &origin)])
                .await;
            format!("auth.session={}", cookie_value(&res, "auth.session").unwrap_or_else(|| panic!("{email} logs in")))
        }
    };
    let member = login("lid@vonk.example").await;
    let (status, _, html) = app.get("/members", &[("cookie", &member)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"action="/api/fn/logout""#), "a member with a finished profile");
    let (status, _, _) = app.get("/staff", &[("cookie", &member)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Staff first switch two-step login on (each demo staff account is told so).
    let staff = login("staf@vonk.example").await;
    let (status, _, html) = app.get("/staff", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(html.contains(r#"data-testid="staff-two-step-first""#));
    let operator = login("operator@vonk.example").await;
    let (status, _, html) = app.get("/staff/chats", &[("cookie", &operator)]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(html.contains(r#"data-testid="staff-two-step-first""#));
    for (email, path) in
        [("moderator@vonk.example", "/staff/photos"), ("support@vonk.example", "/staff/members"), ("financien@vonk.example", "/staff/payments")]
    {
        let cookie = login(email).await;
        let (status, _, _) = app.get(path, &[("cookie", &cookie)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}: its page, once two-step login is on");
        let (status, _, _) = app.get("/staff/site", &[("cookie", &cookie)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{email}: not the site's settings");
    }
    // Staff and the operator are not members to be found; the member is.
    let (_, _, search) = app.get("/members?gender=female", &[("cookie", &staff)]).await;
    assert!(search.contains("Lotte") && !search.contains("Olga"), "only the member is in the search");
}

#[tokio::test]
async fn a_lifecycle_mails_unsubscribe_stops_its_kind_only() {
    let app = start().await;
    let cookie = signed_up(&app, "kind@example.nl").await;
    let link = mail_link(&app, "/unsubscribe?token=");
    let token = link["/unsubscribe?token=".len()..].to_string();
    let kinded = format!("/unsubscribe?token={token}&kind=confirm_reminder");
    // The page names the kind and changes nothing by itself.
    let (status, _, html) = app.get(&kinded, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("herinneringen om je e-mailadres te bevestigen"), "the kind's own words");
    assert!(html.contains(r#"name="kind" value="confirm_reminder""#));
    // Markup or an unknown kind in the address: the plain page, nothing echoed.
    let (status, _, html) = app.get(&format!("/unsubscribe?token={token}&kind=%3Cscript%3Ealert(1)%3C/script%3E"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("<script>alert(1)") && !html.contains(r#"name="kind""#));
    let optouts = || async {
        let (n,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM lifecycle_optouts WHERE kind = 'confirm_reminder'").fetch_one(app.state.db.pool()).await.unwrap();
        n
    };
    assert_eq!(optouts().await, 0);
    // The button stops the reminders, not the other mails.
    let res = app.form("unsubscribe", &format!("token={token}&kind=confirm_reminder"), &kinded, &[("origin", &app.origin())]).await;
    assert_eq!(res.headers()["location"], "/unsubscribe?done=1");
    assert_eq!(optouts().await, 1);
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#), "notification mails stay on");
    // The one-click header of the reminder: the same, from anywhere, twice over.
    for _ in 0..2 {
        let res = app
            .post_form(
                &format!("/api/unsubscribe?token={token}&kind=confirm_reminder"),
                "List-Unsubscribe=One-Click",
                &[("origin", "https://mail.example"), ("sec-fetch-site", "cross-site")],
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    assert_eq!(optouts().await, 1);
    let (_, _, html) = app.get("/pricing", &[("cookie", &cookie)]).await;
    assert!(!html.contains(r#"data-testid="notifications-alert""#));
}

#[tokio::test]
async fn a_mails_sign_in_link_asks_first_then_signs_in_once_on_its_page() {
    let app = start().await;
    let origin = app.origin();
    let _ = ready_member(&app, "terug@example.nl", "female").await;
    let (id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'terug@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let site = app.state.sites.by_id(1).unwrap();
    let link = app.state.accounts.sign_in_link(&site.settings, id, "/notifications").await.unwrap();
    let token = link.trim_start_matches('/').to_string();

    // `/{token}`: to the page that asks; opening it (twice, as a mail scanner would) uses nothing.
    let (status, headers, _) = app.get(&link, &[]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], format!("/sign-in?token={token}"));
    for _ in 0..2 {
        let (status, _, html) = app.get(&format!("/sign-in?token={token}"), &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(html.contains("Welkom terug, Anna!") && html.contains(r#"action="/api/fn/sign_in_with_link""#), "greets and asks");
    }
    // The site's own files at the root keep their way; other single words are still not found.
    let (status, _, _) = app.get("/sw.js", &[]).await;
    assert!(!status.is_redirection(), "the service worker is not a link");
    let (status, _, _) = app.get("/niet-een-pagina", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The button: a session and the page the mail was about.
    let res = app.form("sign_in_with_link", &format!("token={token}"), "/sign-in", &[("origin", &origin)]).await;
    assert_eq!(location(&res), "/notifications");
    let cookie = format!("auth.session={}", cookie_value(&res, "auth.session").expect("a session cookie"));
    let (status, _, html) = app.get("/notifications", &[("cookie", &cookie)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"action="/api/fn/logout""#), "signed in");
    let (_, _, settings) = app.get("/settings", &[("cookie", &cookie)]).await;
    assert!(settings.contains("Ingelogd met de link uit een e-mail"), "a security event the member can see");
    // A push's link opens in the browser that is signed in already: straight to its page, the
    // session (and the browser's push subscription with it) kept, the link unused. Another
    // member's session there still gets the page that asks.
    let pushed = app.state.accounts.sign_in_link(&site.settings, id, "/chats").await.unwrap();
    let (status, headers, _) = app.get(&pushed, &[("cookie", &cookie)]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/chats");
    let (status, _, _) = app.get("/notifications", &[("cookie", &cookie)]).await;
    assert_eq!(status, StatusCode::OK, "still signed in with the same session");
    let other = signed_up(&app, "ander@example.nl").await;
    let (_, headers, _) = app.get(&pushed, &[("cookie", &other)]).await;
    assert_eq!(headers["location"], format!("/sign-in?token={}", pushed.trim_start_matches('/')));

    // Once only: the second press is refused on the page, which says why.
    let res = app.form("sign_in_with_link", &format!("token={token}"), "/sign-in", &[("origin", &origin)]).await;
    let (error, back) = refusal(&res, "sign_in_with_link");
    assert_eq!((error.code, back.as_str()), (domain::ErrorCode::LinkExpired, format!("/sign-in?token={token}").as_str()));
    let (_, _, html) = app.get(&format!("/sign-in?token={token}"), &[]).await;
    assert!(html.contains("Link verlopen of invalide") && html.contains(r#"href="/login""#));
    // Markup and lies in the address: the same answer, nothing echoed, no 5xx.
    let (status, _, html) = app.get("/sign-in?token=%3Cscript%3Ealert(1)%3C/script%3E", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("<script>alert(1)"));
    let res = app.form("sign_in_with_link", "token=%3Cb%3E", "/sign-in", &[("origin", &origin)]).await;
    assert!(location(&res).contains("__err"));
    let res = app.form("sign_in_with_link", "nothing=1", "/sign-in", &[("origin", &origin)]).await;
    assert!(!res.status().is_server_error(), "a malformed body: {}", res.status());
    // From another site's page: the same-origin guard stops it.
    let res = app.form("sign_in_with_link", &format!("token={}", "a".repeat(64)), "/sign-in", &[("origin", "https://evil.example")]).await;
    assert!(res.status().is_client_error(), "{}", res.status());
}
