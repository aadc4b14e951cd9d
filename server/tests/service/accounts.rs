//! Accounts on a real SQLite file and a real PostgreSQL: signup, activation, login, lockout,
//! sessions, and the credit ledger.

use crate::support;

use std::sync::Arc;

use domain::account::{SignupForm, Tracking};
use domain::site::{SignupPolicy, SiteSettings};
use domain::ErrorCode;
use domain::Locale;
use server::accounts::{Accounts, SignupRequest};
use server::clock::Clock;
use server::locales::Catalog;
use server::mail::Outbox;
use server::seed::seed_if_empty;
use server::Db;

/// 2026-11-22 12:00 UTC
const NOW: i64 = 1_795_348_800;

struct Ctx {
    db: Db,
    accounts: Accounts,
    site: SiteSettings,
    mail_dir: tempfile::TempDir,
    clock: Clock,
}

async fn ctx(db: Db) -> Ctx {
    seed_if_empty(&db).await.unwrap();
    let site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap().settings;
    let mail_dir = tempfile::tempdir().unwrap();
    let clock = Clock::fixed(NOW);
    let accounts = Accounts::new(db.clone(), clock.clone(), Outbox::files(mail_dir.path().to_path_buf()), Arc::new(Catalog::embedded()), support::links());
    Ctx { db, accounts, site, mail_dir, clock }
}

fn form(email: &str) -> SignupForm {
    SignupForm {
        email: email.into(),
        name: "Anna".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1990-05-17".into(),
        signup_message: String::new(),
    }
}

fn request<'a>(site: &'a SiteSettings, form: SignupForm) -> SignupRequest<'a> {
    SignupRequest {
        site,
        form,
        tracking: Tracking::default(),
        locale: Locale::Nl,
        base_url: "http://127.0.0.1:3000".into(),
        client: Default::default(),
        invitation: None,
    }
}

fn mails(dir: &tempfile::TempDir) -> Vec<String> {
    let mut list: Vec<String> =
        std::fs::read_dir(dir.path()).map(|d| d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect()).unwrap_or_default();
    list.sort();
    list
}

/// The activation token from a mail's text part.
fn activation_token(mail: &str) -> String {
    // Undo quoted-printable: soft line breaks and the escaped '='.
    let mail = mail.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
    let marker = "/activate?token=";
    let start = mail.find(marker).expect("a link with a token") + marker.len();
    mail[start..start + 64].to_string()
}

on_both_databases!(signup_books_credits_mails_and_logs_in, |db: Db| async move {
    let c = ctx(db).await;
    let (user_id, session) = c.accounts.signup(request(&c.site, form(" Anna@Example.NL "))).await.unwrap();
    let member = c.accounts.member_for_session(&session).await.unwrap().expect("logged in after signup");
    assert_eq!(member.id, user_id);
    assert_eq!(member.email, "anna@example.nl");
    assert_eq!(member.status, domain::account::UserStatus::NotConfirmed);
    assert_eq!(member.credits, c.site.signup_credits);
    assert_eq!(server::credits::balance_and_ledger(&c.db, user_id).await.unwrap(), (c.site.signup_credits, c.site.signup_credits));
    let sent = mails(&c.mail_dir);
    assert_eq!(sent.len(), 1);
    assert!(sent[0].contains("To: anna@example.nl"));
    assert!(sent[0].contains("multipart/alternative") && sent[0].contains("text/html"));
    let decoded = sent[0].replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
    assert!(decoded.contains("Hoi Anna,"), "the mail is in the member's language");
    assert!(decoded.contains("http://127.0.0.1:3000/activate?token="), "the link uses the configured base URL");
});

on_both_databases!(signup_refuses_bad_input_and_changes_nothing, |db: Db| async move {
    let c = ctx(db).await;
    let mut bad = form("anna@example.nl");
    bad.name = "@anna".into();
    bad.date_of_birth = "2015-01-01".into();
    match c.accounts.signup(request(&c.site, bad)).await {
        Err(error) => assert_eq!(error.code(), ErrorCode::NameStartsWithAt, "the first wrong field"),
        other => panic!("expected validation errors, got {other:?}"),
    }
    c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let again = c.accounts.signup(request(&c.site, form("ANNA@example.nl"))).await;
    assert_eq!(again.unwrap_err().code().locale_key(), "validation.email_taken");
    assert_eq!(mails(&c.mail_dir).len(), 1, "refused signups send no mail");
});

on_both_databases!(signup_policy_of_the_site_is_enforced, |db: Db| async move {
    let c = ctx(db).await;
    let mut site = c.site.clone();
    site.signups = SignupPolicy::InviteOnly;
    let refused = c.accounts.signup(request(&site, form("a@example.nl"))).await.unwrap_err();
    assert_eq!(refused.code().locale_key(), "error.signup_invite_only");
    site.signups = SignupPolicy::TrafficSourceOnly;
    assert_eq!(c.accounts.signup(request(&site, form("a@example.nl"))).await.unwrap_err().code().locale_key(), "error.signup_traffic_source_required");
    let mut with_source = request(&site, form("a@example.nl"));
    with_source.tracking = Tracking { network: Some("adnet".into()), sub1: Some("x".into()), ..Tracking::default() };
    c.accounts.signup(with_source).await.unwrap();
});

