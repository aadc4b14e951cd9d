//! Age assurance on SQLite and PostgreSQL: the gate the chat and the payments hold themselves
//! (whatever page or server function calls them), checks through the built-in test provider
//! settled once and only by their own member, the daily cap, a site without a provider, the
//! badge on the profile and staff's setting.

use crate::support;

use domain::age::CheckStatus;
use domain::payment::PaymentMethod;
use domain::ErrorCode;
use server::age::{AgeChecks, AgeProvider, TestAgeProvider, CHECKS_PER_DAY};
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::staff::SiteChange;
use server::Db;
use support::shop::{pack_id, payments, refused};
use support::world::{world, World, NOW};

fn age_checks(w: &World) -> AgeChecks {
    let provider = AgeProvider::Test(TestAgeProvider::new(w.db.clone(), support::links()));
    AgeChecks::new(w.db.clone(), Some(provider), support::links(), "http://127.0.0.1:9".into())
}

/// The default site asking for checks where `countries` says.
fn site_asking(w: &World, countries: &str) -> server::sites::Site {
    let mut site = w.site.clone();
    site.settings.age_check_countries = countries.into();
    site
}

async fn count(db: &Db, sql: &str, id: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as(sql).bind(id).fetch_one(db.pool()).await.unwrap();
    n
}

fn text(s: &str) -> Content {
    Content::Text(s.to_string())
}

