//! Members on SQLite and PostgreSQL: the demo seed, search filters and paging against a
//! brute-force answer, visibility rules, and blocking between two members.

use crate::support;

use std::sync::Arc;

use domain::account::{SignupForm, Tracking, Ymd};
use domain::profile::{BasicsForm, Gender, LocationForm};
use domain::search::{birth_date_window, SearchFilters, PAGE_SIZE};
use domain::site::SiteSettings;
use domain::Locale;
use server::accounts::{Accounts, SignupRequest};
use server::clock::Clock;
use server::locales::Catalog;
use server::mail::Outbox;
use server::members::Members;
use server::regions::Regions;
use server::seed::seed_if_empty;
use server::Db;
use sqlx::Row;

const NOW: i64 = 1_795_348_800;

struct Ctx {
    db: Db,
    accounts: Accounts,
    members: Members,
    site: SiteSettings,
    _mail: tempfile::TempDir,
}

async fn ctx(db: Db, demo: u32) -> Ctx {
    seed_if_empty(&db).await.unwrap();
    let created = server::members::demo::seed_demo_members(&db, None, demo, NOW).await.unwrap();
    assert_eq!(created, demo as u64 * 2, "{demo} per site, two sites");
    let site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap().settings;
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::new(db.clone(), Clock::fixed(NOW), Outbox::files(mail.path().to_path_buf()), Arc::new(Catalog::embedded()), support::links());
    let members = Members::new(db.clone(), Arc::new(Regions::load(&db).await.unwrap()), std::time::Duration::ZERO);
    Ctx { db, accounts, members, site, _mail: mail }
}

fn today() -> Ymd {
    Ymd::from_unix(NOW)
}

/// A confirmed member with basics, found by search.
async fn member(c: &Ctx, email: &str, gender: &str) -> i64 {
    let form = SignupForm {
        email: email.into(),
        name: "Anna".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1990-05-17".into(),
        signup_message: String::new(),
    };
    let (id, _) = c
        .accounts
        .signup(SignupRequest {
            site: &c.site,
            form,
            tracking: Tracking::default(),
            locale: Locale::Nl,
            base_url: "http://x".into(),
            client: Default::default(),
            invitation: None,
        })
        .await
        .unwrap();
    let basics = BasicsForm {
        gender: gender.into(),
        sexuality: "hetero".into(),
        location: LocationForm { country: "NL".into(), region: "NL-NH".into(), city: "Haarlem".into() },
    };
    c.members.save_basics(&c.site, id, &basics).await.unwrap();
    id
}

async fn activate(c: &Ctx, id: i64) {
    // Straight to the state an activation link leaves (the link itself is tested elsewhere).
    sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(id).execute(c.db.pool()).await.unwrap();
    sqlx::query("UPDATE profiles SET status = 'active' WHERE user_id = $1").bind(id).execute(c.db.pool()).await.unwrap();
    server::members::search::refresh_searchable(c.db.pool(), id).await.unwrap();
}

fn filters(gender: Option<Gender>, country: Option<&str>, region: Option<&str>, min_age: u32, max_age: u32, page: u32) -> SearchFilters {
    SearchFilters { gender, country: country.map(Into::into), region: region.map(Into::into), min_age, max_age, page }
}

