//! The lifecycle messages about what happened while a member was away, on both databases with
//! a clock the test moves: the unread-messages digest (without what was read, or what a mail
//! told of), the likes digest (without likes seen or mailed), a premium member's low balance
//! (once per fall, not after topping up, not for free members), a spam complaint counted
//! against the kind of mail it names, and the browser's time zone for the quiet hours.

use crate::support;

use domain::likes::LikeSource;
use server::accounts::Member;
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::jobs::Jobs;
use server::lifecycle::Lifecycle;
use server::sites::SiteCache;
use server::Db;
use support::world::{world, World, NOW};

const HOUR: i64 = 3600;

struct Digests {
    w: World,
    jobs: Jobs,
    chat: Chat,
    likes: server::likes::Likes,
}

/// A site whose messages and likes tell no one at once (as when the alert went by push, or
/// not at all), so that only the digests speak.
async fn digests(db: Db) -> Digests {
    let w = world(db.clone()).await;
    let sites = SiteCache::load(db.clone()).await.unwrap();
    let jobs = Jobs::new(db.clone(), w.accounts.clock().clone(), "node-a");
    Lifecycle::new(w.accounts.clone(), sites, "http://vonk.test").register(&jobs);
    let chat = Chat::new(w.members.clone(), Bus::start(db, "sqlite://unused"));
    let likes = server::likes::Likes::new(w.members.clone());
    Digests { w, jobs, chat, likes }
}

impl Digests {
    /// A confirmed member called `name`, with this balance (and no free messages left).
    async fn member(&self, email: &str, name: &str, gender: &str, credits: i64) -> Member {
        let member = self.w.member(email, gender).await;
        let id = member.id;
        sqlx::query("UPDATE profiles SET name = $1 WHERE user_id = $2").bind(name).bind(id).execute(self.w.db.pool()).await.unwrap();
        if credits > 0 {
            let mut tx = self.w.db.begin().await.unwrap();
            let reference = format!("adjustment:digests:{id}");
            let delta = credits - member.credits;
            credits::book(&mut tx, Entry { user_id: id, delta, reason: Reason::Adjustment, reference: &reference }, NOW).await.unwrap();
            tx.commit().await.unwrap();
            sqlx::query("UPDATE users SET free_messages_used = 1000 WHERE id = $1").bind(id).execute(self.w.db.pool()).await.unwrap();
        }
        self.w.reload(id).await
    }

    async fn send(&self, from: &Member, to: &Member, n: usize) -> i64 {
        let now = self.w.accounts.clock().now();
        let sent = self
            .chat
            .send(
                &self.w.site,
                from,
                To::Member(to.id),
                &format!("digest-{}-{}-{n:04}", from.id, to.id),
                Content::Text(format!("hoi {} nummer {n}", to.name)),
                now,
            )
            .await
            .unwrap();
        self.chat.background_done().await;
        sent.message.conversation
    }

    /// Moves the clock to `at` (seconds after NOW) and runs the due jobs.
    async fn at(&self, at: i64) {
        // What the likes so far queued in the background is in the queue first.
        self.likes.settled().await;
        let clock = self.w.accounts.clock();
        clock.advance(NOW + at - clock.now());
        self.jobs.run_due().await.unwrap();
    }

    fn mails_to(&self, email: &str) -> Vec<String> {
        std::fs::read_dir(self.w.mail.path())
            .map(|dir| {
                dir.filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok()).filter(|m| m.contains(&format!("To: {email}"))).collect::<Vec<String>>()
            })
            .unwrap_or_default()
            .iter()
            .map(|m| support::decode_qp(m))
            .collect()
    }

    async fn sent(&self, user: i64, kind: &str) -> Vec<(i64, Option<String>)> {
        sqlx::query_as("SELECT sent_at, message_id FROM lifecycle_sent WHERE user_id = $1 AND kind = $2 ORDER BY sent_at")
            .bind(user)
            .bind(kind)
            .fetch_all(self.w.db.pool())
            .await
            .unwrap()
    }

    async fn job_status(&self, key: &str) -> String {
        let (status,): (String,) = sqlx::query_as("SELECT status FROM jobs WHERE job_key = $1").bind(key).fetch_one(self.w.db.pool()).await.unwrap();
        status
    }
}