on_both_databases!(the_age_gate_holds_for_chat_and_payments_until_a_check_passes, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused"));
    let age = age_checks(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let pack = pack_id(&w, &p, 60).await;
    let messages = "SELECT COUNT(*) FROM messages WHERE sender_id = $1";
    let orders = "SELECT COUNT(*) FROM payments WHERE user_id = $1";

    // Germany and the UK ask; Anna's profile is Dutch: nothing is asked of her.
    let de_gb = site_asking(&w, "DE,GB");
    chat.send(&de_gb, &anna, To::Member(bram.id), "age-gate-000001", text("hoi"), NOW).await.unwrap();
    // Signed in from Germany: her sends and payments wait for a check, and nothing is stored.
    let mut from_germany = anna.clone();
    from_germany.session_country = Some("DE".into());
    let credits = w.reload(anna.id).await.credits;
    assert_eq!(
        chat.send(&de_gb, &from_germany, To::Member(bram.id), "age-gate-000002", text("hoi"), NOW).await.unwrap_err().code(),
        ErrorCode::AgeCheckRequired
    );
    assert_eq!(count(&w.db, messages, anna.id).await, 1);
    assert_eq!(w.reload(anna.id).await.credits, credits);
    // A payment from the UK asks too, whatever the profile says.
    assert_eq!(refused(p.start_checkout(&de_gb, &anna, pack, PaymentMethod::CreditCard, None, "GB", "nl", NOW).await), ErrorCode::AgeCheckRequired);
    // Everywhere: every way of buying is refused before anything is stored.
    let everywhere = site_asking(&w, "*");
    assert_eq!(refused(p.start_checkout(&everywhere, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await), ErrorCode::AgeCheckRequired);
    assert_eq!(refused(p.start_direct_debit(&everywhere, &anna, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW).await), ErrorCode::AgeCheckRequired);
    assert_eq!(chat.send(&everywhere, &anna, To::Member(bram.id), "age-gate-000003", text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::AgeCheckRequired);
    assert_eq!((count(&w.db, orders, anna.id).await, count(&w.db, messages, anna.id).await), (0, 1));
    let status = age.status(&everywhere, &anna, None, NOW).await.unwrap();
    assert!(status.asked && !status.verified && status.latest.is_none() && status.available);

    // The check: sent to the provider's page, back to her own page with the check's number.
    let url = age.start(&everywhere, &anna, "nl", NOW).await.unwrap();
    let reference = url.strip_prefix("/age-check/test/").expect("the test provider's page").to_string();
    let (check_id, back): (i64, String) = {
        let (id,): (i64,) = sqlx::query_as("SELECT id FROM age_checks WHERE reference = $1").bind(&reference).fetch_one(w.db.pool()).await.unwrap();
        let check = age.test_provider().unwrap().check(&reference).await.unwrap().unwrap();
        (id, check.return_url)
    };
    assert_eq!(back, format!("http://127.0.0.1:9/age-check?check={check_id}"));
    // Another member can neither open her check's page nor settle it.
    assert!(age.own_test_check(bram.id, &reference).await.unwrap().is_none());
    assert_eq!(age.settle(&bram, check_id, NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    // Coming back before answering: still open.
    assert_eq!(age.settle(&anna, check_id, NOW).await.unwrap(), CheckStatus::Started);
    assert!(!w.reload(anna.id).await.age_verified);

    let (provider, _) = age.own_test_check(anna.id, &reference).await.unwrap().unwrap();
    assert_eq!(provider.choose(&reference, true).await.unwrap(), back);
    // A second answer (a replayed form) changes nothing.
    provider.choose(&reference, false).await.unwrap();
    assert_eq!(age.settle(&anna, check_id, NOW + 10).await.unwrap(), CheckStatus::Passed);
    assert_eq!(age.settle(&anna, check_id, NOW + 20).await.unwrap(), CheckStatus::Passed);
    assert_eq!(age.verified_at(anna.id).await.unwrap(), Some(NOW + 10), "verified once, at the first settling");
    assert!(w.reload(anna.id).await.age_verified);

    // Her session's member, read before the check, is let through too (the gate asks again).
    chat.send(&everywhere, &anna, To::Member(bram.id), "age-gate-000004", text("weer hoi"), NOW + 30).await.unwrap();
    p.start_checkout(&everywhere, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW + 30).await.unwrap();
    let status = age.status(&everywhere, &w.reload(anna.id).await, None, NOW + 30).await.unwrap();
    assert!(status.verified && status.latest == Some(CheckStatus::Passed));
    // A new check is not opened for a verified member: she is sent back to her page.
    assert_eq!(age.start(&everywhere, &w.reload(anna.id).await, "nl", NOW + 40).await.unwrap(), "http://127.0.0.1:9/age-check");

    // Staff see the outcome and the provider's reference, nothing else.
    let records = age.records(anna.id).await.unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!((records[0].status, records[0].provider.as_str(), records[0].reference.as_str()), (CheckStatus::Passed, "test", reference.as_str()));
    // The profile shows the badge to others.
    let today = domain::account::Ymd::from_unix(NOW);
    assert!(w.members.profile(&everywhere, Some(bram.id), anna.id, today).await.unwrap().unwrap().age_verified);
    assert!(!w.members.profile(&everywhere, Some(anna.id), bram.id, today).await.unwrap().unwrap().age_verified);
});

on_both_databases!(a_failed_check_keeps_the_gate_shut_and_checks_are_capped_per_day, |db: Db| async move {
    let w = world(db).await;
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused"));
    let age = age_checks(&w);
    let site = site_asking(&w, "*");
    let carl = w.member("carl@example.nl", "male").await;
    let dana = w.member("dana@example.nl", "female").await;

    let url = age.start(&site, &carl, "nl", NOW).await.unwrap();
    let reference = url.strip_prefix("/age-check/test/").unwrap();
    age.test_provider().unwrap().choose(reference, false).await.unwrap();
    // Her page settles the latest check itself.
    let status = age.status(&site, &carl, None, NOW + 5).await.unwrap();
    assert!(!status.verified && status.latest == Some(CheckStatus::Failed));
    assert!(age.verified_at(carl.id).await.unwrap().is_none());
    assert_eq!(chat.send(&site, &carl, To::Member(dana.id), "age-fail-000001", text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::AgeCheckRequired);

    // Five checks a day (each may cost the operator a fee); the next day again.
    for i in 1..CHECKS_PER_DAY {
        age.start(&site, &carl, "nl", NOW + i).await.unwrap();
    }
    assert_eq!(age.start(&site, &carl, "nl", NOW + 60).await.unwrap_err().code(), ErrorCode::TooManyRequests);
    age.start(&site, &carl, "nl", NOW + 86_400 + 10).await.unwrap();

    // A site without a provider opens no checks; staff cannot ask for them there.
    let none = AgeChecks::new(w.db.clone(), None, support::links(), "http://127.0.0.1:9".into());
    assert_eq!(none.start(&site, &dana, "nl", NOW).await.unwrap_err().code(), ErrorCode::AgeChecksUnavailable);
    let setting = |countries: &str| domain::staff::AgeSettings { age_check_countries: countries.into() };
    assert_eq!(none.check_setting(&setting("DE")).unwrap_err().code(), ErrorCode::AgeChecksUnavailable);
    none.check_setting(&setting("")).unwrap();
    age.check_setting(&setting("*")).unwrap();
});

on_both_databases!(staff_set_where_checks_are_asked_for, |db: Db| async move {
    let w = world(db).await;
    let staff = server::staff::Staff::new(w.db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let boss_id = w.sign_up_with("boss@example.nl", "Boss", Default::default(), Default::default()).await;
    support::grant_staff(&w.db, &w.accounts, "boss@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss_id).await;
    let site = w.site.settings.id;
    let change = |countries: &str| SiteChange::Age(domain::staff::AgeSettings { age_check_countries: countries.into() });

    for bad in ["DEU", "de,*", "<b>GB</b>"] {
        assert_eq!(staff.change_site(&boss, site, change(bad), NOW).await.unwrap_err().code(), ErrorCode::ChoiceInvalid, "{bad}");
    }
    assert_eq!(staff.change_site(&anna, site, change("DE"), NOW).await.unwrap_err().code(), ErrorCode::NotFound, "a member is told nothing is there");
    assert!(staff.change_site(&boss, site, change("gb fr;de"), NOW).await.unwrap());
    let (stored,): (String,) = sqlx::query_as("SELECT age_check_countries FROM sites WHERE id = $1").bind(site).fetch_one(w.db.pool()).await.unwrap();
    assert_eq!(stored, "DE,FR,GB");
    let log = staff.log(&boss, site, 5).await.unwrap();
    assert!(log.iter().any(|a| a.action == "site_age_checks" && a.detail.contains("DE,FR,GB")), "{log:?}");
    let reloaded = server::sites::load_all(&w.db).await.unwrap().into_iter().find(|s| s.is_default).unwrap();
    assert_eq!(reloaded.settings.age_rule(), domain::age::AgeRule::Countries(vec!["DE".into(), "FR".into(), "GB".into()]));
});