on_both_databases!(search_matches_a_brute_force_answer_page_by_page, |db: Db| async move {
    let c = ctx(db, 300).await;
    // Everything search may return on this site, straight from the table.
    let rows = sqlx::query("SELECT user_id, gender, country, region, date_of_birth, last_active FROM profiles WHERE site_id = $1 AND searchable = $2")
        .bind(c.site.id)
        .bind(true)
        .fetch_all(c.db.pool())
        .await
        .unwrap();
    assert_eq!(rows.len(), 300);
    let all: Vec<(i64, String, String, String, String, i64)> =
        rows.iter().map(|r| (r.get("user_id"), r.get("gender"), r.get("country"), r.get("region"), r.get("date_of_birth"), r.get("last_active"))).collect();
    let cases = [
        filters(None, None, None, 18, 99, 1),
        filters(None, None, None, 18, 99, 2),
        filters(Some(Gender::Female), None, None, 18, 99, 1),
        filters(Some(Gender::Male), Some("NL"), None, 25, 45, 1),
        filters(Some(Gender::Female), Some("BE"), None, 30, 60, 2),
        filters(None, Some("NL"), Some("NL-ZH"), 18, 99, 1),
        filters(Some(Gender::Female), Some("NL"), Some("NL-NH"), 40, 50, 1),
        filters(None, Some("BE"), Some("NL-NH"), 18, 99, 1), // a region outside its country is ignored
    ];
    for f in cases {
        let (after, until) = birth_date_window(today(), f.min_age, f.max_age);
        let region_ok = f.region.as_deref().filter(|r| r.starts_with(f.country.as_deref().unwrap_or("?")));
        let mut expected: Vec<&(i64, String, String, String, String, i64)> = all
            .iter()
            .filter(|p| f.gender.is_none_or(|g| p.1 == g.code()))
            .filter(|p| f.country.as_deref().is_none_or(|c| p.2 == c))
            .filter(|p| region_ok.is_none_or(|r| p.3 == r))
            .filter(|p| p.4.as_str() > after.as_str() && p.4.as_str() <= until.as_str())
            .collect();
        expected.sort_by_key(|b| std::cmp::Reverse(b.5));
        let start = ((f.page - 1) * PAGE_SIZE) as usize;
        let want: Vec<i64> = expected.iter().skip(start).take(PAGE_SIZE as usize).map(|p| p.5).collect();
        let got = c.members.search(&c.site, None, &f, today()).await.unwrap();
        let got_active: Vec<i64> = got.results.iter().map(|card| all.iter().find(|p| p.0 == card.id).unwrap().5).collect();
        assert_eq!(got_active, want, "order and page for {f:?}");
        assert_eq!(got.has_more, expected.len() > start + PAGE_SIZE as usize, "has_more for {f:?}");
        for card in &got.results {
            assert!((f.min_age as i32..=f.max_age as i32).contains(&card.age), "age {} in {f:?}", card.age);
            assert!(card.fictional, "demo members are marked fictional");
        }
        if f.page == 1 && got.results.len() < (PAGE_SIZE / 2) as usize && (region_ok.is_some() || f.min_age > 18 || f.max_age < 99) {
            assert!(!got.similar.is_empty(), "similar profiles for a short page {f:?}");
            assert!(got.similar.iter().all(|s| !got.results.iter().any(|r| r.id == s.id)), "similar excludes results");
        }
    }
    // Seeding again adds nothing.
    assert_eq!(server::members::demo::seed_demo_members(&c.db, None, 300, NOW).await.unwrap(), 0);
});

