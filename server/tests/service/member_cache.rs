//! The member cache on SQLite and PostgreSQL: a session's member, counters and own lists come
//! from memory, and every write they depend on, by any writer, reaches them: on SQLite before
//! the next read, on PostgreSQL as soon as the node hears the trigger's announcement.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use domain::account::Ymd;
use domain::likes::{LikeKind, LikeSource};
use domain::search::SearchFilters;
use server::accounts::{Accounts, Member};
use server::likes::Likes;
use server::member_cache::MemberCache;
use server::members::Members;
use server::Db;
use support::world::{world, NOW};

struct Cached {
    cache: MemberCache,
    accounts: Accounts,
    members: Members,
    likes: Likes,
    postgres: bool,
}

async fn cached(w: &support::world::World, url: &str) -> Cached {
    let cache = MemberCache::start(&w.db, url, Duration::from_secs(60)).unwrap();
    let postgres = w.db.backend() == server::db::Backend::Postgres;
    if postgres {
        // Nothing is served until the node hears the announcements.
        for _ in 0..500 {
            if cache.sync().is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    assert!(cache.sync().is_some(), "the cache serves");
    let accounts = w.accounts.clone().with_member_cache(cache.clone());
    let members =
        Members::new(w.db.clone(), Arc::new(server::regions::Regions::load(&w.db).await.unwrap()), Duration::from_secs(5)).with_member_cache(cache.clone());
    let likes = Likes::new(members.clone());
    Cached { cache, accounts, members, likes, postgres }
}

impl Cached {
    /// The session's member once `check` holds: at once on SQLite; on PostgreSQL once the
    /// announcement arrived (within a few seconds at most).
    async fn member_when(&self, token: &str, what: &str, check: impl Fn(Option<&Member>) -> bool) -> Option<Member> {
        for _ in 0..if self.postgres { 500 } else { 1 } {
            let member = self.accounts.member_for_session(token).await.unwrap();
            if check(member.as_ref()) {
                return member;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{what}: not seen");
    }
}

/// `read` until `done` holds: once on SQLite, for up to five seconds on PostgreSQL.
async fn until<T, F: std::future::Future<Output = T>>(postgres: bool, read: impl Fn() -> F, done: impl Fn(&T) -> bool) -> T {
    let mut value = read().await;
    for _ in 1..if postgres { 500 } else { 1 } {
        if done(&value) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        value = read().await;
    }
    value
}

fn today() -> Ymd {
    Ymd::from_unix(NOW)
}

async fn body(db: Db, url: &str) {
    let w = world(db).await;
    let c = cached(&w, url).await;
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let (annas, barts) = (c.accounts.open_session(anna.id).await.unwrap(), c.accounts.open_session(bart.id).await.unwrap());

    // Each token is its own member's, read once and then kept.
    let first = c.member_when(&annas, "anna", |m| m.is_some_and(|m| m.id == anna.id && m.counters.new_likes == 0)).await.unwrap();
    assert_eq!(c.accounts.member_for_session(&barts).await.unwrap().unwrap().id, bart.id);
    // Kept once read (on PostgreSQL a read that raced the announcement of their signup is not
    // kept, and the next read is).
    let both = || async {
        c.accounts.member_for_session(&annas).await.unwrap();
        c.accounts.member_for_session(&barts).await.unwrap();
        c.cache.sessions_kept()
    };
    assert_eq!(until(c.postgres, both, |kept| *kept == 2).await, 2);
    assert_eq!(c.accounts.member_for_session(&annas).await.unwrap().unwrap(), first);

    // Another member's like counts for her.
    c.likes.like(&w.site, &bart, anna.id, LikeSource::Profile, NOW).await.unwrap();
    c.member_when(&annas, "a new like", |m| m.is_some_and(|m| m.counters.new_likes == 1)).await;
    // Any writer, even one outside the application.
    sqlx::query("UPDATE users SET credits = 77 WHERE id = $1").bind(anna.id).execute(w.db.pool()).await.unwrap();
    c.member_when(&annas, "credits written by hand", |m| m.is_some_and(|m| m.credits == 77)).await;
    // A chat message: the sender's balance and the recipient's unread count (on PostgreSQL the
    // send keeps the triggers silent and its chat signal names both).
    let bart = crate::chat::fund(&w, bart.id, 50).await;
    c.member_when(&barts, "a funded sender", |m| m.is_some_and(|m| m.credits == 50)).await;
    c.member_when(&annas, "no unread message yet", |m| m.is_some_and(|m| m.counters.unread_messages == 0)).await;
    let chat = server::chat::Chat::new(c.members.clone(), server::chat::bus::Bus::start(w.db.clone(), url));
    let sent = chat.send(&w.site, &bart, server::chat::To::Member(anna.id), "cache-client-0001", server::chat::Content::Text("hoi".into()), NOW).await.unwrap();
    assert!(sent.balance < 50, "the message was paid");
    c.member_when(&barts, "the sender's new balance", |m| m.is_some_and(|m| m.credits == sent.balance)).await;
    c.member_when(&annas, "the recipient's unread message", |m| m.is_some_and(|m| m.counters.unread_messages == 1)).await;
    // Her client marking it delivered, or the new-message mail claimed, changes nothing kept: her
    // session stays. (Bart's change after them is the mark that they were heard.)
    assert_eq!(until(c.postgres, both, |kept| *kept == 2).await, 2);
    sqlx::query("UPDATE chat_members SET delivered_up_to = $1, mailed = $2 WHERE user_id = $3")
        .bind(sent.message.id)
        .bind(true)
        .bind(anna.id)
        .execute(w.db.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE users SET credits = credits WHERE id = $1").bind(bart.id).execute(w.db.pool()).await.unwrap();
    let kept = || async {
        c.cache.sync();
        c.cache.sessions_kept()
    };
    assert_eq!(until(c.postgres, kept, |kept| *kept < 2).await, 1, "Bart's session went, Anna's stayed");

    // Bart hidden (not findable): his like no longer counts; found again, it does.
    sqlx::query("UPDATE profiles SET searchable = $1 WHERE user_id = $2").bind(false).bind(bart.id).execute(w.db.pool()).await.unwrap();
    c.member_when(&annas, "a hidden liker", |m| m.is_some_and(|m| m.counters.new_likes == 0)).await;
    sqlx::query("UPDATE profiles SET searchable = $1 WHERE user_id = $2").bind(true).bind(bart.id).execute(w.db.pool()).await.unwrap();
    c.member_when(&annas, "a findable liker", |m| m.is_some_and(|m| m.counters.new_likes == 1)).await;

    // Her own lists: the like she gives shows on his card, a block hides him.
    let filters = SearchFilters { gender: Some(domain::profile::Gender::Male), country: Some("NL".into()), region: None, min_age: 18, max_age: 99, page: 1 };
    let shown = |r: &domain::search::SearchResults| r.results.iter().any(|card| card.id == bart.id);
    let results = c.members.search(&w.site, Some(anna.id), &filters, today()).await.unwrap();
    assert!(shown(&results) && results.liked.is_empty());
    c.likes.like(&w.site, &anna, bart.id, LikeSource::Search, NOW + 1).await.unwrap();
    let liked =
        until(c.postgres, || async { c.members.search(&w.site, Some(anna.id), &filters, today()).await.unwrap().liked.contains(&bart.id) }, |l| *l).await;
    assert!(liked, "her like shows on his card");
    c.members.block(&w.site, anna.id, bart.id, NOW + 2).await.unwrap();
    let hidden = until(c.postgres, || async { !shown(&c.members.search(&w.site, Some(anna.id), &filters, today()).await.unwrap()) }, |h| *h).await;
    assert!(hidden, "a blocked member is not found");
    c.member_when(&annas, "a blocked liker", |m| m.is_some_and(|m| m.counters.new_likes == 0)).await;
    c.members.unblock(anna.id, bart.id).await.unwrap();

    // The profile she opened last follows that profile's changes.
    c.members.remember_opened(anna.id, bart.id, NOW + 3).await.unwrap();
    let opened = until(c.postgres, || async { c.members.last_opened(&w.site, anna.id, today()).await.unwrap() }, |o| o.is_some()).await;
    assert_eq!(opened.unwrap().0.id, bart.id);
    sqlx::query("UPDATE profiles SET name = 'Bram' WHERE user_id = $1").bind(bart.id).execute(w.db.pool()).await.unwrap();
    let name = until(c.postgres, || async { c.members.last_opened(&w.site, anna.id, today()).await.unwrap().unwrap().0.name }, |n| n == "Bram").await;
    assert_eq!(name, "Bram");

    // Her likes tab and notifications page are kept, and follow every change of hers and of
    // anyone they show.
    let notifications = server::notifications::Notifications::new(c.members.clone());
    let carl = w.member("carl@example.nl", "male").await;
    c.likes.like(&w.site, &carl, anna.id, LikeSource::Profile, NOW + 4).await.unwrap();
    let received = || async { c.likes.list(&w.site.settings, anna.id, LikeKind::Received, today(), 25, 0).await.unwrap() };
    let cards = |list: &Vec<server::likes::LikedCard>| list.iter().map(|l| (l.card.id, l.card.name.clone(), l.liked_back)).collect::<Vec<_>>();
    until(c.postgres, received, |l| l.len() == 1).await;
    let list = until(c.postgres, received, |_| c.cache.pages_kept(anna.id) == 1).await;
    assert_eq!(cards(&list), vec![(carl.id, "Anna".to_string(), false)]);
    assert_eq!(c.cache.pages_kept(anna.id), 1, "kept");
    assert_eq!(received().await, list, "the same list from memory");
    sqlx::query("UPDATE profiles SET name = 'Cas' WHERE user_id = $1").bind(carl.id).execute(w.db.pool()).await.unwrap();
    let list = until(c.postgres, received, |l| cards(l) == vec![(carl.id, "Cas".to_string(), false)]).await;
    assert_eq!(cards(&list), vec![(carl.id, "Cas".to_string(), false)], "a renamed liker");
    c.likes.like(&w.site, &anna, carl.id, LikeSource::Profile, NOW + 5).await.unwrap();
    let list = until(c.postgres, received, |l| cards(l) == vec![(carl.id, "Cas".to_string(), true)]).await;
    assert_eq!(cards(&list), vec![(carl.id, "Cas".to_string(), true)], "liked back");

    let page = || async { notifications.list(anna.id, today(), 20).await.unwrap() };
    let from_carl = |p: &Vec<server::notifications::NotificationItem>| {
        p.iter().filter(|n| n.actor.as_ref().is_some_and(|a| a.id == carl.id)).map(|n| (n.actor.as_ref().unwrap().name.clone(), n.read)).collect::<Vec<_>>()
    };
    let unread = until(c.postgres, page, |p| from_carl(p).iter().any(|(_, read)| !read)).await;
    let kept_before = c.cache.pages_kept(anna.id);
    page().await;
    assert!(c.cache.pages_kept(anna.id) <= kept_before, "a page with unread lines is not kept: it is about to be marked read");
    notifications.mark_read_through(anna.id, unread.iter().map(|n| n.id).max().unwrap(), NOW + 6).await.unwrap();
    let read = until(c.postgres, page, |p| p.iter().all(|n| n.read) && c.cache.pages_kept(anna.id) > 0).await;
    assert!(read.iter().all(|n| n.read) && !from_carl(&read).is_empty());
    assert_eq!(page().await, read, "the same page from memory");
    sqlx::query("UPDATE profiles SET name = 'Cor' WHERE user_id = $1").bind(carl.id).execute(w.db.pool()).await.unwrap();
    let renamed = until(c.postgres, page, |p| from_carl(p).iter().all(|(name, _)| name == "Cor")).await;
    assert!(from_carl(&renamed).iter().all(|(name, read)| name == "Cor" && *read), "a renamed actor");

    c.members.block(&w.site.settings, anna.id, carl.id, NOW + 7).await.unwrap();
    let list = until(c.postgres, received, |l| l.is_empty()).await;
    assert!(list.is_empty(), "a blocked liker is gone from her likes");
    let gone = until(c.postgres, page, |p| from_carl(p).is_empty()).await;
    assert!(from_carl(&gone).is_empty(), "and from her notifications");
    c.members.unblock(anna.id, carl.id).await.unwrap();

    // A session ended or a member blocked by staff is not served from memory.
    let second = c.accounts.open_session(anna.id).await.unwrap();
    c.member_when(&second, "a second session", |m| m.is_some()).await;
    c.accounts.logout(&second).await.unwrap();
    c.member_when(&second, "a logged out session", |m| m.is_none()).await;
    c.accounts.set_blocked(anna.id, true).await.unwrap();
    c.member_when(&annas, "a blocked member's session", |m| m.is_none()).await;
    // Bart's session is his own throughout.
    assert_eq!(c.accounts.member_for_session(&barts).await.unwrap().unwrap().id, bart.id);

    // The change log (SQLite) is cleared by the housekeeping once old.
    let removed = server::member_cache::remove_old_changes(&w.db, NOW + 100_000_000).await.unwrap();
    assert!(c.postgres || removed > 0);
}

#[tokio::test]
async fn sqlite() {
    let (db, dir) = support::sqlite().await;
    let url = format!("sqlite://{}/test.db", dir.path().display());
    body(db, &url).await;
}

#[tokio::test]
async fn postgres() {
    let cluster = support::PgCluster::start();
    let db = cluster.db().await;
    body(db.clone(), &cluster.url).await;
    db.close().await;
}

/// Two requests of the same member at once, while another member's likes keep arriving: the
/// kept member never goes back to an older count once the newer one was seen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_reads_never_keep_an_older_count() {
    let (db, dir) = support::sqlite().await;
    let url = format!("sqlite://{}/test.db", dir.path().display());
    let w = world(db).await;
    let c = Arc::new(cached(&w, &url).await);
    let anna = w.member("anna@example.nl", "female").await;
    let token = c.accounts.open_session(anna.id).await.unwrap();
    let mut likers = Vec::new();
    for i in 0..12 {
        likers.push(w.member(&format!("m{i}@example.nl"), "male").await);
    }
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let (c, token) = (c.clone(), token.clone());
            tokio::spawn(async move {
                let mut last = 0;
                for _ in 0..200 {
                    let seen = c.accounts.member_for_session(&token).await.unwrap().unwrap().counters.new_likes;
                    assert!(seen >= last, "went back from {last} to {seen}");
                    last = seen;
                    tokio::task::yield_now().await;
                }
            })
        })
        .collect();
    for (i, liker) in likers.iter().enumerate() {
        c.likes.like(&w.site, liker, anna.id, LikeSource::Profile, NOW + i as i64).await.unwrap();
        let seen = c.accounts.member_for_session(&token).await.unwrap().unwrap().counters.new_likes;
        assert_eq!(seen, i as i64 + 1, "the writer's next read sees its like");
    }
    for reader in readers {
        reader.await.unwrap();
    }
    assert_eq!(c.accounts.member_for_session(&token).await.unwrap().unwrap().counters.new_likes, 12);
}