on_both_databases!(unread_messages_are_summed_up_once_without_what_was_read_or_mailed, |db: Db| async move {
    let d = digests(db).await;
    let anna = d.member("anna@example.nl", "Anna", "female", 0).await;
    let bram = d.member("bram@example.nl", "Bram", "male", 500).await;
    let carl = d.member("carl@example.nl", "Carl", "male", 500).await;
    let dirk = d.member("dirk@example.nl", "Dirk", "male", 500).await;
    // NOW is 13:00 in Amsterdam. Three men write to Anna.
    let with_bram = d.send(&bram, &anna, 1).await;
    let with_carl = d.send(&carl, &anna, 1).await;
    let with_dirk = d.send(&dirk, &anna, 1).await;
    d.send(&bram, &anna, 2).await;
    // One digest job for Anna today, however many messages.
    let key = format!("unread_digest:{}:{}", anna.id, NOW / 86_400);
    let (jobs,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM jobs WHERE kind = 'unread_digest'").fetch_one(d.w.db.pool()).await.unwrap();
    assert_eq!(jobs, 1);
    // Anna reads Carl's; a mail told her of Dirk's.
    d.chat.mark_read(anna.id, with_carl, i64::MAX).await.unwrap();
    assert!(d.w.accounts.mail_message(&d.w.site, "http://vonk.test", anna.id, dirk.id, with_dirk).await.unwrap());
    d.at(6 * HOUR - 60).await;
    assert!(d.sent(anna.id, "unread_digest").await.is_empty(), "not before six hours");
    d.at(6 * HOUR).await;
    let sent = d.sent(anna.id, "unread_digest").await;
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.as_deref().is_some_and(|id| id.starts_with('<') && id.ends_with('>')), "the mail's Message-ID is kept: {sent:?}");
    let digest = d.mails_to("anna@example.nl").into_iter().find(|m| m.contains("kind=unread_digest")).expect("the digest");
    assert!(digest.contains("Bram"), "{digest}");
    assert!(!digest.contains("Carl") && !digest.contains("Dirk"), "read or mailed already: {digest}");
    assert!(digest.contains("http://vonk.test/") && digest.contains("List-Unsubscribe"), "a sign-in link and the one-click header");
    assert_eq!(d.job_status(&key).await, "done");
    // Bram's conversation counts as told: tomorrow's digest has nothing new to say.
    let (mailed,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM chat_members WHERE user_id = $1 AND conversation_id = $2 AND mailed = $3")
        .bind(anna.id)
        .bind(with_bram)
        .bind(true)
        .fetch_one(d.w.db.pool())
        .await
        .unwrap();
    assert_eq!(mailed, 1);
    // The next day Carl writes again and Anna reads it before the digest is due: dropped.
    d.at(24 * HOUR).await;
    d.send(&carl, &anna, 2).await;
    d.chat.mark_read(anna.id, with_carl, i64::MAX).await.unwrap();
    d.at(31 * HOUR).await;
    assert_eq!(d.job_status(&format!("unread_digest:{}:{}", anna.id, NOW / 86_400 + 1)).await, "dropped");
    assert_eq!(d.sent(anna.id, "unread_digest").await.len(), 1);
});

on_both_databases!(new_likes_are_summed_up_without_those_seen_or_mailed, |db: Db| async move {
    let d = digests(db).await;
    let anna = d.member("anna@example.nl", "Anna", "female", 0).await;
    let bram = d.member("bram@example.nl", "Bram", "male", 0).await;
    let carl = d.member("carl@example.nl", "Carl", "male", 0).await;
    let dirk = d.member("dirk@example.nl", "Dirk", "male", 0).await;
    for man in [&bram, &carl, &dirk] {
        d.likes.like(&d.w.site, man, anna.id, LikeSource::Profile, NOW).await.unwrap();
    }
    // Anna likes Carl back: a match, still unseen. A mail told her of Dirk's like.
    d.likes.like(&d.w.site, &anna, carl.id, LikeSource::Profile, NOW).await.unwrap();
    assert!(d.w.accounts.mail_like(&d.w.site, "http://vonk.test", anna.id, dirk.id, "Dirk", false).await.unwrap());
    // Asleep at night in the member's own zone: Amsterdam says 13:00, but her browser said
    // Los Angeles (04:00); the digest due at 19:00 Amsterdam (10:00 there) goes then.
    d.w.accounts.note_time_zone(anna.id, "America/Los_Angeles").await.unwrap();
    d.w.accounts.note_time_zone(anna.id, "Mars/Olympus_Mons").await.unwrap();
    d.at(6 * HOUR).await;
    let sent = d.sent(anna.id, "likes_digest").await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let digest = d.mails_to("anna@example.nl").into_iter().find(|m| m.contains("kind=likes_digest")).expect("the digest");
    assert!(digest.contains("Bram") && digest.contains("Carl"), "{digest}");
    assert!(!digest.contains("Dirk"), "mailed already: {digest}");
    // Told once: a like digest the next day has nothing left of these.
    let (zone,): (Option<String>,) = sqlx::query_as("SELECT time_zone FROM users WHERE id = $1").bind(anna.id).fetch_one(d.w.db.pool()).await.unwrap();
    assert_eq!(zone.as_deref(), Some("America/Los_Angeles"), "an unknown zone changed nothing");
    d.at(24 * HOUR).await;
    d.likes.like(&d.w.site, &d.member("eric@example.nl", "Eric", "male", 0).await, anna.id, LikeSource::Profile, d.w.accounts.clock().now()).await.unwrap();
    // Anna looks at her likes before the digest: nothing left, dropped.
    sqlx::query("UPDATE likes SET seen = $1 WHERE liked_id = $2").bind(true).bind(anna.id).execute(d.w.db.pool()).await.unwrap();
    d.at(31 * HOUR).await;
    assert_eq!(d.job_status(&format!("likes_digest:{}:{}", anna.id, NOW / 86_400 + 1)).await, "dropped");
});

on_both_databases!(the_browsers_time_zone_keeps_the_digest_out_of_its_night, |db: Db| async move {
    let d = digests(db).await;
    let anna = d.member("anna@example.nl", "Anna", "female", 0).await;
    let bram = d.member("bram@example.nl", "Bram", "male", 500).await;
    d.w.accounts.note_time_zone(anna.id, "Asia/Tokyo").await.unwrap();
    d.send(&bram, &anna, 1).await;
    // Due at 18:00 UTC: 03:00 in Tokyo. It waits for 08:00 there, 23:00 UTC.
    d.at(6 * HOUR).await;
    assert!(d.sent(anna.id, "unread_digest").await.is_empty(), "night in Tokyo");
    d.at(11 * HOUR - 60).await;
    assert!(d.sent(anna.id, "unread_digest").await.is_empty());
    d.at(11 * HOUR).await;
    assert_eq!(d.sent(anna.id, "unread_digest").await.iter().map(|(t, _)| (t - NOW) / HOUR).collect::<Vec<_>>(), vec![11]);
});

on_both_databases!(a_premium_members_low_balance_is_told_once_unless_they_top_up, |db: Db| async move {
    let d = digests(db).await;
    let anna = d.member("anna@example.nl", "Anna", "female", 0).await;
    let price = d.w.site.message_credits;
    assert!(price > 0);
    let bram = d.w.make_premium(d.member("bram@example.nl", "Bram", "male", 10 + 2 * price).await.id).await;
    let carl = d.w.make_premium(d.member("carl@example.nl", "Carl", "male", 10 + price).await.id).await;
    let dirk = d.member("dirk@example.nl", "Dirk", "male", 10 + price).await;
    let erik = d.w.make_premium(d.member("erik@example.nl", "Erik", "male", 10 + price).await.id).await;
    sqlx::query("UPDATE users SET notify_news = $1 WHERE id = $2").bind(false).bind(erik.id).execute(d.w.db.pool()).await.unwrap();
    // Bram goes from 10 + 2p to 10 + p (not low), then to 10: low.
    d.send(&bram, &anna, 1).await;
    d.send(&d.w.reload(bram.id).await, &anna, 2).await;
    // Carl falls low and tops up within the two hours; Dirk is no premium member; Erik said
    // no to tips and offers.
    for man in [&carl, &dirk, &erik] {
        d.send(man, &anna, 1).await;
    }
    let (queued,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM jobs WHERE kind = 'low_balance'").fetch_one(d.w.db.pool()).await.unwrap();
    assert_eq!(queued, 3, "Bram once (his first send did not fall low), Carl, Erik; not Dirk");
    let mut tx = d.w.db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: carl.id, delta: 100, reason: Reason::Adjustment, reference: "adjustment:digests:topup" }, NOW).await.unwrap();
    tx.commit().await.unwrap();
    d.at(2 * HOUR).await;
    assert_eq!(d.sent(bram.id, "low_balance").await.len(), 1);
    let mail = d.mails_to("bram@example.nl").into_iter().find(|m| m.contains("kind=low_balance")).expect("Bram's mail");
    assert!(mail.contains("Je creditsaldo staat op 10."), "{mail}");
    assert!(mail.contains("http://vonk.test/"), "a sign-in link: {mail}");
    assert!(d.sent(carl.id, "low_balance").await.is_empty(), "topped up");
    assert!(d.sent(erik.id, "low_balance").await.is_empty(), "no tips and offers");
    let (dropped,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM jobs WHERE kind = 'low_balance' AND status = 'dropped'").fetch_one(d.w.db.pool()).await.unwrap();
    assert_eq!(dropped, 2);
});

on_both_databases!(a_spam_complaint_counts_against_the_kind_of_mail_it_quotes, |db: Db| async move {
    let d = digests(db).await;
    let anna = d.member("anna@example.nl", "Anna", "female", 0).await;
    let bram = d.member("bram@example.nl", "Bram", "male", 500).await;
    d.send(&bram, &anna, 1).await;
    d.at(6 * HOUR).await;
    let sent = d.sent(anna.id, "unread_digest").await;
    let message_id = sent[0].1.clone().unwrap();
    // The mailbox provider's abuse report quotes the mail's headers.
    let arf = format!(
        "From: fbl@mailbox.example\r\nTo: abuse@vonk.nl\r\nContent-Type: multipart/report; report-type=feedback-report; boundary=\"b\"\r\n\r\n\
--b\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\nVersion: 1\r\n\r\n\
--b\r\nContent-Type: text/rfc822-headers\r\n\r\nTo: anna@example.nl\r\nMessage-ID: {message_id}\r\n\r\n--b--\r\n"
    );
    let reports = server::mail::reports::parse_mail(&arf);
    assert_eq!(reports[0].message_id.as_deref(), Some(message_id.as_str()));
    assert_eq!(d.w.accounts.mail_report(&reports[0]).await.unwrap(), 1);
    let (kind, complained): (String, Option<i64>) =
        sqlx::query_as("SELECT kind, complained_at FROM lifecycle_sent WHERE message_id = $1").bind(&message_id).fetch_one(d.w.db.pool()).await.unwrap();
    assert_eq!((kind.as_str(), complained.is_some()), ("unread_digest", true));
    // The complaint also stopped every mail to her, as any spam complaint does.
    assert_eq!(d.w.reload(anna.id).await.alerts.notifications_disabled, vec!["spam".to_string()]);
    // A report naming a Message-ID we never sent changes no figure.
    let other = server::mail::reports::MailReport {
        address: "anna@example.nl".into(),
        reason: server::accounts::DisabledReason::Spam,
        message_id: Some("<nobody@vonk.test>".into()),
    };
    d.w.accounts.mail_report(&other).await.unwrap();
    let (complaints,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM lifecycle_sent WHERE complained_at IS NOT NULL").fetch_one(d.w.db.pool()).await.unwrap();
    assert_eq!(complaints, 1);
});
