//! Search, profiles, blocking and photos.

use super::*;

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
    // The first screen's portraits load at once and first (the page's largest image); the rest lazily.
    let eager = html.matches(r#"loading="eager" fetchpriority="high""#).count();
    assert_eq!(eager, app::features::members::card::EAGER_CARDS, "{html}");
    assert!(html.matches(r#"loading="lazy""#).count() > 0);
    let first_lazy = html.find(r#"loading="lazy""#).unwrap();
    assert!(html.rfind(r#"fetchpriority="high""#).unwrap() < first_lazy, "the eager ones come first");
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

#[tokio::test]
async fn photos_upload_review_and_who_sees_what() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await, 1);

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
    // A browser that takes WebP (as every current one says for images) is sent the WebP copy;
    // the answer depends on who asks and what they take, and the two have their own tags.
    let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    let (status, webp, _) = app.get(&format!("/media/photos/{id}/thumb"), &[("cookie", &anna), ("accept", chromium)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(webp["content-type"], "image/webp");
    assert_eq!(webp["vary"], "Cookie, Accept");
    assert_ne!(webp["etag"], headers["etag"]);
    let (status, _, _) =
        app.get(&format!("/media/photos/{id}/thumb"), &[("cookie", &anna), ("accept", chromium), ("if-none-match", webp["etag"].to_str().unwrap())]).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (_, full, _) = app.get(&format!("/media/photos/{id}"), &[("cookie", &anna), ("accept", chromium)]).await;
    assert_eq!(full["content-type"], "image/webp");
    for who in [&bart[..], ""] {
        let (status, _, _) = app.get(&format!("/media/photos/{id}"), &[("cookie", who)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "under inspection stays hidden");
    }
    // Originals never live under the public media folder.
    let (status, _, _) = app.get(&format!("/media/public/photos/{id}"), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Only moderators and admins review: members get a 404 page and a 404 on the action.
    let (status, _, _) = app.get("/staff/photos", &[("cookie", &bart)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let approve = format!("id={id}&approve=1");
    let res = app.call("review_photo", &approve, &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()));
    let res = app.form("review_photo", &approve, "/staff/photos", &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(refusal(&res, "review_photo").0.code, domain::ErrorCode::NotFound);
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
    let res = app
        .form(
            "signup",
            &(SIGNUP.replace("anna%40example.nl", "not-an-address") + &format!("&profile={anna_id}")),
            &format!("/members/{anna_id}/signup"),
            &[("origin", &origin)],
        )
        .await;
    let (error, page) = refusal(&res, "signup");
    assert_eq!((error.code, page), (domain::ErrorCode::EmailInvalid, format!("/members/{anna_id}/signup")));
    let (_, html) = app.follow(&res, "").await;
    assert!(html.contains("Ongeldige e-mail") && html.contains(&format!(r#"name="profile" value="{anna_id}""#)), "the refusal, and Anna still carried along");
}

/// What a visitor was about to do on a profile travels through signup (`then`) and is done
/// (the like) or ready (the chat) when they come back; anything else in `then` is ignored.
#[tokio::test]
async fn a_visitors_action_on_a_profile_survives_signup() {
    let app = start().await;
    let origin = app.origin();
    ready_member(&app, "anna@example.nl", "female").await;
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();

    // The profile's actions and the search's hearts lead to signup with the action named.
    let (_, _, html) = app.get(&format!("/members/{anna_id}?network=net1"), &[]).await;
    for action in ["message", "like", "gift"] {
        assert!(html.contains(&format!(r#"href="/members/{anna_id}/signup?then={action}&amp;network=net1""#)), "{action}");
    }
    let (_, _, html) = app.get(&format!("/members/{anna_id}/signup?then=like&network=net1"), &[]).await;
    assert!(html.contains(r#"name="then" value="like""#) && html.contains(&format!(r#"name="profile" value="{anna_id}""#)));
    let (_, _, html) = app.get(&format!("/members/{anna_id}/signup?then=%3Cb%3E"), &[]).await;
    assert!(!html.contains(r#"name="then""#) && !html.contains("<b>"), "an unknown action is dropped");

    let mut n = 0;
    let mut sign_up = |then: &'static str| {
        n += 1;
        let (app, origin) = (&app, &origin);
        let email = format!("bezoeker{n}%40example.nl");
        async move {
            let body = SIGNUP.replace("anna%40example.nl", &email) + &format!("&profile={anna_id}&then={then}");
            let res = app.form("signup", &body, &format!("/members/{anna_id}/signup"), &[("origin", origin)]).await;
            let cookie = format!("auth.session={}", cookie_value(&res, "auth.session").unwrap());
            let complete = location(&res);
            let basics = format!("from=complete&gender=male&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem&profile={anna_id}&then={then}");
            let res = app.form("save_basics", &basics, &complete, &[("origin", origin), ("cookie", &cookie)]).await;
            (complete, location(&res), cookie)
        }
    };
    let likes_of_anna = || async {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM likes WHERE liked_id = $1").bind(anna_id).fetch_one(app.state.db.pool()).await.unwrap();
        n
    };

    // Like: given when the basics are saved, the profile says so.
    let (complete, back, cookie) = sign_up("like").await;
    assert_eq!(complete, format!("/complete-signup?profile={anna_id}&then=like"));
    assert_eq!(back, format!("/members/{anna_id}?welcome=1"));
    assert_eq!(likes_of_anna().await, 1);
    let (_, _, html) = app.get(&back, &[("cookie", &cookie)]).await;
    assert!(html.contains("Je vindt Anna leuk."), "the like is shown");
    // Message and gift: the chat with Anna (for a gift with its picker open), nothing liked.
    for (then, chat) in [("message", format!("/members/{anna_id}/chat")), ("gift", format!("/members/{anna_id}/chat?gift=1"))] {
        let (complete, back, cookie) = sign_up(then).await;
        assert_eq!((complete, back.clone()), (format!("/complete-signup?profile={anna_id}&then={then}"), chat));
        let (status, _, html) = app.get(&back, &[("cookie", &cookie), ("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(html.contains(r#"gift_picker\&quot;:true"#), then == "gift", "{then}: the picker opens for a gift only");
    }
    // Anything else: the welcome on the profile, as without an action.
    let (complete, back, _) = sign_up("unlike").await;
    assert_eq!((complete, back), (format!("/complete-signup?profile={anna_id}"), format!("/members/{anna_id}?welcome=1")));
    assert_eq!(likes_of_anna().await, 1);
}
