//! The job queue and the lifecycle messages it sends, on both databases, with a clock the test
//! moves: exactly which reminders go out when over a member's first 30 days (none at night,
//! none over the cap, none after unsubscribing or confirming), two nodes sending each once,
//! catching up after downtime without stale messages, retries, leases and staff running a
//! failed job again.

use crate::support;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use domain::account::{SignupForm, Tracking};
use domain::jobs::{JobKind, MAX_ATTEMPTS};
use domain::staff::StaffRole;
use domain::Locale;
use server::accounts::{Accounts, SignupRequest};
use server::clock::Clock;
use server::jobs::{Handler, Job, Jobs, Outcome};
use server::lifecycle::Lifecycle;
use server::sites::SiteCache;
use server::Db;

/// 2026-11-22 12:00 UTC: 13:00 in Amsterdam.
const START: i64 = support::world::NOW;
const HOUR: i64 = 3600;
const DAY: i64 = 24 * HOUR;

struct Setup {
    db: Db,
    clock: Clock,
    accounts: Accounts,
    sites: SiteCache,
    mail: tempfile::TempDir,
}

async fn setup(db: Db) -> Setup {
    server::seed::seed_if_empty(&db).await.unwrap();
    let clock = Clock::fixed(START);
    let mail = tempfile::tempdir().unwrap();
    let accounts = Accounts::new(
        db.clone(),
        clock.clone(),
        server::mail::Outbox::files(mail.path().to_path_buf()),
        Arc::new(server::locales::Catalog::embedded()),
        support::links(),
    );
    let sites = SiteCache::load(db.clone()).await.unwrap();
    Setup { db, clock, accounts, sites, mail }
}

impl Setup {
    /// A node's queue with the lifecycle handlers.
    fn node(&self, name: &str) -> Jobs {
        let jobs = Jobs::new(self.db.clone(), self.clock.clone(), name);
        Lifecycle::new(self.accounts.clone(), self.sites.clone(), "http://vonk.test").register(&jobs);
        jobs
    }

    fn site(&self) -> Arc<server::sites::Site> {
        self.sites.by_id(1).unwrap()
    }

    /// An unconfirmed member of `country` signed up now.
    async fn sign_up(&self, email: &str, country: &str) -> i64 {
        let form = SignupForm {
            email: email.into(),
            name: "Sanne".into(),
            password: "rode kater op het dak".into(),
            date_of_birth: "1990-05-17".into(),
            signup_message: String::new(),
        };
        let site = self.site();
        let (id, _) = self
            .accounts
            .signup(SignupRequest {
                site: &site.settings,
                form,
                tracking: Tracking::default(),
                locale: Locale::Nl,
                base_url: "http://vonk.test".into(),
                client: Default::default(),
                invitation: None,
            })
            .await
            .unwrap();
        sqlx::query("UPDATE profiles SET country = $1 WHERE user_id = $2").bind(country).bind(id).execute(self.db.pool()).await.unwrap();
        id
    }

    /// When each lifecycle message to `user` went out, in hours after START.
    async fn sent_hours(&self, user: i64) -> Vec<f64> {
        let rows: Vec<(i64,)> =
            sqlx::query_as("SELECT sent_at FROM lifecycle_sent WHERE user_id = $1 ORDER BY sent_at").bind(user).fetch_all(self.db.pool()).await.unwrap();
        rows.into_iter().map(|(t,)| (t - START) as f64 / HOUR as f64).collect()
    }

    /// Moves the clock in steps of `step` up to `until` (after START), running `nodes` at each.
    async fn drive(&self, nodes: &[&Jobs], until: i64, step: i64) {
        while self.clock.now() < START + until {
            self.clock.advance(step);
            for node in nodes {
                node.run_due().await.unwrap();
            }
        }
    }

    /// The mails to `email`, their bodies decoded (headers as sent: see [`Setup::raw_mails_to`]).
    fn mails_to(&self, email: &str) -> Vec<String> {
        self.raw_mails_to(email).iter().map(|m| support::decode_qp(m)).collect()
    }

    fn raw_mails_to(&self, email: &str) -> Vec<String> {
        std::fs::read_dir(self.mail.path())
            .map(|dir| dir.filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok()).filter(|m| m.contains(&format!("To: {email}"))).collect())
            .unwrap_or_default()
    }
}