on_both_databases!(activation_link_is_single_use_and_expires, |db: Db| async move {
    let c = ctx(db).await;
    let (user_id, _) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let token = activation_token(&mails(&c.mail_dir)[0]);
    assert!(c.accounts.activate("not-a-token").await.is_err());
    assert_eq!(c.accounts.activate(&token).await.unwrap(), user_id);
    assert_eq!(c.accounts.member(user_id).await.unwrap().unwrap().status, domain::account::UserStatus::Active);
    assert!(c.accounts.activate(&token).await.is_err_and(|e| e.code() == domain::ErrorCode::LinkExpired), "single use");

    let (other, _) = c.accounts.signup(request(&c.site, form("bob@example.nl"))).await.unwrap();
    let token = activation_token(&mails(&c.mail_dir)[1]);
    c.clock.advance(server::accounts::ACTIVATION_TTL_SECS + 1);
    assert!(c.accounts.activate(&token).await.is_err_and(|e| e.code() == domain::ErrorCode::LinkExpired), "expired");
    assert_eq!(c.accounts.member(other).await.unwrap().unwrap().status, domain::account::UserStatus::NotConfirmed);
});

on_both_databases!(login_rotates_sessions_and_logout_ends_them, |db: Db| async move {
    let c = ctx(db).await;
    let (_, first) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let second = c.accounts.login(c.site.id, "ANNA@example.nl ", "rode kater op het dak", Some(&first), &Default::default()).await.unwrap().session().unwrap();
    assert_ne!(first, second, "a new session id at login");
    assert!(c.accounts.member_for_session(&first).await.unwrap().is_none(), "the old session is gone");
    assert!(c.accounts.member_for_session(&second).await.unwrap().is_some());
    c.accounts.logout(&second).await.unwrap();
    assert!(c.accounts.member_for_session(&second).await.unwrap().is_none());
    // Sessions expire after 30 days.
    let third = c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap().session().unwrap();
    c.clock.advance(30 * 24 * 3600 + 1);
    assert!(c.accounts.member_for_session(&third).await.unwrap().is_none());
});

on_both_databases!(login_locks_after_five_failures_and_unlocks_later, |db: Db| async move {
    let c = ctx(db).await;
    c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    for _ in 0..4 {
        let e = c.accounts.login(c.site.id, "anna@example.nl", "wrong password", None, &Default::default()).await.unwrap_err();
        assert_eq!(e.code().locale_key(), "error.login_failed");
    }
    match c.accounts.login(c.site.id, "anna@example.nl", "wrong password", None, &Default::default()).await {
        Err(e) if e.code() == ErrorCode::TooManyAttempts => assert_eq!(e.refusal().unwrap().arg_i64("minutes"), Some(15)),
        other => panic!("expected a lock, got {other:?}"),
    }
    // Even the right password waits while locked.
    c.clock.advance(10 * 60);
    match c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await {
        Err(e) if e.code() == ErrorCode::TooManyAttempts => assert_eq!(e.refusal().unwrap().arg_i64("minutes"), Some(5)),
        other => panic!("expected a lock, got {other:?}"),
    }
    c.clock.advance(5 * 60);
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.is_ok());
    // An unknown address answers exactly like a wrong password.
    assert_eq!(
        c.accounts.login(c.site.id, "nobody@example.nl", "whatever1", None, &Default::default()).await.unwrap_err().code().locale_key(),
        "error.login_failed"
    );
});

on_both_databases!(ten_parallel_wrong_logins_lock_the_account, |db: Db| async move {
    let c = ctx(db).await;
    c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    // All ten read the counter before any of them wrote it: each still counts.
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let (accounts, site) = (c.accounts.clone(), c.site.id);
        set.spawn(async move { accounts.login(site, "anna@example.nl", "wrong password", None, &Default::default()).await.unwrap_err().code() });
    }
    let mut locked = 0;
    while let Some(code) = set.join_next().await {
        if code.unwrap() == ErrorCode::TooManyAttempts {
            locked += 1;
        }
    }
    assert!(locked >= 1, "the fifth failure locks");
    match c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await {
        Err(e) if e.code() == ErrorCode::TooManyAttempts => assert_eq!(e.refusal().unwrap().arg_i64("minutes"), Some(15)),
        other => panic!("the right password must wait while locked, got {other:?}"),
    }
});

