//! Notifications, like mails, auto-likes and the match finder on SQLite and PostgreSQL: what each
//! member is told (and nobody else), read state, blocks, mail preferences and spacing, the
//! auto-like policy with a settable clock, and suggestions that fit both ways.

use crate::support;

use domain::account::Ymd;
use domain::likes::LikeSource;
use domain::notifications::{AutoLikePolicy, NotificationKind, LIKE_MAIL_GAP_SECS};
use server::accounts::{Member, NotificationPrefs};
use server::likes::Likes;
use server::notifications::Notifications;
use server::Db;
use support::world::{world, World, NOW};

fn today() -> Ymd {
    Ymd::from_unix(NOW)
}

/// Mails to an address, with quoted-printable line breaks undone.
fn mails_to(w: &World, address: &str) -> Vec<String> {
    let mut list: Vec<String> = std::fs::read_dir(w.mail.path())
        .map(|d| d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap().replace("=\r\n", "").replace("=3D", "=")).collect())
        .unwrap_or_default();
    list.retain(|m| m.contains(&format!("To: {address}")));
    list
}

fn kinds(list: &[server::notifications::NotificationItem]) -> Vec<(NotificationKind, Option<i64>, bool)> {
    list.iter().map(|n| (n.kind, n.actor.as_ref().map(|a| a.id), n.read)).collect()
}

/// Turns a member into an operator-run profile (as the demo seed makes them).
async fn make_fictional(w: &World, m: &Member) {
    sqlx::query("UPDATE users SET fictional = $1 WHERE id = $2").bind(true).bind(m.id).execute(w.db.pool()).await.unwrap();
    sqlx::query("UPDATE profiles SET fictional = $1 WHERE user_id = $2").bind(true).bind(m.id).execute(w.db.pool()).await.unwrap();
}

on_both_databases!(likes_and_matches_notify_only_the_members_concerned, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let notes = Notifications::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    // Every new member starts with the welcome notice.
    assert_eq!(kinds(&notes.list(anna.id, today(), 50).await.unwrap()), vec![(NotificationKind::Welcome, None, false)]);
    notes.mark_read_through(anna.id, i64::MAX, NOW).await.unwrap();
    notes.mark_read_through(bart.id, i64::MAX, NOW).await.unwrap();

    likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW + 10).await.unwrap();
    likes.like(&w.site, &carl, anna.id, LikeSource::Search, NOW + 20).await.unwrap();
    // A repeated like tells no one again.
    assert!(!likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW + 30).await.unwrap().new);
    assert_eq!(notes.unread(anna.id).await.unwrap(), 2);
    assert_eq!(w.reload(anna.id).await.counters.notifications, 2);
    let list = notes.list(anna.id, today(), 50).await.unwrap();
    assert_eq!(&kinds(&list)[..2], &[(NotificationKind::Like, Some(carl.id), false), (NotificationKind::Like, Some(bart.id), false)]);
    // Bart is told nothing about Carl's like, and has nothing unread.
    assert_eq!(notes.unread(bart.id).await.unwrap(), 0);

    // Anna likes Bart back: a match, told to both.
    let outcome = likes.like(&w.site, &anna, bart.id, LikeSource::Profile, NOW + 40).await.unwrap();
    assert!(outcome.matched && outcome.new);
    assert_eq!(kinds(&notes.list(bart.id, today(), 50).await.unwrap())[0], (NotificationKind::Match, Some(anna.id), false));
    assert_eq!(kinds(&notes.list(anna.id, today(), 50).await.unwrap())[0], (NotificationKind::Match, Some(bart.id), false));

    // Reading is per member: Anna's reading leaves Bart's unread. What she read is what her
    // page showed: a notification newer than its newest stays new.
    let shown = notes.list(anna.id, today(), 50).await.unwrap();
    let (newest, older) = (shown[0].id, shown[1].id);
    assert_eq!(notes.mark_read_through(anna.id, older, NOW + 50).await.unwrap(), 2);
    assert_eq!(notes.unread(anna.id).await.unwrap(), 1, "the match arrived after that page");
    assert_eq!(notes.mark_read_through(anna.id, newest, NOW + 50).await.unwrap(), 1);
    assert_eq!(notes.unread(anna.id).await.unwrap(), 0);
    assert!(notes.list(anna.id, today(), 50).await.unwrap().iter().all(|n| n.read));
    assert_eq!(notes.unread(bart.id).await.unwrap(), 1);

    // A member who turns invisible drops out of the list; a block removes the pair's notifications.
    w.accounts.set_invisible(carl.id, true).await.unwrap();
    assert!(!notes.list(anna.id, today(), 50).await.unwrap().iter().any(|n| n.actor.as_ref().map(|a| a.id) == Some(carl.id)));
    w.members.block(&w.site, bart.id, anna.id, NOW + 60).await.unwrap();
    assert_eq!(notes.unread(bart.id).await.unwrap(), 0);
    assert!(!notes.list(anna.id, today(), 50).await.unwrap().iter().any(|n| n.actor.is_some()));
});