on_both_databases!(a_members_first_thirty_days_bring_exactly_the_reminders_due, |db: Db| async move {
    let s = setup(db).await;
    let node = s.node("node-a");
    // 13:00 in Amsterdam: reminded at 14:00, and the second a day later waits for the cap
    // (one a day) until 14:00 the next day.
    let day = s.sign_up("dag@example.nl", "NL").await;
    // Confirms within the hour: no reminder at all.
    let quick = s.sign_up("snel@example.nl", "NL").await;
    // Says no to the reminders after the first.
    let no = s.sign_up("nee@example.nl", "NL").await;
    let activation = s.mails_to("snel@example.nl")[0].clone();
    let link =
        activation.split("/activate?token=").nth(1).unwrap().split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_').next().unwrap().to_string();
    s.accounts.activate(&link).await.unwrap();
    s.drive(&[&node], 2 * HOUR, 15 * 60).await;
    let (token,): (Option<String>,) = sqlx::query_as("SELECT unsubscribe_token FROM users WHERE id = $1").bind(no).fetch_one(s.db.pool()).await.unwrap();
    assert!(s.accounts.unsubscribe_from(&token.unwrap(), domain::lifecycle::LifecycleKind::ConfirmReminder).await.unwrap());
    // 8 hours after START it is 21:00 in Amsterdam; signed up then, the first reminder would
    // fall at 22:00 and waits for 08:00.
    s.drive(&[&node], 8 * HOUR, 15 * 60).await;
    let night = s.sign_up("nacht@example.nl", "NL").await;
    // A member in Helsinki signed up at the same time: 22:00 there, asleep already.
    let east = s.sign_up("oost@example.fi", "FI").await;
    s.drive(&[&node], 30 * DAY, 15 * 60).await;

    assert_eq!(s.kind_sent(day, "confirm_reminder").await, vec![1.0, 25.0], "an hour after signup, then a day after the first");
    assert_eq!(s.kind_sent(quick, "confirm_reminder").await, Vec::<f64>::new(), "confirmed: nothing");
    assert_eq!(s.kind_sent(no, "confirm_reminder").await, vec![1.0], "unsubscribed after the first");
    // 21:00 + 1 h = 22:00: wait until 08:00 (+19 h after START = 8 + 11); the second is due
    // at 21:00 the next day and waits for the cap, until 08:00 the day after.
    assert_eq!(s.kind_sent(night, "confirm_reminder").await, vec![8.0 + 11.0, 8.0 + 11.0 + 24.0]);
    // Helsinki is an hour ahead: 08:00 there is 07:00 in Amsterdam.
    assert_eq!(s.kind_sent(east, "confirm_reminder").await, vec![8.0 + 10.0, 8.0 + 10.0 + 24.0]);

    // The mail: a fresh activation link, and an unsubscribe link and header for this kind only.
    let mails = s.mails_to("dag@example.nl");
    assert_eq!(mails.len(), 3, "the activation mail and two reminders");
    let reminder = mails.iter().find(|m| m.contains("wacht nog op je bevestiging")).expect("a reminder in Dutch");
    assert!(reminder.contains("/activate?token="), "{reminder}");
    let raw = s.raw_mails_to("dag@example.nl").into_iter().find(|m| m.contains("kind=confirm_reminder")).expect("the reminder's headers");
    let header = raw.lines().find(|l| l.starts_with("List-Unsubscribe: ")).unwrap();
    assert!(header.starts_with("List-Unsubscribe: <http://vonk.test/api/unsubscribe?token=") && header.ends_with("&kind=confirm_reminder>"), "{header}");
    assert!(reminder.contains("/unsubscribe?token=") && reminder.contains("Geen herinneringen meer over je bevestiging?"));
});

on_both_databases!(unsubscribing_from_a_kind_stops_it_and_nothing_else, |db: Db| async move {
    let s = setup(db).await;
    let node = s.node("node-a");
    let id = s.sign_up("weg@example.nl", "NL").await;
    s.drive(&[&node], 2 * HOUR, 15 * 60).await;
    assert_eq!(s.sent_hours(id).await, vec![1.0]);
    let (token,): (Option<String>,) = sqlx::query_as("SELECT unsubscribe_token FROM users WHERE id = $1").bind(id).fetch_one(s.db.pool()).await.unwrap();
    let token = token.expect("the reminder made the member's unsubscribe token");
    assert!(!s.accounts.unsubscribe_from(&"x".repeat(43), domain::lifecycle::LifecycleKind::ConfirmReminder).await.unwrap(), "unknown token");
    assert!(s.accounts.unsubscribe_from(&token, domain::lifecycle::LifecycleKind::ConfirmReminder).await.unwrap());
    assert!(s.accounts.unsubscribe_from(&token, domain::lifecycle::LifecycleKind::ConfirmReminder).await.unwrap(), "twice is fine");
    s.drive(&[&node], 30 * DAY, HOUR).await;
    assert_eq!(s.sent_hours(id).await, vec![1.0], "no second reminder");
    // Other mails stay on.
    let member = s.accounts.member(id).await.unwrap().unwrap();
    assert!(member.alerts.notifications_disabled.is_empty());
    let (status,): (String,) =
        sqlx::query_as("SELECT status FROM jobs WHERE job_key = $1").bind(format!("confirm_reminder:{id}:2")).fetch_one(s.db.pool()).await.unwrap();
    assert_eq!(status, "dropped");
});