on_both_databases!(wrong_passwords_in_settings_count_in_the_lockout, |db: Db| async move {
    let c = ctx(db).await;
    let (id, _) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    for _ in 0..4 {
        let e = c.accounts.change_password(id, "not my password", "een nieuw wachtwoord", "een nieuw wachtwoord", &Default::default()).await.unwrap_err();
        assert_eq!(e.code(), ErrorCode::OldPasswordWrong);
    }
    let e = c.accounts.delete_account(&c.site, id, "still not it", "", "http://x", &Default::default()).await.unwrap_err();
    assert_eq!(e.code(), ErrorCode::TooManyAttempts, "the fifth wrong password locks, wherever it was typed");
    // Locked: neither login nor the right password in settings gets through.
    assert_eq!(
        c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap_err().code(),
        ErrorCode::TooManyAttempts
    );
    assert_eq!(
        c.accounts.change_password(id, "rode kater op het dak", "een nieuw wachtwoord", "een nieuw wachtwoord", &Default::default()).await.unwrap_err().code(),
        ErrorCode::TooManyAttempts
    );
    c.clock.advance(15 * 60);
    assert!(c.accounts.change_password(id, "rode kater op het dak", "een nieuw wachtwoord", "een nieuw wachtwoord", &Default::default()).await.is_ok());
});

on_both_databases!(blocked_members_lose_their_sessions_and_cannot_come_back, |db: Db| async move {
    let c = ctx(db).await;
    let (id, session) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let activation = activation_token(&mails(&c.mail_dir)[0]);
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    let reset = link_token(&c.mail_dir, "/reset-password/do?token=");
    let other = c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap().session().unwrap();

    c.accounts.set_blocked(id, true).await.unwrap();
    for s in [&session, &other] {
        assert!(c.accounts.member_for_session(s).await.unwrap().is_none(), "every session ends at once");
    }
    // No way back in: not with the password, a new or an old reset link, or the activation link.
    assert_eq!(
        c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap_err().code(),
        ErrorCode::LoginFailed
    );
    // A reset answers as for any address, and sends nothing.
    let before = mails(&c.mail_dir).len();
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    assert_eq!(mails(&c.mail_dir).len(), before, "no reset mail for a blocked member");
    assert_eq!(
        c.accounts.reset_password(&reset, "nieuw wachtwoord 1", "nieuw wachtwoord 1", &Default::default()).await.unwrap_err().code(),
        ErrorCode::Forbidden
    );
    assert_eq!(c.accounts.activate(&activation).await.unwrap_err().code(), ErrorCode::Forbidden);
    let (status,): (String,) = sqlx::query_as("SELECT status FROM users WHERE id = $1").bind(id).fetch_one(c.db.pool()).await.unwrap();
    assert_eq!(status, "blocked");

    // Unblocked, the member logs in again.
    c.accounts.set_blocked(id, false).await.unwrap();
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.is_ok());
});

on_both_databases!(accounts_are_per_site, |db: Db| async move {
    let c = ctx(db.clone()).await;
    c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let other_site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| !s.is_default).unwrap().settings;
    assert_eq!(
        c.accounts.login(other_site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap_err().code().locale_key(),
        "error.login_failed"
    );
    // The same address may join the other site separately.
    c.accounts.signup(request(&other_site, form("anna@example.nl"))).await.unwrap();
});

/// The token of the newest mail whose link contains `path`.
fn link_token(dir: &tempfile::TempDir, path: &str) -> String {
    let all = mails(dir);
    let mail =
        all.iter().rev().map(|m| m.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=")).find(|m| m.contains(path)).expect("a mail with that link");
    let start = mail.find(path).unwrap() + path.len();
    mail[start..start + 64].to_string()
}

on_both_databases!(password_reset_flow_with_spec_texts_and_limits, |db: Db| async move {
    let c = ctx(db).await;
    let (_, old_session) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    // An address without an account answers as one with an account, and gets no mail.
    let before = mails(&c.mail_dir).len();
    c.accounts.request_password_reset(&c.site, "nobody@example.nl", "http://x").await.unwrap();
    assert_eq!(mails(&c.mail_dir).len(), before, "nothing sent to an address without an account");

    c.accounts.request_password_reset(&c.site, "ANNA@example.nl", "http://x").await.unwrap();
    let token = link_token(&c.mail_dir, "/reset-password/do?token=");
    // Bad input keeps the link usable and changes nothing.
    assert_eq!(
        c.accounts.reset_password(&token, "nieuw wachtwoord 1", "nieuw wachtwoord 2", &Default::default()).await.unwrap_err().code().locale_key(),
        "validation.passwords_differ"
    );
    assert_eq!(c.accounts.reset_password(&token, "kort", "kort", &Default::default()).await.unwrap_err().code().locale_key(), "validation.password_too_short");
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.is_ok(), "old password still works");

    let new_session = c.accounts.reset_password(&token, "nieuw wachtwoord 1", "nieuw wachtwoord 1", &Default::default()).await.unwrap().unwrap();
    assert!(c.accounts.member_for_session(&old_session).await.unwrap().is_none(), "other sessions end");
    assert!(c.accounts.member_for_session(&new_session).await.unwrap().is_some());
    assert_eq!(
        c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap_err().code().locale_key(),
        "error.login_failed"
    );
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "nieuw wachtwoord 1", None, &Default::default()).await.is_ok());
    assert_eq!(
        c.accounts.reset_password(&token, "nog een wachtwoord", "nog een wachtwoord", &Default::default()).await.unwrap_err().code().locale_key(),
        "error.link_expired",
        "single use"
    );

    // Three mails a day; the fourth is refused until a day has passed.
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    assert_eq!(c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap_err().code().locale_key(), "error.too_many_resets");
    c.clock.advance(24 * 3600 + 1);
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    // Links expire after two hours.
    let token = link_token(&c.mail_dir, "/reset-password/do?token=");
    c.clock.advance(2 * 3600 + 1);
    assert_eq!(
        c.accounts.reset_password(&token, "nog een wachtwoord", "nog een wachtwoord", &Default::default()).await.unwrap_err().code().locale_key(),
        "error.link_expired"
    );
});

