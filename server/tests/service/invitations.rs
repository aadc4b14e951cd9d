//! Invitations on SQLite and PostgreSQL: on an invite-only site only an open invitation lets a
//! visitor sign up, once; staff always invite, members only where the site allows it and a few a
//! day; a maker sees their own, staff all; opening (checking) a link uses nothing up.

use crate::support;

use std::sync::Arc;

use domain::account::{SignupForm, Tracking};
use domain::site::SignupPolicy;
use domain::{ErrorCode, Locale};
use server::accounts::invitations::MEMBER_INVITES_PER_DAY;
use server::accounts::{Accounts, SignupRequest};
use server::clock::Clock;
use server::locales::Catalog;
use server::mail::Outbox;
use server::Db;
use support::shop::refused;
use support::world::{world, NOW};

fn form(email: &str) -> SignupForm {
    SignupForm {
        email: email.into(),
        name: "Nina".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1990-05-17".into(),
        signup_message: String::new(),
    }
}

fn request<'a>(site: &'a domain::site::SiteSettings, email: &str, invitation: Option<&str>) -> SignupRequest<'a> {
    SignupRequest {
        site,
        form: form(email),
        tracking: Tracking::default(),
        locale: Locale::Nl,
        base_url: "http://127.0.0.1:3000".into(),
        client: Default::default(),
        invitation: invitation.map(str::to_string),
    }
}

async fn users(db: &Db, email: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE email = $1").bind(email).fetch_one(db.pool()).await.unwrap();
    n
}

on_both_databases!(only_an_open_invitation_lets_a_visitor_join_an_invite_only_site_and_only_once, |db: Db| async move {
    let mut w = world(db.clone()).await;
    let boss = w.member("boss@example.nl", "male").await;
    assert_eq!(support::grant_staff(&w.db, &w.accounts, "boss@example.nl", domain::staff::StaffRole::Admin).await, 1);
    let boss = w.reload(boss.id).await;
    let anna = w.member("anna@example.nl", "female").await;
    let clock = Clock::fixed(NOW);
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::new(db.clone(), clock.clone(), Outbox::files(mail.path().to_path_buf()), Arc::new(Catalog::embedded()), support::links());
    w.site.settings.signups = SignupPolicy::InviteOnly;
    w.site.settings.invitation_days = 14;
    let site = &w.site.settings;

    // No invitation, or one nobody made: refused, nobody created.
    assert_eq!(refused(accounts.signup(request(site, "nina@example.nl", None)).await), ErrorCode::SignupInviteOnly);
    assert_eq!(refused(accounts.signup(request(site, "nina@example.nl", Some(&"ab".repeat(32)))).await), ErrorCode::InvitationInvalid);
    assert_eq!(users(&db, "nina@example.nl").await, 0);

    // Members may not invite unless the site lets them; staff may.
    assert_eq!(refused(accounts.invite(site, &anna, "").await), ErrorCode::Forbidden);
    let token = accounts.invite(site, &boss, " Nina <b>van de sportschool</b> ").await.unwrap();
    assert!(accounts.invitation_is_open(site.id, &token).await.unwrap());
    // Checking a link (a mail scanner opening it) uses nothing up.
    assert!(accounts.invitation_is_open(site.id, &token).await.unwrap());

    // Two signups with one link at the same moment: one member.
    let (a, b) = tokio::join!(accounts.signup(request(site, "nina@example.nl", Some(&token))), accounts.signup(request(site, "noor@example.nl", Some(&token))));
    assert_eq!(a.is_ok() as u8 + b.is_ok() as u8, 1, "{a:?} {b:?}");
    assert_eq!(users(&db, "nina@example.nl").await + users(&db, "noor@example.nl").await, 1);
    let loser = if a.is_ok() { b } else { a };
    assert!(matches!(loser, Err(server::AppError::Refused(ref e)) if e.code == ErrorCode::InvitationInvalid || e.code == ErrorCode::EmailTaken), "{loser:?}");
    assert!(!accounts.invitation_is_open(site.id, &token).await.unwrap());
    assert_eq!(refused(accounts.signup(request(site, "otto@example.nl", Some(&token))).await), ErrorCode::InvitationInvalid);

    // Staff see who made it and who used it; the note is kept as text, trimmed; the staff log has it.
    let list = accounts.invitations(site.id, &boss).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].note, "Nina <b>van de sportschool</b>");
    assert_eq!(list[0].state(NOW), "used");
    assert!(list[0].invited_by.as_deref().is_some_and(|b| b.contains(&format!("#{}", boss.id))));
    assert!(list[0].used_by.is_some());
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'invitation_created' AND staff_id = $1")
        .bind(boss.id)
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(logged, 1);

    // An invitation expires after the site's days.
    let late = accounts.invite(site, &boss, "").await.unwrap();
    clock.advance(14 * 86_400);
    assert!(!accounts.invitation_is_open(site.id, &late).await.unwrap());
    assert_eq!(refused(accounts.signup(request(site, "laat@example.nl", Some(&late))).await), ErrorCode::InvitationInvalid);

    // An open site ignores invitations (a stale link does not stand in the way).
    w.site.settings.signups = SignupPolicy::All;
    accounts.signup(request(&w.site.settings, "open@example.nl", Some(&late))).await.unwrap();
});

