//! Landers rendered on the server.

use super::*;

#[tokio::test]
async fn landers_render_on_the_server_and_send_slugs_to_the_sites_prefix() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "60")]).await;
    // Half the members have no photo (new signups): the landers show those with one first.
    sqlx::query("UPDATE profiles SET main_photo = NULL, main_thumb = NULL WHERE user_id % 2 = 0").execute(app.state.db.pool()).await.unwrap();
    // Every design renders itself before any script runs: the headline, members and the way to
    // signup in the boxes its widget draws, styled by the widgets' stylesheet in the head. Only
    // the swipe stack hosts its widget.
    let clip = app.state.config.data_dir.join("media").join(server::landers::CLIP_PATH);
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
        assert!(html.contains(r#"data-testid="lander-fallback""#) && html.contains(r#"class="vw-lander vw-lander--"#), "{route}");
        assert!(html.contains(&format!("<h1 class=\"vw-lander__headline\">{headline}</h1>")), "{route}");
        assert!(html.contains(&format!(r#"data-design="{route}""#)), "{route}");
        let head = &html[..html.find("</head>").unwrap()];
        assert!(!head.contains("vonk-widgets.css"), "{route}: one stylesheet (the site's imports the designs')");
        let hosts = route == "tinderswipe";
        assert_eq!(html.contains(&format!(r#"data-widget="{widget}""#)), hosts, "{route} hosts its widget only when it has something to do");
        assert!(html.contains(r#"href="/signup" data-signup-link="""#), "{route} leads to signup");
        assert!(html.contains("/signup\" data-signup-link") && html.contains("/media/public/demo/female-"), "{route} shows members");
        assert!(!html.contains("vw-lander__initial"), "{route}: members with a photo come first");
        assert!(html.contains(r#"class="lander-header""#) && html.contains(r#"data-testid="signup-modal""#), "{route}: lander layout with the signup modal");
        assert!(!html.contains("topbar__signup"), "{route}: the small lander header, not the top bar");
    }
    // The gallery's first row is fetched at once and first; the rest when scrolled to. Every
    // portrait has its size, so nothing moves when it arrives.
    let (_, _, html) = app.get("/landers/gallery", &[]).await;
    let images: Vec<&str> = html.split("<img ").skip(1).filter(|i| i.contains("vw-lander__tile-photo")).map(|i| &i[..i.find('>').unwrap()]).collect();
    assert_eq!(images.len(), 12, "{images:?}");
    for (i, img) in images.iter().enumerate() {
        assert!(img.contains(r#"width="240""#) && img.contains(r#"height="240""#), "{img}");
        assert_eq!(img.contains(r#"loading="eager""#) && img.contains(r#"fetchpriority="high""#), i < 4, "{i}: {img}");
        assert_eq!(img.contains(r#"loading="lazy""#), i >= 4, "{i}: {img}");
    }
    // The demo portraits go as WebP to browsers that take it, as JPEG to the others.
    let portrait = images[0].split("src=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().to_string();
    assert!(portrait.starts_with("/media/public/demo/") && portrait.ends_with(".jpg"), "{portrait}");
    let (status, headers, _) = app.get(&portrait, &[("accept", "image/avif,image/webp,*/*;q=0.8")]).await;
    assert_eq!((status, headers["content-type"].to_str().unwrap()), (StatusCode::OK, "image/webp"));
    assert_eq!(headers["vary"], "Accept");
    let (status, headers, _) = app.get(&portrait, &[("accept", "image/png,image/*;q=0.8")]).await;
    assert_eq!((status, headers["content-type"].to_str().unwrap()), (StatusCode::OK, "image/jpeg"));
    assert_eq!(headers["vary"], "Accept");
    // The title and description are in the head every time (they come from blocking data).
    for _ in 0..8 {
        let (_, _, html) = app.get("/landers/gallery", &[]).await;
        assert!(html.contains("<title>Ontdek wie er bij jou in de buurt is | Vonk</title>"), "{}", &html[..html.find("</head>").unwrap_or(0)]);
        assert!(html.contains(r#"<meta name="description" content="Echte profielen met foto’s."#));
    }
    // The video landers show the clip's poster; a few lines of script load the clip once the page is there.
    let (_, _, html) = app.get("/landers/video", &[]).await;
    if clip.exists() {
        let video = &html[html.find("<video ").unwrap()..];
        let video = &video[..video.find('>').unwrap()];
        assert!(video.contains(r#"poster="/media/public/demo/"#) && video.contains(r#"preload="none""#) && !video.contains(" src="), "{video}");
        assert!(video.contains(r#"data-clip-src="/media/public/demo/lander-clip.webm""#), "{video}");
        assert!(html.contains("video[data-clip-src]"), "the script that starts it after load");
        let (status, headers, _) = app.get("/media/public/demo/lander-clip.webm", &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers.get("content-type").unwrap(), "video/webm");
    }
    // ?t=N mounts the widget for the like popup.
    let (_, _, html) = app.get("/landers/gallery?t=5", &[]).await;
    assert!(html.contains(r#"data-widget="GalleryLanding""#));
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
        let featured = &html[html.find(r#"class="vw-lander__featured""#).unwrap()..];
        assert!(featured[..featured.find("</a>").unwrap()].contains(r#"src="/media/public/demo/"#), "{kind}: the member's photo");
        let (status, headers, _) = app.get(&format!("/members/{id}/{kind}/she-utrecht"), &[("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::MOVED_PERMANENTLY);
        assert_eq!(headers.get("location").unwrap().to_str().unwrap(), format!("/members/{id}/{kind}/milf-utrecht"));
    }
    let (status, _, _) = app.get("/members/999999/landing2", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = app.get(&format!("/members/{id}/landing4"), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_landing_counts_one_visit_per_visitor_and_a_signup_keeps_where_it_came_from() {
    let app = start().await;
    let phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
    // Visits are written after the page went out: each count waits for those writes first.
    let visits = |app: &TestApp| {
        let (pool, written) = (app.state.db.pool().clone(), app.state.visits.clone());
        async move {
            written.settled().await;
            let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM visits").fetch_one(&pool).await.unwrap();
            n
        }
    };
    let url = "/landers/gallery/zomer?network=banners&sub1=b7&clickid=klik-42&ref=%3Cscript%3E";
    // Bots, scripts and prefetches count nothing and get no cookie.
    for headers in [vec![("user-agent", "Googlebot/2.1")], vec![], vec![("user-agent", phone), ("sec-purpose", "prefetch")]] {
        let (status, answer, _) = app.get(url, &headers).await;
        assert_eq!(status, StatusCode::OK);
        assert!(answer.get_all("set-cookie").iter().all(|c| !c.to_str().unwrap().starts_with("vonk_visitor=")));
    }
    assert_eq!(visits(&app).await, 0);
    // A person's phone: a visitor cookie (HttpOnly, a year) and one visit, however often.
    let (_, answer, _) = app.get(url, &[("user-agent", phone)]).await;
    let set = answer.get_all("set-cookie").iter().map(|c| c.to_str().unwrap().to_string()).find(|c| c.starts_with("vonk_visitor=")).expect("a visitor cookie");
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.contains("Max-Age=31536000"), "{set}");
    let visitor = set.trim_start_matches("vonk_visitor=").split(';').next().unwrap().to_string();
    let cookie = format!("vonk_visitor={visitor}");
    for _ in 0..3 {
        app.get(url, &[("user-agent", phone), ("cookie", &cookie)]).await;
    }
    assert_eq!(visits(&app).await, 1);
    app.state.visits.settled().await;
    let row: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT 'page', page FROM visits UNION ALL SELECT 'lander', lander FROM visits UNION ALL SELECT 'network', network FROM visits \
         UNION ALL SELECT 'click', click_id FROM visits UNION ALL SELECT 'device', device FROM visits UNION ALL SELECT 'ip', ip_prefix FROM visits \
         UNION ALL SELECT 'ref', ref FROM visits",
    )
    .fetch_all(app.state.db.pool())
    .await
    .unwrap();
    let got: std::collections::HashMap<String, Option<String>> = row.into_iter().collect();
    let expected = [
        ("page", "lander"),
        ("lander", "gallery"),
        ("network", "banners"),
        ("click", "klik-42"),
        ("device", "mobile"),
        ("ip", "127.0.0.0/24"),
        ("ref", "<script>"),
    ];
    for (field, value) in expected {
        assert_eq!(got[field].as_deref(), Some(value), "{field}");
    }
    // Pages that are no landing count nothing.
    app.get("/pricing", &[("user-agent", phone), ("cookie", &cookie)]).await;
    assert_eq!(visits(&app).await, 1);
    // The visitor signs up later from the plain signup page: counted for the lander's source.
    let body = "email=lander%40example.nl&name=Lana&password=rode+kater+op+het+dak&date_of_birth=1990-05-17&signup_message=";
    let res = app.form("signup", body, "/signup", &[("origin", &app.origin()), ("cookie", &cookie), ("user-agent", phone)]).await;
    assert_eq!(res.headers()["location"], "/complete-signup");
    let (network, sub1): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT tracking_network, tracking_sub1 FROM users WHERE email = 'lander@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!((network.as_deref(), sub1.as_deref()), (Some("banners"), Some("b7")));
    let (touches,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM signup_touches").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(touches, 2, "first and last touch kept");
    // A member on the members page is no landing visitor.
    let member = format!("auth.session={}", cookie_value(&res, "auth.session").unwrap());
    app.get("/members", &[("user-agent", phone), ("cookie", &member)]).await;
    assert_eq!(visits(&app).await, 1);
}

#[tokio::test]
async fn finance_split_a_landers_traffic_and_each_visitor_keeps_the_design_they_were_shown() {
    let app = start().await;
    let origin = app.origin();
    let phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
    let fin = ready_member(&app, "geld@example.nl", "male").await;
    grant_staff(&app, "geld@example.nl", domain::staff::StaffRole::Finance).await;
    let support = ready_member(&app, "help@example.nl", "male").await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    let page = "/staff/figures/tests";
    let (status, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Splittests van landers") && html.contains(r#"data-testid="tests-none""#));
    for who in [&support, ""] {
        let (status, _, _) = app.get(page, &[("cookie", who), ("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "404 to support and visitors");
    }
    let design = |html: &str| {
        let at = html.find(r#"data-design=""#).unwrap_or_else(|| panic!("a lander: {html}")) + r#"data-design=""#.len();
        html[at..at + html[at..].find('"').unwrap()].to_string()
    };
    let (_, _, before) = app.get("/landers/gallery/zomer", &[("user-agent", phone)]).await;
    assert_eq!(design(&before), "gallery");

    // Refused: markup for a name (kept as text on the page it comes back to), one design, a
    // weight out of range, support; nothing stored.
    let form = |name: &str, d2: &str, w2: &str| {
        format!("name={name}&lander=gallery&design_1=gallery&weight_1=50&design_2={d2}&weight_2={w2}&design_3=&weight_3=&design_4=&weight_4=")
    };
    let res = app.form("staff_split_start", &form("%3Cb%3Ex%3C%2Fb%3E", "video", "50"), page, &[("origin", &origin), ("cookie", &fin)]).await;
    let (error, back) = refusal(&res, "staff_split_start");
    assert_eq!(error.code, domain::ErrorCode::SplitNameInvalid);
    let (_, html) = app.follow(&res, &fin).await;
    assert!(html.contains("Gebruik kleine letters, cijfers en streepjes, hooguit 40 tekens.") && !html.contains("<b>x</b>"), "{back}");
    for (body, code) in [
        (form("lente", "", ""), domain::ErrorCode::SplitDesignsInvalid),
        (form("lente", "video", "101"), domain::ErrorCode::SplitWeightInvalid),
        (form("lente", "%3Cscript%3E", "5"), domain::ErrorCode::SplitDesignsInvalid),
    ] {
        let res = app.form("staff_split_start", &body, page, &[("origin", &origin), ("cookie", &fin)]).await;
        assert_eq!(refusal(&res, "staff_split_start").0.code, code, "{body}");
    }
    let res = app.form("staff_split_start", &form("lente", "video", "50"), page, &[("origin", &origin), ("cookie", &support)]).await;
    assert!(location(&res).contains("__err"));
    let res = app.form("staff_split_start", "name=lente", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert!(!res.status().is_server_error(), "a form without its fields");
    let (tests,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM split_tests").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(tests, 0);

    // Started: new visitors are shown either design, and keep theirs.
    let res = app.form("staff_split_start", &form("lente", "video", "50"), page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert_eq!(location(&res), format!("{page}?started=1"));
    let mut shown = std::collections::HashMap::new();
    for _ in 0..24 {
        let (status, answer, html) = app.get("/landers/gallery/zomer?network=banners", &[("user-agent", phone)]).await;
        assert_eq!(status, StatusCode::OK);
        let visitor = cookie_value_of(&answer, "vonk_visitor").expect("a visitor cookie from the first page");
        let first = design(&html);
        for _ in 0..2 {
            let (_, _, again) = app.get("/landers/gallery/zomer", &[("user-agent", phone), ("cookie", &format!("vonk_visitor={visitor}"))]).await;
            assert_eq!(design(&again), first, "a visitor keeps their design");
        }
        shown.insert(first, visitor);
    }
    assert_eq!(shown.len(), 2, "both designs shown: {:?}", shown.keys());
    // Other landers are not under test; bots get a design and no cookie.
    let (_, _, map) = app.get("/landers/maplanding", &[("user-agent", phone)]).await;
    assert_eq!(design(&map), "maplanding");
    let (_, answer, _) = app.get("/landers/gallery", &[("user-agent", "Googlebot/2.1")]).await;
    assert!(cookie_value_of(&answer, "vonk_visitor").is_none());
    app.state.visits.settled().await;
    let variants: Vec<(String,)> =
        sqlx::query_as("SELECT DISTINCT variant FROM visits WHERE variant IS NOT NULL ORDER BY variant").fetch_all(app.state.db.pool()).await.unwrap();
    assert_eq!(variants, vec![("lente:gallery".to_string(),), ("lente:video".to_string(),)]);

    // The page shows the test with a row per design; stopping it gives the lander back.
    let (_, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert_eq!(html.matches(r#"data-testid="variant""#).count(), 2);
    assert!(html.contains("Nog geen duidelijke winnaar"));
    let (id,): (i64,) = sqlx::query_as("SELECT id FROM split_tests").fetch_one(app.state.db.pool()).await.unwrap();
    let res = app.form("staff_split_stop", &format!("id={id}"), page, &[("origin", &origin), ("cookie", &support)]).await;
    assert!(location(&res).contains("__err"), "support cannot stop it");
    let res = app.form("staff_split_stop", "id=abc", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert!(!res.status().is_server_error());
    let res = app.form("staff_split_stop", &format!("id={id}"), page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert_eq!(location(&res), format!("{page}?stopped=1"));
    let visitor = &shown["video"];
    let (_, _, html) = app.get("/landers/gallery/zomer", &[("user-agent", phone), ("cookie", &format!("vonk_visitor={visitor}"))]).await;
    assert_eq!(design(&html), "gallery");
    let (logged,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action IN ('split_started', 'split_stopped')").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(logged, 2);
}

#[tokio::test]
async fn finance_test_a_bundles_price_and_each_member_pays_the_price_they_were_shown() {
    let app = start().await;
    let origin = app.origin();
    let fin = ready_member(&app, "geld@example.nl", "male").await;
    grant_staff(&app, "geld@example.nl", domain::staff::StaffRole::Finance).await;
    let support = ready_member(&app, "help@example.nl", "male").await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    let page = "/staff/figures/tests";
    let site = app.state.sites.for_host(None).unwrap().settings.id;
    let pack = app.state.payments.packs(site, "NL").await.unwrap().into_iter().find(|p| p.credits == 60).unwrap();
    let (low, high) = (pack.price_minor - 500, pack.price_minor + 500);
    let shown = |minor: i64| domain::site::format_money(minor, "EUR", true);
    let (_, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert!(html.contains(r#"data-testid="form-price-test""#) && html.contains("Nieuwe prijstest"));
    assert!(html.contains(&format!(r#"<option value="{}""#, pack.id)), "the bundles to choose from");

    // Refused: markup for a name or a price, one price, a bundle that is not a number or not
    // the site's, support; nothing stored.
    let form = |name: &str, pack: &str, p1: &str, p2: &str| {
        format!("name={name}&pack={pack}&price_1={p1}&weight_1=50&price_2={p2}&weight_2=50&price_3=&weight_3=&price_4=&weight_4=")
    };
    let (p1, p2) = (domain::money::form_value(low), domain::money::form_value(high));
    let id = pack.id.to_string();
    let res = app.form("staff_price_test_start", &form("%3Cb%3Ex%3C%2Fb%3E", &id, &p1, &p2), page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert_eq!(refusal(&res, "staff_price_test_start").0.code, domain::ErrorCode::SplitNameInvalid);
    let (_, html) = app.follow(&res, &fin).await;
    assert!(!html.contains("<b>x</b>"), "the name comes back as text");
    for (body, code) in [
        (form("duur", &id, &p1, "%3Cscript%3E"), domain::ErrorCode::SplitPricesInvalid),
        (form("duur", &id, &p1, ""), domain::ErrorCode::SplitPricesInvalid),
        (form("duur", &id, &p1, &p1), domain::ErrorCode::SplitPricesInvalid),
        (form("duur", "abc", &p1, &p2), domain::ErrorCode::BadRequest),
        (form("duur", "999999", &p1, &p2), domain::ErrorCode::BadRequest),
    ] {
        let res = app.form("staff_price_test_start", &body, page, &[("origin", &origin), ("cookie", &fin)]).await;
        assert_eq!(refusal(&res, "staff_price_test_start").0.code, code, "{body}");
    }
    let res = app.form("staff_price_test_start", &form("duur", &id, &p1, &p2), page, &[("origin", &origin), ("cookie", &support)]).await;
    assert!(location(&res).contains("__err"));
    let res = app.form("staff_price_test_start", "name=duur", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert!(!res.status().is_server_error(), "a form without its fields");
    let (tests,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM split_tests").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(tests, 0);

    let res = app.form("staff_price_test_start", &form("duur", &id, &p1, &p2), page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert_eq!(location(&res), format!("{page}?started=1"));
    let (_, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert_eq!(html.matches(r#"data-testid="variant""#).count(), 2);
    assert!(html.contains(&shown(low)) && html.contains(&shown(high)) && html.contains("Omzet per lid"));

    // Visitors on /pricing: each cookie keeps its price; both prices are shown.
    let mut by_price = std::collections::HashMap::new();
    for n in 0..40 {
        let visitor = format!("vonk_visitor={n:0>64}");
        let (status, _, html) = app.get("/pricing", &[("cookie", &visitor)]).await;
        assert_eq!(status, StatusCode::OK);
        let price = if html.contains(&shown(low)) { low } else { high };
        assert!(html.contains(&shown(price)) && !html.contains(&shown(low + high - price)), "one price per visitor");
        let (_, _, again) = app.get("/pricing", &[("cookie", &visitor)]).await;
        assert!(again.contains(&shown(price)));
        by_price.entry(price).or_insert(visitor);
    }
    assert_eq!(by_price.len(), 2);

    // A member who saw the low price as a visitor sees it on /credits, and keeps it in another
    // browser; their checkout is for it.
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let (_, _, credits) = app.get("/credits", &[("cookie", &format!("{anna}; {}", by_price[&low]))]).await;
    assert!(credits.contains(&shown(low)) && !credits.contains(&shown(high)), "the member's price on /credits");
    let (_, _, other) = app.get("/credits", &[("cookie", &format!("{anna}; {}", by_price[&high]))]).await;
    assert!(other.contains(&shown(low)) && !other.contains(&shown(high)), "kept in another browser");
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let member = app.state.accounts.member(anna_id).await.unwrap().unwrap();
    let quote = app.state.payments.quote(&app.state.sites.for_host(None).unwrap(), &member, pack.id, None, "NL", app.state.clock.now()).await.unwrap();
    assert_eq!(quote.list_price, low);
}
