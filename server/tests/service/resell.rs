//! `member_resell` on SQLite and PostgreSQL: a confirmed member joins the company's other site
//! with one tap, once (two taps at once make one account), with their own details and password,
//! confirmed, counted there under the network `resell`; nothing is offered where the site does
//! not offer it, to staff or unconfirmed members, or where the other site would refuse them.

use crate::support;

use domain::staff::{NewSite, StaffRole};
use domain::ErrorCode;
use server::accounts::LoginOutcome;
use server::staff::Staff;
use server::Db;
use support::shop::refused;
use support::world::{world, NOW};

async fn settings(db: &Db, id: i64) -> domain::site::SiteSettings {
    server::sites::load_all(db).await.unwrap().into_iter().find(|s| s.settings.id == id).unwrap().settings
}

on_both_databases!(a_member_joins_the_companys_other_site_once_with_their_own_details, |db: Db| async move {
    let w = world(db.clone()).await;
    let here = w.site.settings.id;
    let boss = w.member("boss@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "boss@example.nl", StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let zuid = Staff::new(db.clone())
        .create_site(&boss, here, NewSite { domain: "vonk-zuid.nl".into(), name: "Vonk Zuid".into(), domain_language: "nl-NL".into() }, NOW)
        .await
        .unwrap();
    let anna = w.member("anna@example.nl", "female").await;
    let all_ids: Vec<i64> = server::sites::load_all(&db).await.unwrap().iter().map(|s| s.settings.id).collect();
    assert_eq!(all_ids.len(), 3, "this site, vonk.de (DE, AT, CH) and Vonk Zuid (NL, BE), one company");
    let load = || async {
        let all = server::sites::load_all(&db).await.unwrap();
        all.into_iter().map(|s| s.settings).collect::<Vec<_>>()
    };

    // Off (the default): nothing offered, and joining is refused.
    let sites = load().await;
    let refs: Vec<&domain::site::SiteSettings> = sites.iter().collect();
    let from = settings(&db, here).await;
    assert!(w.accounts.sister_sites(&from, &refs, &anna).await.unwrap().is_empty());
    let to = settings(&db, zuid).await;
    assert_eq!(refused(w.accounts.join_sister_site(&from, &to, &anna).await), ErrorCode::NotFound);

    sqlx::query("UPDATE sites SET member_resell = TRUE WHERE id = $1").bind(here).execute(db.pool()).await.unwrap();
    let from = settings(&db, here).await;
    let offers = w.accounts.sister_sites(&from, &refs, &anna).await.unwrap();
    assert_eq!(
        offers.iter().map(|o| (o.site_id, o.name.as_str(), o.joined)).collect::<Vec<_>>(),
        [(zuid, "Vonk Zuid", false)],
        "not vonk.de: it serves no Dutch members"
    );
    assert_eq!(refused(w.accounts.join_sister_site(&from, &settings(&db, all_ids[1]).await, &anna).await), ErrorCode::NotFound);

    // Not for staff, nor for a member who has not confirmed the address.
    assert!(w.accounts.sister_sites(&from, &refs, &boss).await.unwrap().is_empty());
    assert_eq!(refused(w.accounts.join_sister_site(&from, &to, &boss).await), ErrorCode::NotFound);
    let fresh = w.sign_up_with("fresh@example.nl", "Fleur", Default::default(), Default::default()).await;
    let fresh = w.reload(fresh).await;
    assert!(w.accounts.sister_sites(&from, &refs, &fresh).await.unwrap().is_empty());
    assert_eq!(refused(w.accounts.join_sister_site(&from, &to, &fresh).await), ErrorCode::NotFound);

    // Not where the other site would refuse the member: invite-only, or older members only.
    for change in ["UPDATE sites SET signups = 'invite_only' WHERE id = $1", "UPDATE sites SET min_age = 60 WHERE id = $1"] {
        sqlx::query(change).bind(zuid).execute(db.pool()).await.unwrap();
        let strict = settings(&db, zuid).await;
        assert!(w.accounts.sister_sites(&from, &[&from, &strict], &anna).await.unwrap().is_empty(), "{change}");
        assert_eq!(refused(w.accounts.join_sister_site(&from, &strict, &anna).await), ErrorCode::NotFound, "{change}");
        sqlx::query("UPDATE sites SET signups = 'all', min_age = 18 WHERE id = $1").bind(zuid).execute(db.pool()).await.unwrap();
    }

    // Two taps at once: one account.
    let (a, b) = tokio::join!(w.accounts.join_sister_site(&from, &to, &anna), w.accounts.join_sister_site(&from, &to, &anna));
    let code = |r: Result<i64, server::AppError>| {
        r.map_err(|e| match e {
            server::AppError::Refused(e) => e.code,
            other => panic!("{other:?}"),
        })
    };
    let mut results = [code(a), code(b)];
    results.sort_by_key(|r| r.is_err());
    let joined = *results[0].as_ref().unwrap();
    assert_eq!(results[1], Err(ErrorCode::EmailTaken));
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM users WHERE email = $1 AND site_id = $2").bind("anna@example.nl").bind(zuid).fetch_one(db.pool()).await.unwrap();
    assert_eq!(count, 1);
    assert!(w.accounts.sister_sites(&from, &refs, &anna).await.unwrap()[0].joined, "the list says so afterwards");

    // The account there: confirmed, findable, with Anna's details, the site's signup credits,
    // counted under the network resell with this site as the ref; Anna's password signs in.
    let (status, network, reference, credits): (String, Option<String>, Option<String>, i64) =
        sqlx::query_as("SELECT status, tracking_network, tracking_ref, credits FROM users WHERE id = $1").bind(joined).fetch_one(db.pool()).await.unwrap();
    assert_eq!((status.as_str(), network.as_deref(), reference.as_deref(), credits), ("active", Some("resell"), Some(from.domain.as_str()), to.signup_credits));
    let (name, gender, city, searchable): (String, Option<String>, Option<String>, i64) =
        sqlx::query_as("SELECT name, gender, city, CASE WHEN searchable THEN 1 ELSE 0 END FROM profiles WHERE user_id = $1")
            .bind(joined)
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!((name.as_str(), gender.as_deref(), city.as_deref(), searchable), ("Anna", Some("female"), Some("Haarlem"), 1));
    let (source,): (Option<String>,) = sqlx::query_as("SELECT network FROM member_sources WHERE user_id = $1").bind(joined).fetch_one(db.pool()).await.unwrap();
    assert_eq!(source.as_deref(), Some("resell"));
    let login = w.accounts.login(zuid, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap();
    assert!(matches!(login, LoginOutcome::Session(_)));
    // Anna's account here is untouched: her credits and photos stay.
    assert_eq!(w.reload(anna.id).await.credits, anna.credits);
});