on_both_databases!(like_mails_follow_preferences_and_are_spaced, |db: Db| async move {
    let w = world(db).await;
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    let link = |id: i64| format!("/likes/m/{id}");

    // The first like mails; another within the gap does not; a match always does.
    assert!(w.accounts.mail_like(&w.site, "http://x", anna.id, bart.id, "Bart", false).await.unwrap());
    assert!(!w.accounts.mail_like(&w.site, "http://x", anna.id, carl.id, "Carl", false).await.unwrap());
    assert!(w.accounts.mail_like(&w.site, "http://x", anna.id, carl.id, "Carl", true).await.unwrap());
    let sent: Vec<String> = mails_to(&w, "anna@example.nl").into_iter().filter(|m| m.contains("/likes/m/")).collect();
    assert_eq!(sent.len(), 2);
    assert!(sent.iter().any(|m| m.contains(&link(bart.id)) && m.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click")));
    assert!(sent.iter().any(|m| m.contains(&link(carl.id))));

    // Likes switched off in the settings: no mail, not even for a match.
    w.accounts.set_notification_prefs(bart.id, NotificationPrefs { messages: true, likes: false, news: true }).await.unwrap();
    assert!(!w.accounts.mail_like(&w.site, "http://x", bart.id, anna.id, "Anna", true).await.unwrap());
    // Operator-run profiles get no mail at all.
    make_fictional(&w, &carl).await;
    assert!(!w.accounts.mail_like(&w.site, "http://x", carl.id, anna.id, "Anna", true).await.unwrap());
    assert!(mails_to(&w, "bart@example.nl").iter().all(|m| !m.contains("/likes/m/")));
    assert!(mails_to(&w, "carl@example.nl").iter().all(|m| !m.contains("/likes/m/")));
    const { assert!(LIKE_MAIL_GAP_SECS > 0) };
});

on_both_databases!(auto_likes_come_from_fitting_operator_profiles_by_the_site_policy, |db: Db| async move {
    let mut w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let notes = Notifications::new(w.members.clone());
    let bart = w.member("bart@example.nl", "male").await;
    let real_woman = w.member("anna@example.nl", "female").await;
    let man = w.member("op-man@example.nl", "male").await;
    let woman1 = w.member("op-w1@example.nl", "female").await;
    let woman2 = w.member("op-w2@example.nl", "female").await;
    for m in [&man, &woman1, &woman2] {
        make_fictional(&w, m).await;
    }
    w.site.settings.auto_like = AutoLikePolicy { count: 2, gap_secs: 3600 };

    let first = likes.auto_like(&w.site, &bart, NOW + 10, today()).await.unwrap().expect("an auto-like is due");
    // Only operator-run women (Bart is a hetero man), never the real member.
    assert!([woman1.id, woman2.id].contains(&first.id) && first.fictional);
    assert_eq!(likes.new_likes(bart.id).await.unwrap(), 1);
    assert_eq!(notes.list(bart.id, today(), 50).await.unwrap()[0].actor.as_ref().map(|a| a.id), Some(first.id));
    // Not again within the gap; after it, from the other woman; then the count is used up.
    assert!(likes.auto_like(&w.site, &bart, NOW + 60, today()).await.unwrap().is_none());
    let second = likes.auto_like(&w.site, &bart, NOW + 3700, today()).await.unwrap().expect("due after the gap");
    assert_ne!(second.id, first.id);
    assert!(likes.auto_like(&w.site, &bart, NOW + 99_000, today()).await.unwrap().is_none());
    assert!(real_woman.id != second.id);

    // A site without auto-likes, or a member past the first week, gets none.
    let carl = w.member("carl@example.nl", "male").await;
    w.site.settings.auto_like = AutoLikePolicy { count: 0, gap_secs: 0 };
    assert!(likes.auto_like(&w.site, &carl, NOW + 10, today()).await.unwrap().is_none());
    w.site.settings.auto_like = AutoLikePolicy { count: 5, gap_secs: 0 };
    assert!(likes.auto_like(&w.site, &carl, NOW + 8 * 86_400, today()).await.unwrap().is_none());
});

on_both_databases!(match_finder_suggests_members_who_fit_both_ways, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let bart = w.member("bart@example.nl", "male").await;
    let anna = w.member("anna@example.nl", "female").await;
    let bea = w.member("bea@example.nl", "female").await;
    let lena = w.member("lena@example.nl", "female").await;
    let carl = w.member("carl@example.nl", "male").await;
    // Lena looks for women: she does not fit Bart.
    sqlx::query("UPDATE profiles SET sexuality = 'lesbian' WHERE user_id = $1").bind(lena.id).execute(w.db.pool()).await.unwrap();
    let ids = |cards: Vec<domain::search::MemberCard>| {
        let mut v: Vec<i64> = cards.into_iter().map(|c| c.id).collect();
        v.sort();
        v
    };
    let mut both = vec![anna.id, bea.id];
    both.sort();
    assert_eq!(ids(likes.suggestions(&w.site, bart.id, today(), 12).await.unwrap()), both);
    assert!(!ids(likes.suggestions(&w.site, bart.id, today(), 12).await.unwrap()).contains(&carl.id));

    // Liking them in one go; someone who blocked Bart meanwhile is skipped.
    w.members.block(&w.site, bea.id, bart.id, NOW).await.unwrap();
    let done = likes.like_many(&w.site, &bart, &[anna.id, bea.id, 999_999], LikeSource::Search, NOW).await.unwrap();
    assert_eq!(done.iter().map(|(id, _)| *id).collect::<Vec<_>>(), vec![anna.id]);
    assert!(likes.suggestions(&w.site, bart.id, today(), 12).await.unwrap().is_empty(), "liked and blocked ones are gone");
    for (other, liked) in [(anna.id, true), (bea.id, false), (lena.id, false)] {
        assert_eq!(likes.state(bart.id, other).await.unwrap().i_liked, liked);
    }
    // Anna's finder offers Bart, who liked her: liking back is a match.
    let anna_done = likes.like_many(&w.site, &anna, &[bart.id], LikeSource::Search, NOW + 5).await.unwrap();
    assert!(anna_done[0].1.matched);
});

on_both_databases!(notifications_come_a_page_at_a_time_newest_first, |db: Db| async move {
    use domain::notifications::Cursor;
    let w = world(db).await;
    let notes = Notifications::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    // Two notices share a moment: the id breaks the tie, so none is skipped or shown twice.
    for i in 0..6 {
        notes.notify(anna.id, NotificationKind::PhotoApproved, NOW + 100 + i / 2).await.unwrap();
    }
    let mut seen = Vec::new();
    let mut before = None;
    loop {
        let page = notes.page(anna.id, today(), before, 3).await.unwrap();
        if page.is_empty() {
            break;
        }
        before = page.last().map(|n| Cursor { at: n.created_at, id: n.id });
        seen.extend(page.into_iter().map(|n| (n.created_at, n.id)));
    }
    assert_eq!(seen.len(), 7, "six notices and the welcome");
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(seen, sorted, "newest first, across pages");
});

on_both_databases!(match_mails_are_spaced_per_pair_and_a_like_given_again_mails_nobody, |db: Db| async move {
    let w = world(db).await;
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let about_bart = |w: &World| mails_to(w, "anna@example.nl").into_iter().filter(|m| m.contains(&format!("/likes/m/{}", bart.id))).count();
    // A match mails once; the same match made again (unlike, like) within a day does not.
    assert!(w.accounts.mail_like(&w.site, "http://x", anna.id, bart.id, "Bart", true).await.unwrap());
    assert!(!w.accounts.mail_like(&w.site, "http://x", anna.id, bart.id, "Bart", true).await.unwrap());
    assert!(!w.accounts.mail_like(&w.site, "http://x", anna.id, bart.id, "Bart", false).await.unwrap());
    assert_eq!(about_bart(&w), 1);
    // A day later the pair may mail again.
    w.accounts.clock().advance(domain::notifications::PAIR_MAIL_GAP_SECS);
    assert!(w.accounts.mail_like(&w.site, "http://x", anna.id, bart.id, "Bart", true).await.unwrap());
    assert_eq!(about_bart(&w), 2);
});

on_both_databases!(unconfirmed_likers_mail_nobody_and_invisible_members_cannot_like, |db: Db| async move {
    let w = world(db).await;
    let likes = Likes::new(w.members.clone()).with_mail(w.accounts.clone(), "http://x".into());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    // Bart's address is not confirmed: his like waits in the app and mails nobody.
    sqlx::query("UPDATE users SET status = 'not_confirmed' WHERE id = $1").bind(bart.id).execute(w.db.pool()).await.unwrap();
    let bart = w.reload(bart.id).await;
    assert!(likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW).await.unwrap().new);
    // Carl is invisible: a like would show him, so it is refused and nothing is stored.
    w.accounts.set_invisible(carl.id, true).await.unwrap();
    let carl = w.reload(carl.id).await;
    assert_eq!(likes.like(&w.site, &carl, anna.id, LikeSource::Profile, NOW).await.unwrap_err().code(), domain::ErrorCode::InvisibleCannotLike);
    assert_eq!(likes.like_many(&w.site, &carl, &[anna.id], LikeSource::Search, NOW).await.unwrap_err().code(), domain::ErrorCode::InvisibleCannotLike);
    assert_eq!(likes.new_likes(anna.id).await.unwrap(), 1);
    // Mails go out in the background; a confirmed liker's mail shows they would have arrived.
    let dora = w.member("dora@example.nl", "female").await;
    likes.like(&w.site, &dora, bart.id, LikeSource::Profile, NOW).await.unwrap();
    for _ in 0..50 {
        if !mails_to(&w, "bart@example.nl").iter().all(|m| !m.contains("/likes/m/")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(mails_to(&w, "bart@example.nl").iter().any(|m| m.contains(&format!("/likes/m/{}", dora.id))), "a confirmed member's like mails");
    assert!(mails_to(&w, "anna@example.nl").iter().all(|m| !m.contains("/likes/m/")), "no mail about an unconfirmed or invisible liker");
});

on_both_databases!(like_them_all_has_a_daily_cap_that_parallel_calls_cannot_pass, |db: Db| async move {
    use domain::notifications::BULK_LIKES_PER_DAY;
    let w = world(db).await;
    let likes = Likes::new(w.members.clone());
    let me = w.member("me@example.nl", "male").await;
    let mut others = Vec::new();
    for i in 0..(BULK_LIKES_PER_DAY + 10) {
        others.push(w.member(&format!("m{i}@example.nl"), "female").await.id);
    }
    // Two calls at once, each asking for 25: together they get no more than the cap.
    let (a, b) = tokio::join!(
        likes.like_many(&w.site, &me, &others[..25], LikeSource::Search, NOW),
        likes.like_many(&w.site, &me, &others[25..], LikeSource::Search, NOW)
    );
    let given = a.map(|v| v.len()).unwrap_or(0) + b.map(|v| v.len()).unwrap_or(0);
    assert_eq!(given as i64, BULK_LIKES_PER_DAY, "the cap, not more");
    assert_eq!(likes.like_many(&w.site, &me, &others[..1], LikeSource::Search, NOW + 60).await.unwrap_err().code(), domain::ErrorCode::DailyLikesUsed);
    // The next day there is a new allowance.
    assert_eq!(likes.like_many(&w.site, &me, &others[..3], LikeSource::Search, NOW + 86_400).await.unwrap().len(), 3);
});
