//! Likes on SQLite and PostgreSQL: like and unlike, matches, new-like flags, the swipe game's
//! daily allowance with a settable clock, block interplay, and what each member may like.

use crate::support;

use domain::account::Ymd;
use domain::likes::{LikeKind, LikeSource, SWIPE_WINDOW_SECS};
use domain::ErrorCode;
use server::likes::{LikeState, Likes};
use server::Db;
use support::world::{world, NOW};

fn today() -> Ymd {
    Ymd::from_unix(NOW)
}

on_both_databases!(a_like_back_is_a_match_and_new_likes_come_first, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;

    assert!(!likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW).await.unwrap().matched);
    assert!(!likes.like(&w.site, &carl, anna.id, LikeSource::Search, NOW + 10).await.unwrap().matched);
    // Liking twice changes nothing.
    assert!(!likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW + 20).await.unwrap().matched);
    assert_eq!(likes.new_likes(anna.id).await.unwrap(), 2);

    // Anna opens Bart's profile: his like is no longer new, and comes after Carl's new one.
    likes.mark_seen(anna.id, bart.id).await.unwrap();
    assert_eq!(likes.new_likes(anna.id).await.unwrap(), 1);
    let received = likes.list(&w.site, anna.id, LikeKind::Received, today(), 50, 0).await.unwrap();
    assert_eq!(received.iter().map(|l| (l.card.id, l.new)).collect::<Vec<_>>(), vec![(carl.id, true), (bart.id, false)]);
    assert!(received.iter().all(|l| !l.liked_back), "not liked back yet");

    // Anna likes Bart back: a match for both.
    assert!(likes.like(&w.site, &anna, bart.id, LikeSource::Profile, NOW + 30).await.unwrap().matched);
    assert_eq!(likes.state(anna.id, bart.id).await.unwrap(), LikeState { i_liked: true, they_liked: true });
    let received = likes.list(&w.site, anna.id, LikeKind::Received, today(), 50, 0).await.unwrap();
    assert_eq!(received.iter().map(|l| (l.card.id, l.liked_back)).collect::<Vec<_>>(), vec![(carl.id, false), (bart.id, true)], "the heart of a received like");
    let ids = |v: Vec<server::likes::LikedCard>| v.into_iter().map(|l| l.card.id).collect::<Vec<_>>();
    assert_eq!(ids(likes.list(&w.site, anna.id, LikeKind::Matches, today(), 50, 0).await.unwrap()), vec![bart.id]);
    assert_eq!(ids(likes.list(&w.site, bart.id, LikeKind::Matches, today(), 50, 0).await.unwrap()), vec![anna.id]);
    assert_eq!(ids(likes.list(&w.site, anna.id, LikeKind::Given, today(), 50, 0).await.unwrap()), vec![bart.id]);
    assert!(likes.list(&w.site, carl.id, LikeKind::Matches, today(), 50, 0).await.unwrap().is_empty());

    // Unliking ends the match.
    likes.unlike(anna.id, bart.id).await.unwrap();
    assert!(likes.list(&w.site, bart.id, LikeKind::Matches, today(), 50, 0).await.unwrap().is_empty());
    assert_eq!(likes.state(bart.id, anna.id).await.unwrap(), LikeState { i_liked: true, they_liked: false });
});

on_both_databases!(likes_pages_follow_each_other_without_repeating_or_skipping, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    // 30 likes, most at the same second (ties are where offset pages repeat or skip cards).
    let mut likers = Vec::new();
    for i in 0..30 {
        let m = w.member(&format!("liker{i}@example.nl"), "male").await;
        likes.like(&w.site, &m, anna.id, LikeSource::Profile, NOW + (i / 10)).await.unwrap();
        likes.like(&w.site, &anna, m.id, LikeSource::Search, NOW + (i / 10)).await.unwrap();
        likers.push(m.id);
    }
    // Anna has looked at five of them: those come after the new ones.
    for id in &likers[..5] {
        likes.mark_seen(anna.id, *id).await.unwrap();
    }
    for kind in LikeKind::ALL {
        let first = likes.list(&w.site, anna.id, kind, today(), 24, 0).await.unwrap();
        let second = likes.list(&w.site, anna.id, kind, today(), 24, 24).await.unwrap();
        assert_eq!((first.len(), second.len()), (24, 6), "{kind:?}");
        let mut ids: Vec<i64> = first.iter().chain(&second).map(|l| l.card.id).collect();
        let whole: Vec<i64> = likes.list(&w.site, anna.id, kind, today(), 100, 0).await.unwrap().iter().map(|l| l.card.id).collect();
        assert_eq!(ids, whole, "{kind:?}: two pages are the whole list in the same order");
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 30, "{kind:?}: no card twice");
        assert!(likes.list(&w.site, anna.id, kind, today(), 24, 48).await.unwrap().is_empty());
        assert!(first.iter().chain(&second).all(|l| l.liked_back), "{kind:?}: Anna liked each back");
    }
    let received = likes.list(&w.site, anna.id, LikeKind::Received, today(), 100, 0).await.unwrap();
    assert!(received[..25].iter().all(|l| l.new) && received[25..].iter().all(|l| !l.new), "new likes first, on whichever page");
});