on_both_databases!(a_site_that_switched_reminders_off_and_staff_get_none, |db: Db| async move {
    let s = setup(db).await;
    let node = s.node("node-a");
    let staff = s.sign_up("staf@example.nl", "NL").await;
    support::grant_staff(&s.db, &s.accounts, "staf@example.nl", StaffRole::Support).await;
    sqlx::query("UPDATE sites SET confirm_reminders = $1 WHERE id = 1").bind(false).execute(s.db.pool()).await.unwrap();
    s.sites.reload().await.unwrap();
    let member = s.sign_up("uit@example.nl", "NL").await;
    s.drive(&[&node], 3 * DAY, HOUR).await;
    assert!(s.sent_hours(member).await.is_empty(), "the site switched them off");
    assert!(s.sent_hours(staff).await.is_empty(), "staff are not members");
});

on_both_databases!(two_nodes_send_each_reminder_once, |db: Db| async move {
    let s = setup(db).await;
    let (a, b) = (s.node("node-a"), s.node("node-b"));
    let mut ids = Vec::new();
    for i in 0..12 {
        ids.push(s.sign_up(&format!("twee{i}@example.nl"), "NL").await);
    }
    s.clock.advance(HOUR);
    // Both nodes at the same moment, twice over.
    let (ra, rb) = tokio::join!(a.run_due(), b.run_due());
    let (ra2, rb2) = tokio::join!(a.run_due(), b.run_due());
    let done = [ra.unwrap(), rb.unwrap(), ra2.unwrap(), rb2.unwrap()].iter().map(|r| r.done).sum::<u32>();
    assert_eq!(done, 12, "each first reminder ran once");
    for id in &ids {
        assert_eq!(s.sent_hours(*id).await, vec![1.0]);
    }
    for i in 0..12 {
        assert_eq!(s.mails_to(&format!("twee{i}@example.nl")).len(), 2, "the activation mail and one reminder");
    }
});