on_both_databases!(an_address_without_an_account_answers_as_one_with_an_account, |db: Db| async move {
    let c = ctx(db).await;
    c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    // Wrong passwords: the same answers, in the same order, for Anna's address and for one
    // without an account, the lockout's minutes included.
    let answers = |email: &'static str| {
        let (accounts, site) = (c.accounts.clone(), c.site.id);
        async move {
            let mut seen = Vec::new();
            for _ in 0..7 {
                let e = accounts.login(site, email, "fout wachtwoord", None, &Default::default()).await.unwrap_err();
                let public = e.into_public();
                seen.push((public.code, public.arg_i64("minutes")));
            }
            seen
        }
    };
    let known = answers("anna@example.nl").await;
    let unknown = answers("nobody@example.nl").await;
    assert_eq!(known, unknown);
    assert_eq!(known[3], (ErrorCode::LoginFailed, None));
    assert_eq!(known[4], (ErrorCode::TooManyAttempts, Some(15)), "the fifth wrong password locks");
    assert_eq!(known[6], (ErrorCode::TooManyAttempts, Some(15)));
    // Both open again after the lock.
    c.clock.advance(15 * 60 + 1);
    assert_eq!(c.accounts.login(c.site.id, "NOBODY@example.nl", "fout", None, &Default::default()).await.unwrap_err().code(), ErrorCode::LoginFailed);
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.is_ok());

    // Reset mails: three a day for any address, the fourth refused alike.
    for email in ["anna@example.nl", "nobody@example.nl"] {
        for _ in 0..3 {
            c.accounts.request_password_reset(&c.site, email, "http://x").await.unwrap();
        }
        assert_eq!(c.accounts.request_password_reset(&c.site, email, "http://x").await.unwrap_err().code(), ErrorCode::TooManyResets, "{email}");
    }
    assert_eq!(mails(&c.mail_dir).iter().filter(|m| m.contains("/reset-password/do?token=")).count(), 3, "mails only to the account");
});

on_both_databases!(settings_change_password_invisible_and_resend, |db: Db| async move {
    let c = ctx(db).await;
    let (id, first) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let second = c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap().session().unwrap();
    let wrong = c.accounts.change_password(id, "fout", "nieuw wachtwoord 1", "nieuw wachtwoord 1", &Default::default()).await.unwrap_err();
    assert_eq!(wrong.code().locale_key(), "validation.old_password_wrong");
    let current = c.accounts.change_password(id, "rode kater op het dak", "nieuw wachtwoord 1", "nieuw wachtwoord 1", &Default::default()).await.unwrap();
    for old in [&first, &second] {
        assert!(c.accounts.member_for_session(old).await.unwrap().is_none(), "other sessions end");
    }
    assert!(c.accounts.member_for_session(&current).await.unwrap().is_some());

    assert!(!c.accounts.is_invisible(id).await.unwrap());
    c.accounts.set_invisible(id, true).await.unwrap();
    assert!(c.accounts.is_invisible(id).await.unwrap());
    assert!(c.accounts.member(id).await.unwrap().unwrap().invisible);
    c.accounts.set_invisible(id, false).await.unwrap();
    assert!(!c.accounts.is_invisible(id).await.unwrap());

    // The signup mail was the first of three a day.
    c.accounts.resend_activation(&c.site, id, "http://x").await.unwrap();
    c.accounts.resend_activation(&c.site, id, "http://x").await.unwrap();
    assert_eq!(c.accounts.resend_activation(&c.site, id, "http://x").await.unwrap_err().code().locale_key(), "error.too_many_mails");
    // The newest link works.
    let token = link_token(&c.mail_dir, "/activate?token=");
    c.accounts.activate(&token).await.unwrap();
    c.accounts.resend_activation(&c.site, id, "http://x").await.expect("confirmed members get no mail and no error");
    assert_eq!(mails(&c.mail_dir).len(), 3);
});