on_both_databases!(blocking_removes_likes_and_refuses_new_ones, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW).await.unwrap();
    likes.like(&w.site, &anna, bart.id, LikeSource::Profile, NOW).await.unwrap();
    w.members.block(&w.site, anna.id, bart.id, NOW).await.unwrap();
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM likes").fetch_one(w.db.pool()).await.unwrap();
    assert_eq!(n, 0, "likes both ways are gone");
    assert!(likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::BlockedByMember));
    assert!(likes.like(&w.site, &anna, bart.id, LikeSource::Profile, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert_eq!(likes.new_likes(anna.id).await.unwrap(), 0);
});

on_both_databases!(only_visible_members_of_the_site_can_be_liked, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    assert!(likes.like(&w.site, &anna, anna.id, LikeSource::Profile, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert!(likes.like(&w.site, &anna, 999_999, LikeSource::Profile, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    w.accounts.set_invisible(bart.id, true).await.unwrap();
    assert!(likes.like(&w.site, &anna, bart.id, LikeSource::Profile, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    // A like from someone who turned invisible does not show or count.
    w.accounts.set_invisible(bart.id, false).await.unwrap();
    likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW).await.unwrap();
    w.accounts.set_invisible(bart.id, true).await.unwrap();
    assert_eq!(likes.new_likes(anna.id).await.unwrap(), 0);
    assert!(likes.list(&w.site, anna.id, LikeKind::Received, today(), 50, 0).await.unwrap().is_empty());
});

on_both_databases!(free_members_swipe_four_likes_a_day, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let bart = w.member("bart@example.nl", "male").await;
    let mut women = Vec::new();
    for i in 0..7 {
        women.push(w.member(&format!("w{i}@example.nl"), "female").await);
    }
    for (i, woman) in women.iter().take(4).enumerate() {
        likes.like(&w.site, &bart, woman.id, LikeSource::Swipe, NOW + i as i64 * 60).await.unwrap();
    }
    let later = NOW + 3600;
    match likes.like(&w.site, &bart, women[4].id, LikeSource::Swipe, later).await {
        Err(e) if e.code() == ErrorCode::DailyLikesUsed => assert_eq!(e.refusal().unwrap().arg_i64("next_at"), Some(NOW + SWIPE_WINDOW_SECS)),
        other => panic!("expected the daily limit, got {other:?}"),
    }
    let allowance = likes.allowance(&bart, later).await.unwrap();
    assert_eq!((allowance.remaining, allowance.next_at), (Some(0), Some(NOW + SWIPE_WINDOW_SECS)));
    // Likes from a profile page do not count against the game.
    likes.like(&w.site, &bart, women[5].id, LikeSource::Profile, later).await.unwrap();
    // A day after the first swipe, one more fits.
    likes.like(&w.site, &bart, women[4].id, LikeSource::Swipe, NOW + SWIPE_WINDOW_SECS).await.unwrap();
    // Premium members have no allowance.
    let bart = w.make_premium(bart.id).await;
    likes.like(&w.site, &bart, women[6].id, LikeSource::Swipe, NOW + SWIPE_WINDOW_SECS + 1).await.unwrap();
    assert_eq!(likes.allowance(&bart, NOW + SWIPE_WINDOW_SECS + 1).await.unwrap().remaining, None);
});

on_both_databases!(swipe_candidates_fit_and_leave_out_liked_and_passed, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let bart = w.member("bart@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    let mut women = Vec::new();
    for i in 0..3 {
        women.push(w.member(&format!("w{i}@example.nl"), "female").await);
    }
    let ids = |cards: Vec<domain::search::MemberCard>| cards.into_iter().map(|c| c.id).collect::<Vec<_>>();
    let all = ids(likes.swipe_candidates(&w.site, bart.id, &["female"], NOW, today(), 50).await.unwrap());
    assert_eq!(all.len(), 3);
    assert!(!all.contains(&carl.id) && !all.contains(&bart.id), "only the genders asked for, never oneself");
    likes.like(&w.site, &bart, women[0].id, LikeSource::Swipe, NOW).await.unwrap();
    likes.pass(bart.id, women[1].id, NOW).await.unwrap();
    w.members.block(&w.site, women[2].id, bart.id, NOW).await.unwrap();
    assert!(likes.swipe_candidates(&w.site, bart.id, &["female"], NOW, today(), 50).await.unwrap().is_empty());
    // A pass lasts a week.
    let later = NOW + 8 * 86_400;
    assert_eq!(ids(likes.swipe_candidates(&w.site, bart.id, &["female"], later, today(), 50).await.unwrap()), vec![women[1].id]);
});