on_both_databases!(after_downtime_stale_reminders_are_dropped_not_sent, |db: Db| async move {
    let s = setup(db).await;
    let node = s.node("node-a");
    let id = s.sign_up("stil@example.nl", "NL").await;
    // The site is down for three days: both reminders are long past their time.
    s.clock.advance(3 * DAY);
    let report = node.run_due().await.unwrap();
    assert_eq!(report.done, 0);
    let (dropped,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM jobs WHERE status = 'dropped' AND job_key LIKE $1").bind(format!("%:{id}%")).fetch_one(s.db.pool()).await.unwrap();
    assert_eq!(dropped, 3, "both reminders and the look at the offer");
    assert!(s.sent_hours(id).await.is_empty());
    let reasons: Vec<(String, Option<String>)> = sqlx::query_as("SELECT status, last_error FROM jobs WHERE job_key LIKE $1 ORDER BY id")
        .bind(format!("confirm_reminder:{id}:%"))
        .fetch_all(s.db.pool())
        .await
        .unwrap();
    assert_eq!(reasons, vec![("dropped".to_string(), Some("stale".to_string())); 2]);
});

/// A handler that fails the first `fail` times it runs, counting its runs.
struct Flaky {
    fail: u32,
    runs: AtomicU32,
}

#[async_trait::async_trait]
impl Handler for Flaky {
    async fn run(&self, _job: &Job, _now: i64) -> Result<Outcome, server::AppError> {
        let n = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        if n <= self.fail {
            Err(server::AppError::Internal(format!("provider down ({n})")))
        } else {
            Ok(Outcome::Done)
        }
    }
}

async fn status_of(db: &Db, key: &str) -> (String, i64, Option<String>) {
    sqlx::query_as("SELECT status, attempts, last_error FROM jobs WHERE job_key = $1").bind(key).fetch_one(db.pool()).await.unwrap()
}

on_both_databases!(a_failing_job_is_retried_later_then_waits_for_staff_who_run_it_again, |db: Db| async move {
    let s = setup(db).await;
    let jobs = Jobs::new(s.db.clone(), s.clock.clone(), "node-a");
    let flaky = Arc::new(Flaky { fail: MAX_ATTEMPTS + 1, runs: AtomicU32::new(0) });
    jobs.handle(JobKind::ConfirmReminder, flaky.clone());
    let mut tx = s.db.begin().await.unwrap();
    server::jobs::enqueue(&mut tx, Some(1), JobKind::ConfirmReminder, "test:1", &serde_json::json!({}), START, START).await.unwrap();
    // The same event again: still one job.
    server::jobs::enqueue(&mut tx, Some(1), JobKind::ConfirmReminder, "test:1", &serde_json::json!({}), START, START).await.unwrap();
    tx.commit().await.unwrap();

    jobs.run_due().await.unwrap();
    assert_eq!(status_of(&s.db, "test:1").await, ("queued".into(), 1, Some("internal error: provider down (1)".into())));
    // Not before its wait (a minute) is over.
    s.clock.advance(59);
    jobs.run_due().await.unwrap();
    assert_eq!(flaky.runs.load(Ordering::SeqCst), 1);
    // Every later try after its wait, until the last.
    for _ in 1..MAX_ATTEMPTS {
        s.clock.advance(domain::jobs::retry_after_secs(MAX_ATTEMPTS));
        jobs.run_due().await.unwrap();
    }
    assert_eq!(flaky.runs.load(Ordering::SeqCst), MAX_ATTEMPTS);
    let (status, attempts, error) = status_of(&s.db, "test:1").await;
    assert_eq!((status.as_str(), attempts), ("failed", i64::from(MAX_ATTEMPTS)));
    assert!(error.unwrap().contains("provider down"));
    s.clock.advance(DAY);
    jobs.run_due().await.unwrap();
    assert_eq!(flaky.runs.load(Ordering::SeqCst), MAX_ATTEMPTS, "a failed job waits for staff");

    // Staff see it; a member does not, and cannot run it; admins run it again, once.
    let admin = s.sign_up("admin@example.nl", "NL").await;
    support::grant_staff(&s.db, &s.accounts, "admin@example.nl", StaffRole::Admin).await;
    let admin = s.accounts.member(admin).await.unwrap().unwrap();
    let member = s.sign_up("lid@example.nl", "NL").await;
    let member = s.accounts.member(member).await.unwrap().unwrap();
    let failed = jobs.failed(&admin, 1).await.unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(jobs.failed(&member, 1).await.unwrap_err().code(), domain::ErrorCode::NotFound);
    assert_eq!(jobs.retry(&member, 1, failed[0].id).await.unwrap_err().code(), domain::ErrorCode::NotFound);
    assert_eq!(jobs.retry(&admin, 2, failed[0].id).await.unwrap_err().code(), domain::ErrorCode::NotFound, "staff of another site");
    assert_eq!(jobs.retry(&admin, 1, failed[0].id).await.unwrap(), Some(JobKind::ConfirmReminder));
    assert_eq!(jobs.retry(&admin, 1, failed[0].id).await.unwrap(), None, "a second click changes nothing");
    jobs.run_due().await.unwrap();
    jobs.run_due().await.unwrap();
    assert_eq!(status_of(&s.db, "test:1").await.0, "queued", "fails once more: tried again later");
    s.clock.advance(60);
    jobs.run_due().await.unwrap();
    assert_eq!(status_of(&s.db, "test:1").await, ("done".into(), 2, None));
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'job_retried'").fetch_one(s.db.pool()).await.unwrap();
    assert_eq!(logged, 1);
});

on_both_databases!(a_job_held_by_a_node_that_died_runs_when_the_lease_ends, |db: Db| async move {
    let s = setup(db).await;
    let jobs = Jobs::new(s.db.clone(), s.clock.clone(), "node-b");
    let flaky = Arc::new(Flaky { fail: 0, runs: AtomicU32::new(0) });
    jobs.handle(JobKind::ConfirmReminder, flaky.clone());
    let mut tx = s.db.begin().await.unwrap();
    server::jobs::enqueue(&mut tx, None, JobKind::ConfirmReminder, "lease:1", &serde_json::json!({}), START, START).await.unwrap();
    tx.commit().await.unwrap();
    // Node a took it and died.
    sqlx::query("UPDATE jobs SET locked_by = 'node-a', locked_until = $1, attempts = 1 WHERE job_key = 'lease:1'")
        .bind(START + domain::jobs::LEASE_SECS)
        .execute(s.db.pool())
        .await
        .unwrap();
    jobs.run_due().await.unwrap();
    assert_eq!(flaky.runs.load(Ordering::SeqCst), 0, "held by node a");
    s.clock.advance(domain::jobs::LEASE_SECS);
    jobs.run_due().await.unwrap();
    assert_eq!(flaky.runs.load(Ordering::SeqCst), 1);
    assert_eq!(status_of(&s.db, "lease:1").await, ("done".into(), 2, None));
});

impl Setup {
    /// A confirmed member of `country` signed up now (its first session counts as a visit).
    async fn member(&self, email: &str, country: &str) -> i64 {
        let id = self.sign_up(email, country).await;
        sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(id).execute(self.db.pool()).await.unwrap();
        id
    }

    /// The payments service, for the leaving discount of the last win-back message.
    fn payments(&self, sms: &std::path::Path) -> server::payments::Payments {
        let provider = server::payments::provider::Provider::Test(server::payments::test_provider::TestProvider::new(self.db.clone(), support::links()));
        server::payments::Payments::new(
            self.db.clone(),
            provider,
            self.accounts.clone(),
            support::links(),
            server::payments::sms::SmsOutbox::Files(sms.to_path_buf()),
            "http://vonk.test".into(),
        )
    }

    /// The sign-in link in the win-back mail to `email` that says `words`: its token.
    fn sign_in_token(&self, email: &str, words: &str) -> String {
        let mails: Vec<String> = self.mails_to(email).into_iter().filter(|m| m.contains("kind=win_back") && m.contains(words)).collect();
        assert_eq!(mails.len(), 1, "one mail to {email} that says {words:?}");
        let mail = &mails[0];
        // The one link that is the site's address and a token (`/{token}`, SPEC §2).
        mail.match_indices("http://vonk.test/")
            .map(|(i, _)| &mail[i + "http://vonk.test/".len()..])
            .find_map(|rest| rest.get(..64).filter(|t| server::accounts::tokens::is_well_formed(t)))
            .expect("a sign-in link")
            .to_string()
    }

    async fn kind_sent(&self, user: i64, kind: &str) -> Vec<f64> {
        let rows: Vec<(i64,)> = sqlx::query_as("SELECT sent_at FROM lifecycle_sent WHERE user_id = $1 AND kind = $2 ORDER BY sent_at")
            .bind(user)
            .bind(kind)
            .fetch_all(self.db.pool())
            .await
            .unwrap();
        rows.into_iter().map(|(t,)| (t - START) as f64 / HOUR as f64).collect()
    }
}

on_both_databases!(members_away_seven_and_thirty_days_are_asked_back_once_each, |db: Db| async move {
    let s = setup(db).await;
    let sms = tempfile::tempdir().unwrap();
    sqlx::query("UPDATE companies SET delete_discount = 20").execute(s.db.pool()).await.unwrap();
    s.sites.reload().await.unwrap();
    let node = Jobs::new(s.db.clone(), s.clock.clone(), "node-a");
    Lifecycle::new(s.accounts.clone(), s.sites.clone(), "http://vonk.test").with_payments(s.payments(sms.path())).register(&node);
    server::lifecycle::ensure_daily_scan(&s.db, START).await.unwrap();
    server::lifecycle::ensure_daily_scan(&s.db, START).await.unwrap();
    // Away since signup (12:00 UTC, day 0).
    let away = s.member("weg@example.nl", "NL").await;
    // Back on day 5: asked back a week after that instead.
    let back = s.member("terug@example.nl", "NL").await;
    // Comes back in the night the first message waits for the morning: it never goes.
    let night = s.member("nacht@example.nl", "NL").await;
    s.drive(&[&node], 5 * DAY, HOUR).await;
    sqlx::query("UPDATE users SET last_seen_at = $1 WHERE id = $2").bind(s.clock.now()).bind(back).execute(s.db.pool()).await.unwrap();
    s.drive(&[&node], 7 * DAY + 14 * HOUR, HOUR).await;
    // 02:00 in Amsterdam on day 8: the scan queued it at 00:00 UTC, the night holds it.
    sqlx::query("UPDATE users SET last_seen_at = $1 WHERE id = $2").bind(s.clock.now()).bind(night).execute(s.db.pool()).await.unwrap();
    s.drive(&[&node], 31 * DAY, HOUR).await;

    // The week's mail: back to the members, signed in with one tap (its link has expired by
    // now: 48 hours); the month's, five hours old: the member's own leaving-discount code on
    // the credits page.
    let week = s.sign_in_token("weg@example.nl", "een week");
    let month = s.sign_in_token("weg@example.nl", "20% korting");
    let (code,): (String,) = sqlx::query_as("SELECT code FROM leaving_discounts WHERE user_id = $1").bind(away).fetch_one(s.db.pool()).await.unwrap();
    let offer = s.mails_to("weg@example.nl").into_iter().find(|m| m.contains("20% korting")).unwrap();
    assert!(offer.contains(&code) && offer.contains(" tot "), "the code and until when");
    let client = server::accounts::Client::default();
    assert_eq!(s.accounts.sign_in_link_name(1, &week).await.unwrap(), None, "expired");
    assert!(s.accounts.sign_in_with_link(1, &week, None, &client).await.is_err());
    match s.accounts.sign_in_with_link(1, &month, None, &client).await.unwrap() {
        server::accounts::SignInLinkOutcome::Session { target, .. } => assert_eq!(target, format!("/credits?code={code}")),
        other => panic!("{other:?}"),
    }
    // Signing in is a visit: from now on the member is not away.
    sqlx::query("UPDATE users SET last_seen_at = $1 WHERE id = $2").bind(START).bind(away).execute(s.db.pool()).await.unwrap();
    s.drive(&[&node], 35 * DAY, HOUR).await;

    // The scan at 00:00 UTC on day 8 finds 7.5 days away; 08:00 in Amsterdam is 07:00 UTC, 19
    // hours after 12:00 UTC.
    assert_eq!(s.kind_sent(away, "win_back").await, vec![(7 * 24 + 19) as f64, (30 * 24 + 19) as f64]);
    assert_eq!(s.kind_sent(back, "win_back").await, vec![((5 + 7) * 24 + 19) as f64], "a week after coming back; 30 days not yet");
    // Came back at 02:00 on day 8: that message was dropped; a week later the next one.
    let sent = s.kind_sent(night, "win_back").await;
    assert!(!sent.contains(&((7 * 24 + 19) as f64)) && sent.len() == 1, "{sent:?}");
    let (jobs,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM jobs WHERE kind = 'lifecycle_scan' AND status = 'queued'").fetch_one(s.db.pool()).await.unwrap();
    assert_eq!(jobs, 1, "one scan waits for tomorrow");
});

on_both_databases!(a_sites_own_timing_moves_each_message, |db: Db| async move {
    let s = setup(db).await;
    let node = s.node("node-a");
    sqlx::query(
        "UPDATE sites SET confirm_first_hours = 3, confirm_second_hours = 48, win_back_first_days = 3, win_back_second_days = 10, \
         digest_after_hours = 2 WHERE id = 1",
    )
    .execute(s.db.pool())
    .await
    .unwrap();
    s.sites.reload().await.unwrap();
    server::lifecycle::ensure_daily_scan(&s.db, START).await.unwrap();
    let new = s.sign_up("nieuw@example.nl", "NL").await;
    let away = s.member("weg@example.nl", "NL").await;
    // The digests wait the site's two hours.
    server::lifecycle::DigestNotes::default().note_message(&s.db, &s.site().settings, away, START).await.unwrap();
    let (due_at,): (i64,) = sqlx::query_as("SELECT due_at FROM jobs WHERE kind = 'unread_digest'").fetch_one(s.db.pool()).await.unwrap();
    assert_eq!(due_at, START + 2 * HOUR);
    s.drive(&[&node], 12 * DAY, HOUR).await;

    // 15:00 and 13:00 two days later in Amsterdam: no night, no cap in the way.
    assert_eq!(s.kind_sent(new, "confirm_reminder").await, vec![3.0, 48.0]);
    // The scan at 00:00 UTC finds 3.5 and 10.5 days away; sent at 08:00 in Amsterdam.
    assert_eq!(s.kind_sent(away, "win_back").await, vec![(3 * 24 + 19) as f64, (10 * 24 + 19) as f64]);
    // Nothing at the defaults' times.
    assert!(!s.kind_sent(away, "win_back").await.contains(&((7 * 24 + 19) as f64)));
});

/// A member with a fresh sign-in link to `/chats/7`.
async fn linked(s: &Setup, email: &str) -> (i64, String) {
    let id = s.member(email, "NL").await;
    let link = s.accounts.sign_in_link(&s.site().settings, id, "/chats/7").await.unwrap();
    (id, link.trim_start_matches('/').to_string())
}

on_both_databases!(a_sign_in_link_works_once_for_its_member_and_page_until_it_expires, |db: Db| async move {
    let s = setup(db).await;
    let client = server::accounts::Client::default();
    let (_, token) = linked(&s, "link@example.nl").await;
    assert!(server::accounts::tokens::is_well_formed(&token));
    // Looking changes nothing (mail scanners look too).
    assert_eq!(s.accounts.sign_in_link_name(1, &token).await.unwrap().as_deref(), Some("Sanne"));
    assert_eq!(s.accounts.sign_in_link_name(1, &token).await.unwrap().as_deref(), Some("Sanne"));
    assert_eq!(s.accounts.sign_in_link_name(2, &token).await.unwrap(), None, "another site");
    // Tapped on another site: refused, no session (and the link is spent: one tap only).
    assert!(s.accounts.sign_in_with_link(2, &token, None, &client).await.is_err(), "another site: refused");
    let (_, token) = linked(&s, "link2@example.nl").await;
    // Two taps at once: one session.
    let (a, b) = tokio::join!(s.accounts.sign_in_with_link(1, &token, None, &client), s.accounts.sign_in_with_link(1, &token, None, &client));
    let sessions: Vec<_> = [a, b].into_iter().filter_map(Result::ok).collect();
    assert_eq!(sessions.len(), 1);
    match &sessions[0] {
        server::accounts::SignInLinkOutcome::Session { target, session } => {
            assert_eq!(target, "/chats/7");
            assert!(s.accounts.resolve_session(session).await.unwrap().is_some(), "a working session");
        }
        other => panic!("{other:?}"),
    }
    let code = s.accounts.sign_in_with_link(1, &token, None, &client).await.unwrap_err().code();
    assert_eq!(code, domain::ErrorCode::LinkExpired, "used");
    // Expiry: the site's hours (48 by default).
    let (_, token) = linked(&s, "oud@example.nl").await;
    s.clock.advance(48 * HOUR);
    assert_eq!(s.accounts.sign_in_with_link(1, &token, None, &client).await.unwrap_err().code(), domain::ErrorCode::LinkExpired);
    // Garbage and lies.
    for bad in ["", "x", &"g".repeat(64), "../../etc/passwd", &"a".repeat(64)] {
        assert!(s.accounts.sign_in_with_link(1, bad, None, &client).await.is_err(), "{bad:?}");
    }
    assert!(s.accounts.sign_in_link(&s.site().settings, 1, "https://evil.example/").await.is_err(), "only pages of the site");
});

on_both_databases!(a_password_change_logout_everywhere_or_a_block_ends_every_link, |db: Db| async move {
    let s = setup(db).await;
    let client = server::accounts::Client::default();
    let (id, token) = linked(&s, "pw@example.nl").await;
    s.accounts.change_password(id, "rode kater op het dak", "groene kikker in de sloot", "groene kikker in de sloot", &client).await.unwrap();
    assert_eq!(s.accounts.sign_in_with_link(1, &token, None, &client).await.unwrap_err().code(), domain::ErrorCode::LinkExpired);

    let (id, token) = linked(&s, "overal@example.nl").await;
    let session = match s.accounts.login(1, "overal@example.nl", "rode kater op het dak", None, &client).await.unwrap() {
        server::accounts::LoginOutcome::Session(session) => session,
        other => panic!("{other:?}"),
    };
    s.accounts.end_other_sessions(id, &session, &client).await.unwrap();
    assert_eq!(s.accounts.sign_in_with_link(1, &token, None, &client).await.unwrap_err().code(), domain::ErrorCode::LinkExpired, "logged out everywhere");

    let (id, token) = linked(&s, "blok@example.nl").await;
    s.accounts.set_blocked(id, true).await.unwrap();
    assert!(s.accounts.sign_in_with_link(1, &token, None, &client).await.is_err(), "blocked");
});

on_both_databases!(staff_and_two_step_members_are_sent_to_the_login_page, |db: Db| async move {
    let s = setup(db).await;
    let client = server::accounts::Client::default();
    let (_, token) = linked(&s, "staf@example.nl").await;
    support::grant_staff(&s.db, &s.accounts, "staf@example.nl", StaffRole::Support).await;
    assert_eq!(
        s.accounts.sign_in_with_link(1, &token, None, &client).await.unwrap(),
        server::accounts::SignInLinkOutcome::LogIn { target: "/chats/7".into() },
        "no session from a link alone"
    );
    let (id, token) = linked(&s, "tweestaps@example.nl").await;
    sqlx::query("UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' WHERE id = $1").bind(id).execute(s.db.pool()).await.unwrap();
    assert!(matches!(s.accounts.sign_in_with_link(1, &token, None, &client).await.unwrap(), server::accounts::SignInLinkOutcome::LogIn { .. }));
    let (sessions,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions WHERE user_id = $1").bind(id).fetch_one(s.db.pool()).await.unwrap();
    assert_eq!(sessions, 1, "only the signup's own session");
});

on_both_databases!(payment_recovery_is_one_recurring_job_for_all_nodes, |db: Db| async move {
    let s = setup(db).await;
    let sms = tempfile::tempdir().unwrap();
    let payments = s.payments(sms.path());
    let (a, b) = (Jobs::new(s.db.clone(), s.clock.clone(), "node-a"), Jobs::new(s.db.clone(), s.clock.clone(), "node-b"));
    // Every node asks for it at its start: one job.
    payments.schedule_recovery(&a, std::time::Duration::from_secs(60), START).await.unwrap();
    payments.schedule_recovery(&b, std::time::Duration::from_secs(60), START).await.unwrap();
    let due = || async {
        let row: (String, i64, i64) =
            sqlx::query_as("SELECT status, attempts, due_at FROM jobs WHERE job_key = 'payment_recovery'").fetch_one(s.db.pool()).await.unwrap();
        row
    };
    assert_eq!(due().await, ("queued".to_string(), 0, START));
    let (ra, rb) = tokio::join!(a.run_due(), b.run_due());
    assert_eq!(ra.unwrap().later + rb.unwrap().later, 1, "one node ran it");
    assert_eq!(due().await, ("queued".to_string(), 0, START + 60), "and set its next time");
    s.clock.advance(30);
    assert_eq!(a.run_due().await.unwrap().later + b.run_due().await.unwrap().later, 0, "not before its time");
    s.clock.advance(30);
    assert_eq!(b.run_due().await.unwrap().later, 1);
    assert_eq!(due().await, ("queued".to_string(), 0, START + 120));
    // A node that starts (after a crash, say) recovers at once.
    s.clock.advance(10);
    payments.schedule_recovery(&a, std::time::Duration::from_secs(60), START + 70).await.unwrap();
    assert_eq!(due().await, ("queued".to_string(), 0, START + 70));
    assert_eq!(a.run_due().await.unwrap().later, 1);
});

on_both_databases!(the_discount_mail_comes_once_when_true_and_only_to_members_who_can_use_it, |db: Db| async move {
    let s = setup(db).await;
    let sms = tempfile::tempdir().unwrap();
    let node = Jobs::new(s.db.clone(), s.clock.clone(), "node-a");
    Lifecycle::new(s.accounts.clone(), s.sites.clone(), "http://vonk.test").with_payments(s.payments(sms.path())).register(&node);
    // The demo site's offers: a 25 % time bonus for 4 hours (too short for a mail: its banner
    // says it), then a 15 % welcome discount until 48 hours after signup.
    let settings = s.site().settings.clone();
    assert_eq!((settings.time_bonus_percent, settings.time_bonus_hours, settings.welcome_discount_percent, settings.welcome_discount_hours), (25, 4, 15, 48));
    let member = s.member("korting@example.nl", "NL").await;
    let bought = s.member("gekocht@example.nl", "NL").await;
    sqlx::query("UPDATE users SET paid_user = $1 WHERE id = $2").bind(true).bind(bought).execute(s.db.pool()).await.unwrap();
    let unconfirmed = s.sign_up("onbevestigd@example.nl", "NL").await;
    s.drive(&[&node], 4 * DAY, HOUR).await;
    // Six hours before the end is 06:00 UTC, 07:00 in Amsterdam: the night holds it until
    // 08:00 there, 43 hours after signup; five hours are left then, and the mail says so.
    assert_eq!(s.kind_sent(member, "discount_ending").await, vec![43.0]);
    let mail = s.mails_to("korting@example.nl").into_iter().find(|m| m.contains("kind=discount_ending")).expect("the mail");
    assert!(mail.contains("Je 15% korting loopt over 5 uur af"), "{mail}");
    assert!(s.kind_sent(bought, "discount_ending").await.is_empty(), "bought before: no offer, no mail");
    assert!(s.kind_sent(unconfirmed, "discount_ending").await.is_empty(), "cannot buy yet: no mail");
    let (status, reason): (String, Option<String>) = sqlx::query_as("SELECT status, last_error FROM jobs WHERE job_key = $1")
        .bind(format!("discount_ending:{bought}"))
        .fetch_one(s.db.pool())
        .await
        .unwrap();
    assert_eq!((status.as_str(), reason.as_deref()), ("dropped", Some("not_true")));
});