on_both_databases!(email_change_needs_the_password_and_the_old_address_can_undo_it, |db: Db| async move {
    let c = ctx(db).await;
    let pw = "rode kater op het dak";
    let (id, session) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let elsewhere = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &Default::default()).await.unwrap().session().unwrap();
    c.accounts.signup(request(&c.site, form("bob@example.nl"))).await.unwrap();
    let change = |email: &'static str, password: &'static str| {
        let (accounts, site) = (c.accounts.clone(), c.site.clone());
        async move { accounts.request_email_change(&site, id, email, password, "http://x", &Default::default()).await }
    };
    // A session alone is not enough: the password is asked, and a wrong one counts in the lockout.
    assert_eq!(change("thief@example.nl", "geraden").await.unwrap_err().code(), ErrorCode::PasswordWrong);
    let (failures,): (i64,) = sqlx::query_as("SELECT failed_logins FROM users WHERE id = $1").bind(id).fetch_one(c.db.pool()).await.unwrap();
    assert_eq!(failures, 1);
    assert_eq!(change("geen-adres", pw).await.unwrap_err().code().locale_key(), "validation.new_email_invalid");
    assert_eq!(change("Bob@example.nl", pw).await.unwrap_err().code().locale_key(), "validation.email_taken");
    change("anna.nieuw@example.nl", pw).await.unwrap();
    let sent = mails(&c.mail_dir);
    let change_mails: Vec<&String> = sent.iter().filter(|m| m.contains("mail-change/do")).collect();
    assert_eq!(change_mails.len(), 1);
    assert!(change_mails[0].contains("To: anna.nieuw@example.nl"), "the link goes to the new address");
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().email, "anna@example.nl", "nothing changes before the link is opened");
    // Three change mails a day.
    change("anna.twee@example.nl", pw).await.unwrap();
    change("anna.drie@example.nl", pw).await.unwrap();
    assert_eq!(change("anna.vier@example.nl", pw).await.unwrap_err().code(), ErrorCode::TooManyMails);

    // The mail to the last new address (mails of one second come in no particular order).
    let to_drie = mails(&c.mail_dir)
        .into_iter()
        .map(|m| m.replace("=\r\n", "").replace("=\n", "").replace("=3D", "="))
        .find(|m| m.contains("To: anna.drie@example.nl"))
        .unwrap();
    let at = to_drie.find("/mail-change/do?token=").unwrap() + "/mail-change/do?token=".len();
    let token = to_drie[at..at + 64].to_string();
    c.accounts.confirm_email_change(&c.site, &token, Some(&session), "http://x", &Default::default()).await.unwrap();
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().email, "anna.drie@example.nl");
    assert!(c.accounts.member_for_session(&session).await.unwrap().is_some(), "the confirming browser stays logged in");
    assert!(c.accounts.member_for_session(&elsewhere).await.unwrap().is_none(), "every other session ends");
    assert!(c.accounts.login(c.site.id, "anna.drie@example.nl", pw, None, &Default::default()).await.is_ok());
    assert_eq!(
        c.accounts.confirm_email_change(&c.site, &token, None, "http://x", &Default::default()).await.unwrap_err().code().locale_key(),
        "error.link_expired"
    );

    // The old address is told, with a link that puts it back.
    let notice = mails(&c.mail_dir).into_iter().find(|m| m.contains("mail-change/undo")).expect("a notice to the old address");
    assert!(notice.contains("To: anna@example.nl"), "{notice}");
    // Meanwhile a reset link went to the new address.
    c.accounts.request_password_reset(&c.site, "anna.drie@example.nl", "http://x").await.unwrap();
    let reset = link_token(&c.mail_dir, "/reset-password/do?token=");
    let undo = link_token(&c.mail_dir, "/mail-change/undo?token=");
    c.accounts.undo_email_change(&undo, &Default::default()).await.unwrap();
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().email, "anna@example.nl");
    assert!(c.accounts.member_for_session(&session).await.unwrap().is_none(), "undoing ends every session");
    assert_eq!(
        c.accounts.reset_password(&reset, "een heel nieuw wachtwoord", "een heel nieuw wachtwoord", &Default::default()).await.unwrap_err().code(),
        ErrorCode::LinkExpired,
        "links sent to the other address die"
    );
    assert_eq!(c.accounts.undo_email_change(&undo, &Default::default()).await.unwrap_err().code(), ErrorCode::LinkExpired, "single use");
    let kinds: Vec<String> = c.accounts.security_events(id).await.unwrap().iter().map(|e| e.kind.as_str().to_string()).collect();
    for kind in ["email_change_requested", "email_changed", "email_change_undone", "login_failed"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
});

