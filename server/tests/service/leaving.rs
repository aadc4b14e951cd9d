//! The company's leaving discount on SQLite and PostgreSQL: offered once, a code only its
//! member can redeem, the same code however often (or however fast) it is taken.

use crate::support;

use domain::ErrorCode;
use server::payments::leaving::{LeavingOffer, LEAVING_CODE_DAYS};
use server::Db;
use support::shop::{payments, refused};
use support::world::{world, NOW};

on_both_databases!(the_leaving_discount_is_offered_once_and_only_its_member_redeems_it, |db: Db| async move {
    let mut w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;

    // A company without one offers nothing, and nothing can be taken.
    w.site.company.delete_discount = 0;
    assert_eq!(p.leaving_offer(&w.site, &anna).await.unwrap(), LeavingOffer::None);
    assert_eq!(refused(p.take_leaving_discount(&w.site, &anna, NOW).await), ErrorCode::NotFound);

    w.site.company.delete_discount = 40;
    assert_eq!(p.leaving_offer(&w.site, &anna).await.unwrap(), LeavingOffer::Offer(40));
    // Taken twice at once: one code, the same for both.
    let (a, b) = tokio::join!(p.take_leaving_discount(&w.site, &anna, NOW), p.take_leaving_discount(&w.site, &anna, NOW));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a, b);
    assert!(a.code.starts_with("BLIJF-") && a.percentage == 40 && a.expires_at == NOW + LEAVING_CODE_DAYS * 86_400, "{a:?}");
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM discount_codes WHERE member_id = $1").bind(anna.id).fetch_one(w.db.pool()).await.unwrap();
    assert_eq!(rows, 1);
    // Offered once: from now on the flow shows her code; a company raising its percentage changes nothing.
    w.site.company.delete_discount = 60;
    assert_eq!(p.leaving_offer(&w.site, &anna).await.unwrap(), LeavingOffer::Taken(a.clone()));
    assert_eq!(p.take_leaving_discount(&w.site, &anna, NOW + 60).await.unwrap(), a);

    // Only Anna can redeem it; other members are told it does not exist.
    let hers = p.offer(&w.site, &anna, None, Some(&a.code), "NL", NOW + 3600).await.unwrap();
    assert_eq!(hers.discount.map(|d| (d.code, d.percent)), Some((a.code.clone(), 40)));
    assert_eq!(refused(p.offer(&w.site, &bart, None, Some(&a.code), "NL", NOW + 3600).await), ErrorCode::DiscountNotFound);
    // Expired after its days.
    assert_eq!(refused(p.offer(&w.site, &anna, None, Some(&a.code), "NL", a.expires_at).await), ErrorCode::DiscountNotFound);
});
