//! Likes, matches, the swipe game, the match finder, notifications and auto-likes.

use super::*;

#[tokio::test]
async fn likes_tabs_are_paged() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "60")]).await;
    let origin = app.origin();
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let card_ids = |html: &str| -> Vec<i64> { html.split(r#"<li id="m-"#).skip(1).map(|rest| rest.split('"').next().unwrap().parse().unwrap()).collect() };
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
    assert!(
        html.contains(r#"action="/api/fn/unlike""#) && html.contains(&format!(r#"form="card-unlike-form" name="id" value="{anna_id}""#)),
        "a match's heart takes the like back"
    );
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
    // The server draws the game's first state itself: the top card (Anna, the only one) with its
    // place and profile link, and the likes left, before any script runs.
    let first = &html[html.find(r#"data-testid="swipe-first""#).expect("the first state")..];
    let first = &first[..first.find(r#"data-widget="SwipeGame""#).unwrap()];
    assert!(first.contains("Nog 4 likes vandaag") && first.contains(r#"<p class="vw-swipe__place">Haarlem"#), "{first}");
    assert!(first.contains(r#"class="vw-swipe__button vw-swipe__button--like""#), "{first}");
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
    assert!(
        html.contains(r#"action="/api/fn/like""#)
            && html.contains(&format!(r#"form="card-like-form" name="id" value="{anna_id}""#))
            && html.contains(r#"aria-pressed="false""#),
        "a like button on the card"
    );

    // Counters need a session.
    let res = app.call("counts", "", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.text().await.unwrap(), r#"{"code":"authentication_required"}"#);

    // Bart likes Anna from a search card (what the heart sends) and comes back to the same card.
    let body = format!("source=search&return_to=%2Fmembers%3Fgender%3Dfemale&card=true&id={anna_id}");
    let res = app.form("like", &body, "/members?gender=female", &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(location(&res), format!("/members?gender=female&liked={anna_id}#m-{anna_id}"));
    let (_, _, html) = app.get(&format!("/members?gender=female&liked={anna_id}"), &[("cookie", &bart)]).await;
    assert!(
        html.contains("Je vindt Anna leuk")
            && html.contains(&format!(r#"form="card-unlike-form" name="id" value="{anna_id}""#))
            && html.contains(r#"aria-pressed="true""#)
    );
    assert!(wait_for_mail(&app, &format!("/likes/m/{bart_id}")).await, "Anna is mailed about the like");
    // A card's HTML is kept for everyone who sees it alike: Carl sees Anna's card with his own
    // (empty) heart, Bart his full one, a visitor none, whoever asked first.
    let card = |html: &str| {
        let start = html.find(&format!(r#"id="m-{anna_id}""#)).expect("Anna's card");
        html[start..start + html[start..].find("</li>").unwrap()].to_string()
    };
    let (_, _, html) = app.get("/members?gender=female", &[("cookie", &carl)]).await;
    let carls = card(&html);
    assert!(carls.contains(r#"form="card-like-form""#) && carls.contains(r#"aria-pressed="false""#), "{carls}");
    let (_, _, html) = app.get("/members?gender=female", &[("cookie", &bart)]).await;
    let barts = card(&html);
    assert!(barts.contains(r#"form="card-unlike-form""#) && barts.contains(r#"aria-pressed="true""#), "{barts}");
    let (_, _, html) = app.get("/members?gender=female", &[]).await;
    assert!(!card(&html).contains("aria-pressed"), "no heart for visitors");

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
    let res = app
        .form(
            "like_many",
            &format!("return_to=%2Fmatch-finder&ids%5B{bart_id}%5D=on"),
            "/match-finder",
            &[("origin", "https://evil.example"), ("cookie", &anna)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.form("like_many", "return_to=%2Fmatch-finder", "/match-finder", &[("origin", &origin), ("cookie", &anna)]).await;
    let (error, page) = refusal(&res, "like_many");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::NoneChosen, "/match-finder"));
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("Kies minstens één profiel om te liken."));
    assert!(html.contains(&bart_box), "nothing was liked");
    let res = app
        .form(
            "like_many",
            &format!("return_to=%2Fmatch-finder&ids%5B{bart_id}%5D=on&ids%5B999999%5D=on"),
            "/match-finder",
            &[("origin", &origin), ("cookie", &anna)],
        )
        .await;
    let back = location(&res);
    assert_eq!(back, format!("/match-finder?liked_many=1&match={bart_id}"));
    let (_, _, html) = app.get(&back, &[("cookie", &anna)]).await;
    assert!(html.contains(r#"data-testid="match-dialog""#) && html.contains("Je hebt 1 lid geliket"));
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
    let start = html.find(r#"data-testid="older-notifications""#).and_then(|_| html.find(r#"href="/notifications?before="#)).expect("a link to older ones")
        + r#"href=""#.len();
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