on_both_databases!(the_undo_link_lasts_seven_days, |db: Db| async move {
    let c = ctx(db).await;
    let (id, _) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    c.accounts.request_email_change(&c.site, id, "anna.nieuw@example.nl", "rode kater op het dak", "http://x", &Default::default()).await.unwrap();
    let token = link_token(&c.mail_dir, "/mail-change/do?token=");
    c.accounts.confirm_email_change(&c.site, &token, None, "http://x", &Default::default()).await.unwrap();
    let undo = link_token(&c.mail_dir, "/mail-change/undo?token=");
    c.clock.advance(server::accounts::MAIL_UNDO_TTL_SECS + 1);
    assert_eq!(c.accounts.undo_email_change(&undo, &Default::default()).await.unwrap_err().code(), ErrorCode::LinkExpired);
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().email, "anna.nieuw@example.nl");
});

on_both_databases!(members_see_and_end_their_own_sessions_only, |db: Db| async move {
    let c = ctx(db).await;
    let pw = "rode kater op het dak";
    let phone = server::accounts::Client::new(
        Some("192.0.2.7".into()),
        Some("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"),
        Some("BE".into()),
    );
    let (anna, laptop) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    c.clock.advance(60);
    let on_phone = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &phone).await.unwrap().session().unwrap();
    let (bob, bobs) = c.accounts.signup(request(&c.site, form("bob@example.nl"))).await.unwrap();

    let list = c.accounts.sessions(anna, Some(&laptop)).await.unwrap();
    assert_eq!(list.len(), 2);
    assert!(list[0].current, "the current session first");
    assert_eq!(list[1].device.as_deref(), Some("Chrome · Android"));
    assert_eq!(list[1].country.as_deref(), Some("BE"));
    let phone_id = list[1].id.clone();
    // Bob cannot end Anna's session, whatever id he sends.
    assert!(!c.accounts.end_session(bob, &phone_id, &Default::default()).await.unwrap());
    assert!(!c.accounts.end_session(bob, "../../etc", &Default::default()).await.unwrap());
    assert!(c.accounts.member_for_session(&on_phone).await.unwrap().is_some());
    assert!(c.accounts.end_session(anna, &phone_id, &Default::default()).await.unwrap());
    assert!(c.accounts.member_for_session(&on_phone).await.unwrap().is_none());

    // "Everywhere else" keeps the current one and nobody else's.
    let again = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &phone).await.unwrap().session().unwrap();
    assert_eq!(c.accounts.end_other_sessions(anna, &laptop, &Default::default()).await.unwrap(), 1);
    assert!(c.accounts.member_for_session(&again).await.unwrap().is_none());
    assert!(c.accounts.member_for_session(&laptop).await.unwrap().is_some());
    assert!(c.accounts.member_for_session(&bobs).await.unwrap().is_some());
    let kinds: Vec<_> = c.accounts.security_events(anna).await.unwrap().into_iter().map(|e| e.kind).collect();
    assert!(
        kinds.contains(&domain::security::SecurityEventKind::SessionEnded) && kinds.contains(&domain::security::SecurityEventKind::OtherSessionsEnded),
        "{kinds:?}"
    );
});

