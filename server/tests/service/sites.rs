//! Sites, companies, credit packs and the site cache, on a real SQLite file and a real PostgreSQL.

use crate::support;

use server::seed::seed_if_empty;
use server::sites::{self, SiteCache};
use server::Db;

on_both_databases!(seed_creates_demo_sites_once, |db: Db| async move {
    assert!(seed_if_empty(&db).await.unwrap());
    assert!(!seed_if_empty(&db).await.unwrap(), "second seed must do nothing");
    let all = sites::load_all(&db).await.unwrap();
    assert_eq!(all.len(), 2);
    let default = all.iter().find(|s| s.is_default).expect("a default site");
    assert_eq!(default.settings.domain, "localhost");
    assert_eq!(default.settings.domain_language, "nl-NL");
    assert_eq!(default.settings.niche.number(), 1);
    assert_eq!(default.settings.minimum_message_costs[0].costs, 10);
    assert!(default.settings.visible_profile_fields.contains(&"interests".to_string()));
    assert_eq!(default.company.name, "Vonk Media B.V.");
    assert_eq!(default.company.vat_numbers, vec!["NL862345678B01".to_string()]);
    assert_eq!(default.settings.support_phone_clean(), "+31201234567");
});

on_both_databases!(credit_packs_in_display_order_without_inactive, |db: Db| async move {
    seed_if_empty(&db).await.unwrap();
    let site = sites::load_all(&db).await.unwrap().remove(0);
    let packs = sites::credit_packs(&db, site.settings.id).await.unwrap();
    assert_eq!(packs.iter().map(|p| p.credits).collect::<Vec<_>>(), vec![25, 60, 150, 400]);
    assert_eq!(packs.iter().filter(|p| p.highlighted).count(), 1);
    sqlx::query("UPDATE credit_packs SET active = FALSE WHERE credits = 150").execute(db.pool()).await.unwrap();
    let packs = sites::credit_packs(&db, site.settings.id).await.unwrap();
    assert_eq!(packs.iter().map(|p| p.credits).collect::<Vec<_>>(), vec![25, 60, 400]);
    // Another site's packs never leak in.
    assert!(sites::credit_packs(&db, 9_999).await.unwrap().is_empty());
});

on_both_databases!(cache_picks_site_by_host_and_sees_reloads, |db: Db| async move {
    seed_if_empty(&db).await.unwrap();
    let cache = SiteCache::load(db.clone()).await.unwrap();
    assert_eq!(cache.for_host(Some("vonk.de")).unwrap().settings.domain_language, "de-DE");
    assert_eq!(cache.for_host(Some("WWW.VONK.DE:8443")).unwrap().settings.domain, "vonk.de");
    assert_eq!(cache.for_host(Some("unknown.example")).unwrap().settings.domain, "localhost");
    assert_eq!(cache.for_host(None).unwrap().settings.domain, "localhost");

    // A change in the database is not read per request, only on reload.
    sqlx::query("UPDATE sites SET name = 'Vonk DE' WHERE domain = 'vonk.de'").execute(db.pool()).await.unwrap();
    assert_eq!(cache.for_host(Some("vonk.de")).unwrap().settings.name, "Vonk");
    cache.reload().await.unwrap();
    assert_eq!(cache.for_host(Some("vonk.de")).unwrap().settings.name, "Vonk DE");
});

on_both_databases!(bad_theme_colour_never_reaches_pages, |db: Db| async move {
    seed_if_empty(&db).await.unwrap();
    sqlx::query("UPDATE sites SET theme_primary = 'red;}body{display:none' WHERE domain = 'localhost'").execute(db.pool()).await.unwrap();
    let cache = SiteCache::load(db.clone()).await.unwrap();
    assert_eq!(cache.for_host(Some("localhost")).unwrap().settings.theme, domain::site::Theme::default());
});

on_both_databases!(database_rejects_invalid_rows, |db: Db| async move {
    seed_if_empty(&db).await.unwrap();
    let bad_niche = sqlx::query("UPDATE sites SET niche = 9 WHERE domain = 'localhost'").execute(db.pool()).await;
    assert!(bad_niche.is_err(), "niche outside 1..7 must be refused");
    let bad_pack = sqlx::query("UPDATE credit_packs SET credits = 0").execute(db.pool()).await;
    assert!(bad_pack.is_err(), "a pack of zero credits must be refused");
    let second_default = sqlx::query("UPDATE sites SET is_default = TRUE WHERE domain = 'vonk.de'").execute(db.pool()).await;
    assert!(second_default.is_err(), "only one default site");
});

#[tokio::test]
async fn sqlite_file_survives_reconnect() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/data/vonk.db", dir.path().display());
    let db = Db::connect(&url, 2).await.unwrap();
    seed_if_empty(&db).await.unwrap();
    db.close().await;
    assert!(dir.path().join("data/vonk.db").is_file());
    let db = Db::connect(&url, 2).await.unwrap();
    assert!(!seed_if_empty(&db).await.unwrap());
    assert_eq!(sites::load_all(&db).await.unwrap().len(), 2);
}