on_both_databases!(members_invite_where_the_site_allows_a_few_a_day_and_see_and_withdraw_only_their_own, |db: Db| async move {
    let mut w = world(db.clone()).await;
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let boss = w.member("boss@example.nl", "male").await;
    assert_eq!(support::grant_staff(&w.db, &w.accounts, "boss@example.nl", domain::staff::StaffRole::Admin).await, 1);
    let boss = w.reload(boss.id).await;
    w.site.settings.signups = SignupPolicy::InviteOnly;
    w.site.settings.member_invites = true;
    w.site.settings.invitation_days = 7;
    let site = &w.site.settings;

    // A few a day, also when asked for at once.
    w.accounts.invite(site, &anna, "Eva").await.unwrap();
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..MEMBER_INVITES_PER_DAY + 1 {
        let (accounts, site, anna) = (w.accounts.clone(), site.clone(), anna.clone());
        set.spawn(async move { accounts.invite(&site, &anna, "").await });
    }
    let made = set.join_all().await;
    assert_eq!(made.iter().filter(|r| r.is_ok()).count() as i64, MEMBER_INVITES_PER_DAY - 1, "{made:?}");
    assert!(made.iter().filter_map(|r| r.as_ref().err()).all(|e| matches!(e, server::AppError::Refused(x) if x.code == ErrorCode::TooManyRequests)));
    let bart_token = w.accounts.invite(site, &bart, "").await.unwrap();

    // Each member sees their own; staff see all.
    let annas = w.accounts.invitations(site.id, &anna).await.unwrap();
    assert_eq!(annas.len() as i64, MEMBER_INVITES_PER_DAY);
    assert!(annas.iter().all(|i| i.state(NOW) == "open" && i.expires_at == NOW + 7 * 86_400));
    assert_eq!(w.accounts.invitations(site.id, &bart).await.unwrap().len(), 1);
    assert_eq!(w.accounts.invitations(site.id, &boss).await.unwrap().len() as i64, MEMBER_INVITES_PER_DAY + 1);

    // Bart cannot withdraw Anna's; Anna can, once; staff can withdraw any.
    let eva = annas.iter().find(|i| i.note == "Eva").unwrap().id;
    assert_eq!(refused(w.accounts.withdraw_invitation(site.id, &bart, eva).await), ErrorCode::NotFound);
    w.accounts.withdraw_invitation(site.id, &anna, eva).await.unwrap();
    assert_eq!(refused(w.accounts.withdraw_invitation(site.id, &anna, eva).await), ErrorCode::NotFound);
    let barts = w.accounts.invitations(site.id, &bart).await.unwrap()[0].id;
    w.accounts.withdraw_invitation(site.id, &boss, barts).await.unwrap();
    assert!(!w.accounts.invitation_is_open(site.id, &bart_token).await.unwrap());
    assert_eq!(refused(w.accounts.signup(request(site, "nina@example.nl", Some(&bart_token))).await), ErrorCode::InvitationInvalid);

    // The site turning members' invitations off stops them.
    w.site.settings.member_invites = false;
    assert_eq!(refused(w.accounts.invite(&w.site.settings, &bart, "").await), ErrorCode::Forbidden);
});