on_both_databases!(sessions_slide_with_use_and_end_after_thirty_idle_days, |db: Db| async move {
    let c = ctx(db).await;
    let (_, session) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    // Used every 20 days for 100 days: still valid.
    for _ in 0..5 {
        c.clock.advance(20 * 24 * 3600);
        let resolved = c.accounts.resolve_session(&session).await.unwrap().expect("a session in use stays");
        assert!(resolved.renewed, "an old last use is moved (and the cookie renewed)");
        assert!(!c.accounts.resolve_session(&session).await.unwrap().unwrap().renewed, "not written again at once");
    }
    c.clock.advance(server::accounts::SESSION_TTL_SECS + 1);
    assert!(c.accounts.member_for_session(&session).await.unwrap().is_none(), "30 idle days end it");
    // The hourly job deletes what expired.
    let (sessions, _) = c.accounts.remove_expired().await.unwrap();
    assert_eq!(sessions, 1);
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions").fetch_one(c.db.pool()).await.unwrap();
    assert_eq!(left, 0);
    let (tokens,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM account_tokens").fetch_one(c.db.pool()).await.unwrap();
    assert_eq!(tokens, 0, "the expired activation link went too");
});

on_both_databases!(security_events_record_logins_and_never_a_secret, |db: Db| async move {
    let c = ctx(db).await;
    let pw = "rode kater op het dak";
    let (id, _) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    let client = server::accounts::Client::new(Some("198.51.100.4".into()), Some("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/132.0"), Some("NL".into()));
    for _ in 0..5 {
        let _ = c.accounts.login(c.site.id, "anna@example.nl", "geheim-fout-123", None, &client).await;
    }
    c.clock.advance(16 * 60);
    let session = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &client).await.unwrap().session().unwrap();
    c.accounts.change_password(id, pw, "een nieuw wachtwoord", "een nieuw wachtwoord", &client).await.unwrap();
    let events = c.accounts.security_events(id).await.unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds[..3], ["password_changed", "login", "locked"], "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "login_failed").count(), 5);
    assert_eq!(kinds.iter().filter(|k| **k == "locked").count(), 1, "locked once");
    assert_eq!(events[0].device.as_deref(), Some("Firefox · Windows"));
    assert_eq!(events[0].country.as_deref(), Some("NL"));
    // Nothing secret in the table.
    let rows: Vec<(String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT kind, ip, user_agent FROM security_events").fetch_all(c.db.pool()).await.unwrap();
    let all = format!("{rows:?}");
    for secret in [pw, "geheim-fout-123", "een nieuw wachtwoord", session.as_str()] {
        assert!(!all.contains(secret), "{secret} leaked");
    }
    assert!(all.contains("198.51.100.4"));
});

on_both_databases!(the_long_list_of_common_passwords_is_refused_everywhere, |db: Db| async move {
    let c = ctx(db).await;
    let mut common = form("anna@example.nl");
    common.password = "football1".into();
    assert_eq!(c.accounts.signup(request(&c.site, common)).await.unwrap_err().code(), ErrorCode::PasswordTooCommon);
    let (id, _) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    assert_eq!(
        c.accounts.change_password(id, "rode kater op het dak", "superman1", "superman1", &Default::default()).await.unwrap_err().code(),
        ErrorCode::PasswordTooCommon
    );
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    let token = link_token(&c.mail_dir, "/reset-password/do?token=");
    assert_eq!(c.accounts.reset_password(&token, "baseball1", "baseball1", &Default::default()).await.unwrap_err().code(), ErrorCode::PasswordTooCommon);
});

/// The authenticator app's code for `secret` (base32) at `now`.
fn app_code(secret: &str, now: i64) -> String {
    let bytes = totp_rs::Secret::try_from_base32(secret).unwrap().to_vec();
    totp_rs::Builder::new().with_secret(bytes).build().unwrap().generate(now as u64).to_string()
}

on_both_databases!(two_step_login_with_an_authenticator_app, |db: Db| async move {
    let c = ctx(db).await;
    let pw = "rode kater op het dak";
    let (id, session) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    assert_eq!(c.accounts.two_step_status(id).await.unwrap(), (false, 0));
    assert_eq!(c.accounts.two_step_setup(id, "Vonk").await.unwrap(), None);
    c.accounts.two_step_begin(id).await.unwrap();
    let setup = c.accounts.two_step_setup(id, "Vonk").await.unwrap().expect("being set up");
    assert_eq!(setup.recovery_codes.len(), 10);
    assert!(setup.url.starts_with("otpauth://totp/Vonk:anna%40example.nl?") || setup.url.starts_with("otpauth://totp/Vonk:anna@example.nl?"), "{}", setup.url);
    assert!(setup.qr_svg.contains("<svg"));
    // Switching on needs the password and a right code.
    assert_eq!(c.accounts.two_step_enable(id, "fout", &app_code(&setup.secret, NOW), &Default::default()).await.unwrap_err().code(), ErrorCode::PasswordWrong);
    assert_eq!(c.accounts.two_step_enable(id, pw, "000000", &Default::default()).await.unwrap_err().code(), ErrorCode::TwoStepCodeInvalid);
    c.accounts.two_step_enable(id, pw, &app_code(&setup.secret, NOW), &Default::default()).await.unwrap();
    let codes = setup.recovery_codes.clone();
    assert_eq!(c.accounts.two_step_setup(id, "Vonk").await.unwrap(), None, "the plain codes are gone once it is on");
    assert_eq!(c.accounts.two_step_status(id).await.unwrap(), (true, 10));

    // The password alone gives no session now.
    let server::accounts::LoginOutcome::SecondStep(step) =
        c.accounts.login(c.site.id, "anna@example.nl", pw, Some(&session), &Default::default()).await.unwrap()
    else {
        panic!("a second step")
    };
    assert!(c.accounts.member_for_session(&session).await.unwrap().is_some(), "nothing ends before the second step");
    // The code used to switch on was used: it does not log in (within its 30 s it would be a replay).
    assert_eq!(
        c.accounts.second_step(&step, &app_code(&setup.secret, NOW), None, &Default::default()).await.unwrap_err().code(),
        ErrorCode::TwoStepCodeInvalid
    );
    c.clock.advance(30);
    let code = app_code(&setup.secret, NOW + 30);
    // Two logins racing with one code: one wins.
    let server::accounts::LoginOutcome::SecondStep(step2) = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &Default::default()).await.unwrap() else {
        panic!()
    };
    let nobody = server::accounts::Client::default();
    let (a, b) = tokio::join!(c.accounts.second_step(&step, &code, Some(&session), &nobody), c.accounts.second_step(&step2, &code, None, &nobody));
    assert_eq!(a.is_ok() as u8 + b.is_ok() as u8, 1, "{a:?} {b:?}");
    let new_session = a.or(b).unwrap();
    assert!(c.accounts.member_for_session(&new_session).await.unwrap().is_some());

    // A recovery code works once.
    let server::accounts::LoginOutcome::SecondStep(step3) = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &Default::default()).await.unwrap() else {
        panic!()
    };
    c.accounts.second_step(&step3, &codes[0].to_uppercase(), None, &Default::default()).await.unwrap();
    let server::accounts::LoginOutcome::SecondStep(step4) = c.accounts.login(c.site.id, "anna@example.nl", pw, None, &Default::default()).await.unwrap() else {
        panic!()
    };
    assert_eq!(c.accounts.second_step(&step4, &codes[0], None, &Default::default()).await.unwrap_err().code(), ErrorCode::TwoStepCodeInvalid);
    assert_eq!(c.accounts.two_step_status(id).await.unwrap(), (true, 9));
    // Wrong codes count in the lockout.
    for _ in 0..3 {
        c.accounts.second_step(&step4, "123456", None, &Default::default()).await.unwrap_err();
    }
    assert_eq!(c.accounts.second_step(&step4, "123456", None, &Default::default()).await.unwrap_err().code(), ErrorCode::TooManyAttempts);
    c.clock.advance(16 * 60);
    // The second step's token lasts five minutes.
    assert_eq!(c.accounts.second_step(&step4, &codes[1], None, &Default::default()).await.unwrap_err().code(), ErrorCode::LinkExpired);
    // A reset does not log in past the second step.
    c.accounts.request_password_reset(&c.site, "anna@example.nl", "http://x").await.unwrap();
    let reset = link_token(&c.mail_dir, "/reset-password/do?token=");
    assert_eq!(c.accounts.reset_password(&reset, "een heel nieuw wachtwoord", "een heel nieuw wachtwoord", &Default::default()).await.unwrap(), None);
    // Switching off needs the password.
    assert_eq!(c.accounts.two_step_disable(id, "fout", &Default::default()).await.unwrap_err().code(), ErrorCode::PasswordWrong);
    c.accounts.two_step_disable(id, "een heel nieuw wachtwoord", &Default::default()).await.unwrap();
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "een heel nieuw wachtwoord", None, &Default::default()).await.unwrap().session().is_some());
});