on_both_databases!(visibility_and_blocking_between_two_members, |db: Db| async move {
    let c = ctx(db, 20).await;
    let anna = member(&c, "anna@example.nl", "female").await;
    let bart = member(&c, "bart@example.nl", "male").await;
    let only_nl_nh = filters(None, Some("NL"), Some("NL-NH"), 18, 99, 1);
    let found = |res: &domain::search::SearchResults, id: i64| res.results.iter().any(|c| c.id == id);

    // Unconfirmed members are not shown; their own profile still opens for them.
    let res = c.members.search(&c.site, Some(bart), &only_nl_nh, today()).await.unwrap();
    assert!(!found(&res, anna));
    assert!(c.members.profile(&c.site, Some(bart), anna, today()).await.unwrap().is_none());
    assert!(c.members.profile(&c.site, Some(anna), anna, today()).await.unwrap().unwrap().is_me);
    activate(&c, anna).await;
    activate(&c, bart).await;
    let res = c.members.search(&c.site, Some(bart), &only_nl_nh, today()).await.unwrap();
    assert!(found(&res, anna) && !found(&res, bart), "others, never oneself");
    assert!(res.liked.is_empty());

    // A member's likes come with the cards; a visitor's results carry none.
    sqlx::query("INSERT INTO likes (liker_id, liked_id, created_at) VALUES ($1, $2, $3)").bind(bart).bind(anna).bind(NOW).execute(c.db.pool()).await.unwrap();
    assert_eq!(c.members.search(&c.site, Some(bart), &only_nl_nh, today()).await.unwrap().liked, vec![anna]);
    assert!(c.members.search(&c.site, None, &only_nl_nh, today()).await.unwrap().liked.is_empty());
    assert!(c.members.search(&c.site, Some(anna), &only_nl_nh, today()).await.unwrap().liked.is_empty(), "bart liked anna, not the other way");

    // Invisible: gone for others, still there for oneself.
    c.accounts.set_invisible(anna, true).await.unwrap();
    assert!(!found(&c.members.search(&c.site, Some(bart), &only_nl_nh, today()).await.unwrap(), anna));
    assert!(c.members.profile(&c.site, Some(bart), anna, today()).await.unwrap().is_none());
    assert!(c.members.profile(&c.site, Some(anna), anna, today()).await.unwrap().is_some());
    c.accounts.set_invisible(anna, false).await.unwrap();

    // Anna blocks Bart: each vanishes for the other; Bart acting on Anna gets the spec's error.
    c.members.block(&c.site, anna, bart, NOW).await.unwrap();
    c.members.block(&c.site, anna, bart, NOW).await.unwrap();
    assert!(!found(&c.members.search(&c.site, Some(bart), &only_nl_nh, today()).await.unwrap(), anna));
    assert!(!found(&c.members.search(&c.site, Some(anna), &only_nl_nh, today()).await.unwrap(), bart));
    assert!(c.members.profile(&c.site, Some(bart), anna, today()).await.unwrap().is_none());
    let seen_by_anna = c.members.profile(&c.site, Some(anna), bart, today()).await.unwrap().unwrap();
    assert!(seen_by_anna.blocked_by_me, "the blocker can still reach the page to unblock");
    assert!(c.members.block(&c.site, bart, anna, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::BlockedByMember));
    // Only the blocker can lift it.
    c.members.unblock(bart, anna).await.unwrap();
    assert!(c.members.profile(&c.site, Some(bart), anna, today()).await.unwrap().is_none(), "Bart cannot unblock Anna's block");
    c.members.unblock(anna, bart).await.unwrap();
    assert!(c.members.profile(&c.site, Some(bart), anna, today()).await.unwrap().is_some());

    // Nobody blocks themselves or members of another site.
    assert!(c.members.block(&c.site, anna, anna, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    let (other_site,): (i64,) =
        sqlx::query_as("SELECT user_id FROM profiles WHERE site_id <> $1 LIMIT 1").bind(c.site.id).fetch_one(c.db.pool()).await.unwrap();
    assert!(c.members.block(&c.site, anna, other_site, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert!(c.members.profile(&c.site, Some(anna), other_site, today()).await.unwrap().is_none(), "profiles stay on their site");

    // A deleted account disappears from search.
    c.accounts.delete_account(&c.site, anna, "rode kater op het dak", "", "http://x", &Default::default()).await.unwrap();
    assert!(!found(&c.members.search(&c.site, Some(bart), &only_nl_nh, today()).await.unwrap(), anna));
});

on_both_databases!(profiles_show_only_the_fields_the_site_shows, |db: Db| async move {
    let mut c = ctx(db, 20).await;
    let (id,): (i64,) = sqlx::query_as("SELECT user_id FROM profiles WHERE site_id = $1 AND hair_colour IS NOT NULL LIMIT 1")
        .bind(c.site.id)
        .fetch_one(c.db.pool())
        .await
        .unwrap();
    let p = c.members.profile(&c.site, None, id, today()).await.unwrap().unwrap();
    assert!(p.attributes.iter().any(|(f, _)| f == "hair_colour"));
    assert!(!p.interests.is_empty() && p.about.is_some());
    c.site.visible_profile_fields = vec!["gender".into()];
    c.site.visible_profile_notes = false;
    let p = c.members.profile(&c.site, None, id, today()).await.unwrap().unwrap();
    assert!(p.attributes.is_empty() && p.interests.is_empty() && p.about.is_none());
});

on_both_databases!(details_are_checked_then_shown_on_the_profile, |db: Db| async move {
    let c = ctx(db, 5).await;
    let anna = member(&c, "anna@example.nl", "female").await;
    activate(&c, anna).await;
    let good = domain::profile::DetailsForm {
        attributes: vec![("hair_colour".into(), "red".into()), ("reason".into(), "chat".into())],
        interests: vec!["music".into(), "yoga".into()],
        about: "Hallo, ik ben Anna.".into(),
    };
    c.members.save_details(anna, &good, NOW).await.unwrap();
    let bad = domain::profile::DetailsForm { attributes: vec![("hair_colour".into(), "purple".into())], interests: vec!["music".into()], about: String::new() };
    assert_eq!(c.members.save_details(anna, &bad, NOW).await.unwrap_err().code().locale_key(), "validation.choice_invalid");
    let stored = c.members.details(anna).await.unwrap();
    assert!(stored.attributes.contains(&("hair_colour".to_string(), "red".to_string())), "the bad save changed nothing");
    assert_eq!(stored.interests, ["music", "yoga"]);
    let seen = c.members.profile(&c.site, None, anna, today()).await.unwrap().unwrap();
    assert!(seen.attributes.contains(&("hair_colour".to_string(), "red".to_string())));
    assert_eq!(seen.interests.iter().map(|(code, _)| code.as_str()).collect::<Vec<_>>(), ["music", "yoga"]);
    // The text waits for review (`moderation.rs` tests the queue); her editor keeps it.
    assert_eq!(seen.about, None);
    assert_eq!(stored.about, "Hallo, ik ben Anna.");
});

on_both_databases!(a_members_search_from_the_shared_list_equals_the_direct_query, |db: Db| async move {
    let c = ctx(db, 300).await;
    // The same database searched through the shared card list and straight from the table.
    let shared = Members::new(c.db.clone(), Arc::new(Regions::load(&c.db).await.unwrap()), std::time::Duration::from_secs(600));
    let anna = member(&c, "anna@example.nl", "female").await;
    activate(&c, anna).await;
    let demo: Vec<(i64,)> = sqlx::query_as("SELECT user_id FROM profiles WHERE site_id = $1 AND searchable = $2 AND user_id <> $3 ORDER BY last_active DESC")
        .bind(c.site.id)
        .bind(true)
        .bind(anna)
        .fetch_all(c.db.pool())
        .await
        .unwrap();
    // Anna blocks some members on the first pages, others block her, and she likes a few.
    for (n, (id,)) in demo.iter().enumerate().take(60) {
        let (blocker, blocked) = match n % 7 {
            1 => (anna, *id),
            4 => (*id, anna),
            _ => continue,
        };
        sqlx::query("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3)")
            .bind(blocker)
            .bind(blocked)
            .bind(NOW)
            .execute(c.db.pool())
            .await
            .unwrap();
    }
    for (id,) in demo.iter().step_by(5).take(20) {
        sqlx::query("INSERT INTO likes (liker_id, liked_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(anna)
            .bind(*id)
            .bind(NOW)
            .execute(c.db.pool())
            .await
            .unwrap();
    }
    let cases = [
        filters(None, None, None, 18, 99, 1),
        filters(None, None, None, 18, 99, 2),
        filters(None, None, None, 18, 99, 3),
        filters(None, None, None, 18, 99, 9), // past the shared pages: the database
        filters(Some(Gender::Female), Some("NL"), None, 25, 45, 1),
        filters(Some(Gender::Female), Some("NL"), None, 25, 45, 2),
        filters(Some(Gender::Female), Some("NL"), Some("NL-NH"), 40, 50, 1), // short: similar profiles
        filters(None, Some("BE"), Some("NL-NH"), 18, 99, 1),
    ];
    let ids = |cards: &[domain::search::MemberCard]| cards.iter().map(|c| c.id).collect::<Vec<_>>();
    let mut similar_seen = false;
    for viewer in [Some(anna), None, Some(anna)] {
        for f in &cases {
            let want = c.members.search(&c.site, viewer, f, today()).await.unwrap();
            let got = shared.search(&c.site, viewer, f, today()).await.unwrap();
            assert_eq!(ids(&got.results), ids(&want.results), "{viewer:?} {f:?}");
            assert_eq!(ids(&got.similar), ids(&want.similar), "similar, {viewer:?} {f:?}");
            assert_eq!(got.has_more, want.has_more, "{viewer:?} {f:?}");
            let (mut got_liked, mut want_liked) = (got.liked.clone(), want.liked.clone());
            got_liked.sort();
            want_liked.sort();
            assert_eq!(got_liked, want_liked, "likes, {viewer:?} {f:?}");
            similar_seen |= !got.similar.is_empty();
        }
    }
    assert!(similar_seen, "a case had similar profiles");
    let everyone = filters(None, None, None, 18, 99, 1);
    let first = shared.search(&c.site, Some(anna), &everyone, today()).await.unwrap();
    assert!(!first.liked.is_empty() && first.results.iter().all(|card| card.id != anna));
    // A block shows at once, though the shared list is kept ten minutes: it is read per page.
    let next = first.results[0].id;
    c.members.block(&c.site, anna, next, NOW).await.unwrap();
    let after = shared.search(&c.site, Some(anna), &everyone, today()).await.unwrap();
    assert!(after.results.iter().all(|card| card.id != next));
    assert_eq!(ids(&after.results), ids(&c.members.search(&c.site, Some(anna), &everyone, today()).await.unwrap().results));
    assert!(shared.search(&c.site, None, &everyone, today()).await.unwrap().results.iter().any(|card| card.id == next), "visitors still see them");
    // A member who blocked very many searches the database directly: the same answer.
    for (id,) in demo.iter().skip(60).take(70) {
        c.members.block(&c.site, anna, *id, NOW).await.unwrap();
    }
    for f in &cases[..3] {
        let want = c.members.search(&c.site, Some(anna), f, today()).await.unwrap();
        let got = shared.search(&c.site, Some(anna), f, today()).await.unwrap();
        assert_eq!((ids(&got.results), got.has_more), (ids(&want.results), want.has_more), "many blocks, {f:?}");
    }
});