on_both_databases!(delete_reactivate_and_purge_after_fourteen_days, |db: Db| async move {
    let c = ctx(db.clone()).await;
    let (id, session) = c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
    assert_eq!(
        c.accounts.delete_account(&c.site, id, "fout", "", "http://x", &Default::default()).await.unwrap_err().code().locale_key(),
        "validation.password_wrong"
    );
    c.accounts.delete_account(&c.site, id, "rode kater op het dak", "te druk", "http://x", &Default::default()).await.unwrap();
    assert!(c.accounts.member_for_session(&session).await.unwrap().is_none(), "logged out everywhere");
    assert_eq!(
        c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap_err().code().locale_key(),
        "error.account_not_deleted_yet"
    );
    assert_eq!(c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap_err().code().locale_key(), "error.account_not_deleted_yet");

    // Within 14 days the mailed link restores the account.
    let token = link_token(&c.mail_dir, "/account-deleted?token=");
    c.clock.advance(13 * 24 * 3600);
    c.accounts.reactivate(&token).await.unwrap();
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().status, domain::account::UserStatus::Active);
    assert!(c.accounts.login(c.site.id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.is_ok());

    // Deleted again and left alone: after 14 days the personal data goes, the ledger stays.
    c.accounts.delete_account(&c.site, id, "rode kater op het dak", "", "http://x", &Default::default()).await.unwrap();
    let token = link_token(&c.mail_dir, "/account-deleted?token=");
    c.clock.advance(13 * 24 * 3600);
    assert_eq!(c.accounts.purge_deleted().await.unwrap(), 0, "not yet");
    c.clock.advance(24 * 3600 + 1);
    assert!(c.accounts.reactivate(&token).await.is_err(), "too late to come back");
    assert_eq!(c.accounts.purge_deleted().await.unwrap(), 1);
    let m = c.accounts.member(id).await.unwrap().unwrap();
    assert_eq!(m.email, format!("purged-{id}@invalid"));
    assert_eq!(m.name, "-");
    let (token,): (Option<String>,) = sqlx::query_as("SELECT unsubscribe_token FROM users WHERE id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(token, None, "the unsubscribe link dies with the account");
    let (credits, ledger) = server::credits::balance_and_ledger(&c.db, id).await.unwrap();
    assert_eq!(credits, ledger, "bookkeeping survives");
    assert_eq!(c.accounts.purge_deleted().await.unwrap(), 0, "purging twice does nothing");
    // The address is free again.
    c.accounts.signup(request(&c.site, form("anna@example.nl"))).await.unwrap();
});
