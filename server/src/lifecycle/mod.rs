//! Lifecycle messages: what Vonk sends on its own initiative to bring a member back, run from
//! the job queue ([`crate::jobs`]). Every kind passes the same gate before it goes out
//! ([`Lifecycle::gate`]): the site has it on, the member is a member (not staff) whose
//! preference allows it and who did not say no to it, it is day where the member lives (the
//! browser's time zone, else the country's), and the member's cap (`domain::lifecycle`) allows
//! one more. It then goes by web push where the member has a browser subscribed, by mail
//! otherwise (never both), and is written to `lifecycle_sent` with the mail's `Message-ID`, so a
//! spam complaint about it counts against its kind.

mod digests;

pub use digests::{note_low_balance, DigestNotes};

use std::sync::Arc;

use chrono::{TimeZone, Timelike};
use domain::jobs::JobKind;
use domain::lifecycle::{cap_allows_at, quiet_wait_secs, LifecycleKind};

use domain::lifecycle::{Channel, Preference};
use domain::rows::Flag;

use crate::accounts::{Accounts, LifecycleNotice, Member};
use crate::error::AppError;
use crate::jobs::{Handler, Job, Outcome};
use crate::sites::SiteCache;

/// The time zone of a member in a country: the country's zone, or for a country with several
/// the zone where most of its people live. Members of other countries count in the site's
/// home zone (Europe/Amsterdam).
pub fn zone_for(country: Option<&str>) -> chrono_tz::Tz {
    use chrono_tz::{America, Australia, Europe, Pacific};
    match country.unwrap_or("").to_ascii_uppercase().as_str() {
        "GB" => Europe::London,
        "IE" => Europe::Dublin,
        "FI" => Europe::Helsinki,
        "US" => America::New_York,
        "CA" => America::Toronto,
        "AU" => Australia::Sydney,
        "NZ" => Pacific::Auckland,
        "BE" => Europe::Brussels,
        "DE" => Europe::Berlin,
        "AT" => Europe::Vienna,
        "CH" => Europe::Zurich,
        "FR" => Europe::Paris,
        "ES" => Europe::Madrid,
        "IT" => Europe::Rome,
        "PL" => Europe::Warsaw,
        "SE" => Europe::Stockholm,
        "NO" => Europe::Oslo,
        "DK" => Europe::Copenhagen,
        _ => Europe::Amsterdam,
    }
}

/// A zone of the time zone database by its IANA name (`Europe/Amsterdam`); `None` for anything
/// else a browser or a cookie might say.
pub fn known_zone(name: &str) -> Option<chrono_tz::Tz> {
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    name.parse().ok()
}

/// Seconds since midnight where the member lives, at `unix`.
pub fn local_secs_of_day(zone: chrono_tz::Tz, unix: i64) -> i64 {
    match zone.timestamp_opt(unix, 0).single() {
        Some(t) => i64::from(t.num_seconds_from_midnight()),
        None => unix.rem_euclid(24 * 3600),
    }
}

/// The lifecycle jobs of a member who just signed up, queued inside the signup's transaction:
/// the two confirm reminders, and the look at the new member's offer (`DiscountEnding`).
/// The reminders go at the site's hours as set at signup.
pub async fn schedule_signup_jobs(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    site: &domain::site::SiteSettings,
    user_id: i64,
    now: i64,
) -> Result<(), AppError> {
    let site_id = site.id;
    for (step, after) in site.lifecycle_timing().confirm_reminders_after_secs.iter().enumerate() {
        let payload = serde_json::json!({ "user_id": user_id, "step": step + 1 });
        let key = format!("confirm_reminder:{user_id}:{}", step + 1);
        crate::jobs::enqueue(tx, Some(site_id), JobKind::ConfirmReminder, &key, &payload, now + after, now).await?;
    }
    let payload = serde_json::json!({ "user_id": user_id });
    crate::jobs::enqueue(tx, Some(site_id), JobKind::DiscountEnding, &format!("discount_ending:{user_id}"), &payload, now, now).await?;
    Ok(())
}

const DAY: i64 = 24 * 3600;

/// Queues today's scan for members away (once per day, whichever node asks first); every node
/// asks at its start, and each scan queues the next day's.
pub async fn ensure_daily_scan(db: &crate::db::Db, now: i64) -> Result<(), AppError> {
    let mut tx = db.begin().await?;
    crate::jobs::enqueue(&mut tx, None, JobKind::LifecycleScan, &format!("lifecycle_scan:{}", now / DAY), &serde_json::json!({}), now, now).await?;
    tx.commit().await?;
    Ok(())
}

/// The lifecycle handlers: the services they need to decide and to send.
#[derive(Clone)]
pub struct Lifecycle {
    accounts: Accounts,
    sites: SiteCache,
    public_url: Arc<str>,
    /// The company's leaving discount for the last win-back message (none: no offer).
    payments: Option<crate::payments::Payments>,
    /// Web push for members with a browser subscribed (none: mail only).
    push: Option<crate::push::Pusher>,
}

/// What the gate decides for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// It goes out now, by this channel.
    Send(Channel),
    /// It does not go now: this becomes of the job.
    Not(Outcome),
}

/// What the gate reads of the member besides [`Member`].
#[derive(sqlx::FromRow)]
struct Reach {
    time_zone: Option<String>,
    #[sqlx(try_from = "Flag")]
    notify_messages: bool,
    #[sqlx(try_from = "Flag")]
    notify_likes: bool,
    #[sqlx(try_from = "Flag")]
    notify_news: bool,
    pushes: i64,
    opted_out: i64,
}

impl Lifecycle {
    pub fn new(accounts: Accounts, sites: SiteCache, public_url: &str) -> Lifecycle {
        Lifecycle { accounts, sites, public_url: public_url.into(), payments: None, push: None }
    }

    /// Members with a browser subscribed get their lifecycle messages by web push.
    pub fn with_push(mut self, push: crate::push::Pusher) -> Lifecycle {
        self.push = Some(push).filter(crate::push::Pusher::enabled);
        self
    }

    /// The last win-back message offers the company's leaving discount through these payments.
    pub fn with_payments(mut self, payments: crate::payments::Payments) -> Lifecycle {
        self.payments = Some(payments);
        self
    }

    /// Registers a handler for each kind of lifecycle job.
    pub fn register(&self, jobs: &crate::jobs::Jobs) {
        for kind in [
            JobKind::ConfirmReminder,
            JobKind::LifecycleScan,
            JobKind::WinBack,
            JobKind::DiscountEnding,
            JobKind::UnreadDigest,
            JobKind::LikesDigest,
            JobKind::LowBalance,
        ] {
            jobs.handle(kind, Arc::new(self.clone()));
        }
    }

    /// The checks every lifecycle message passes, and the channel it goes by.
    pub async fn gate(&self, member: &Member, kind: LifecycleKind, site_allows: bool, now: i64) -> Result<Gate, AppError> {
        let not = |outcome| Ok(Gate::Not(outcome));
        if !site_allows {
            return not(Outcome::Dropped("off"));
        }
        if member.is_staff() {
            return not(Outcome::Dropped("staff"));
        }
        if matches!(member.status, domain::account::UserStatus::Deleted | domain::account::UserStatus::Blocked) {
            return not(Outcome::Dropped("account"));
        }
        let reach: Reach = sqlx::query_as(
            "SELECT u.time_zone, u.notify_messages, u.notify_likes, u.notify_news, \
               (SELECT COUNT(*) FROM push_subscriptions s WHERE s.user_id = u.id) AS pushes, \
               (SELECT COUNT(*) FROM lifecycle_optouts o WHERE o.user_id = u.id AND o.kind = $2) AS opted_out \
             FROM users u WHERE u.id = $1",
        )
        .bind(member.id)
        .bind(kind.as_str())
        .fetch_one(self.accounts.db().pool())
        .await?;
        let wanted = match kind.preference() {
            None => true,
            Some(Preference::Messages) => reach.notify_messages,
            Some(Preference::Likes) => reach.notify_likes,
            Some(Preference::News) => reach.notify_news,
        };
        if !wanted {
            return not(Outcome::Dropped("preference"));
        }
        if reach.opted_out > 0 {
            return not(Outcome::Dropped("unsubscribed"));
        }
        let channel = domain::lifecycle::channel(kind, if self.push.is_some() { reach.pushes } else { 0 });
        // A bounce, a spam complaint or a list-unsubscribe stops these mails as it stops the others.
        if channel == Channel::Mail && !member.alerts.notifications_disabled.is_empty() {
            return not(Outcome::Dropped("mail_off"));
        }
        let zone = reach.time_zone.as_deref().and_then(known_zone).unwrap_or_else(|| zone_for(member.country.as_deref()));
        let wait = quiet_wait_secs(local_secs_of_day(zone, now));
        if wait > 0 {
            return not(Outcome::Later(now + wait));
        }
        let sent: Vec<(i64,)> = sqlx::query_as("SELECT sent_at FROM lifecycle_sent WHERE user_id = $1 AND sent_at > $2")
            .bind(member.id)
            .bind(now - 7 * 24 * 3600)
            .fetch_all(self.accounts.db().pool())
            .await?;
        let allowed = cap_allows_at(&sent.into_iter().map(|(t,)| t).collect::<Vec<_>>(), now);
        if allowed > now {
            return not(Outcome::Later(allowed));
        }
        Ok(Gate::Send(channel))
    }

    async fn record_sent(&self, user_id: i64, kind: LifecycleKind, channel: Channel, message_id: Option<&str>, now: i64) -> Result<(), AppError> {
        sqlx::query("INSERT INTO lifecycle_sent (user_id, kind, channel, message_id, sent_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(user_id)
            .bind(kind.as_str())
            .bind(<&str>::from(channel))
            .bind(message_id)
            .bind(now)
            .execute(self.accounts.db().pool())
            .await?;
        Ok(())
    }

    /// A job's outcome after [`Lifecycle::deliver`].
    fn sent(&self, delivered: bool) -> Result<Outcome, AppError> {
        Ok(if delivered { Outcome::Done } else { Outcome::Dropped("no_channel") })
    }

    /// Sends a notice the gate let through by its channel, and records it. A push no browser
    /// took becomes a mail where mail works; returns whether anything went out.
    async fn deliver(&self, site: &crate::sites::Site, member: &Member, notice: &LifecycleNotice, channel: Channel, now: i64) -> Result<bool, AppError> {
        if let (Channel::Push, Some(push)) = (channel, &self.push) {
            let link = self.accounts.sign_in_link(&site.settings, member.id, &notice.target).await?;
            let locale = domain::Locale::parse(&member.language).unwrap_or(domain::Locale::DEFAULT);
            let mut vars: Vec<(&str, &str)> = vec![("site", &site.settings.name), ("name", &member.name)];
            vars.extend(notice.vars.iter().map(|(k, v)| (*k, v.as_str())));
            let body = domain::i18n::interpolate(&push.catalog().t(locale, &format!("{}.push", notice.prefix)), &vars);
            if push.send_notice(&site.settings.name, member.id, &body, &link, notice.kind.as_str()).await? > 0 {
                self.record_sent(member.id, notice.kind, Channel::Push, None, now).await?;
                return Ok(true);
            }
            if !member.alerts.notifications_disabled.is_empty() {
                return Ok(false);
            }
        }
        let message_id = self.accounts.send_lifecycle_mail(&site.settings, &site.base_url(&self.public_url), member, notice).await?;
        self.record_sent(member.id, notice.kind, Channel::Mail, Some(&message_id), now).await?;
        Ok(true)
    }

    /// "Confirm your address", an hour and a day after signup, while the member has not.
    async fn confirm_reminder(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        let Some(user_id) = job.payload.get("user_id").and_then(|v| v.as_i64()) else { return Ok(Outcome::Dropped("payload")) };
        let Some(member) = self.accounts.member(user_id).await? else { return Ok(Outcome::Dropped("account")) };
        if member.is_confirmed() {
            return Ok(Outcome::Dropped("confirmed"));
        }
        let Some(site) = self.sites.by_id(member.site_id) else { return Ok(Outcome::Dropped("site")) };
        if let Gate::Not(outcome) = self.gate(&member, LifecycleKind::ConfirmReminder, site.settings.confirm_reminders, now).await? {
            return Ok(outcome);
        }
        let message_id = self.accounts.send_confirm_reminder(&site.settings, &site.base_url(&self.public_url), &member, now).await?;
        self.record_sent(user_id, LifecycleKind::ConfirmReminder, Channel::Mail, Some(&message_id), now).await?;
        Ok(Outcome::Done)
    }
}

impl Lifecycle {
    /// Once a day: the members who crossed their site's days away (7 and 30 by default) since
    /// the last scan get a win-back job each (one per member, threshold and absence), then
    /// tomorrow's scan is queued.
    async fn scan(&self, now: i64) -> Result<Outcome, AppError> {
        let db = self.accounts.db();
        let mut tx = db.begin().await?;
        let thresholds = self
            .sites
            .all()
            .iter()
            .filter(|site| site.win_back)
            .flat_map(|site| site.lifecycle_timing().win_back_after_days.map(|days| (site.id, days)))
            .collect::<Vec<_>>();
        for (site_id, days) in thresholds {
            let away: Vec<(i64, i64, i64)> = sqlx::query_as(
                "SELECT id, site_id, last_seen_at FROM users WHERE site_id = $5 AND last_seen_at > $1 AND last_seen_at <= $2 \
                 AND staff_roles = 0 AND fictional = $3 AND status = $4",
            )
            .bind(now - (days + 1) * DAY)
            .bind(now - days * DAY)
            .bind(false)
            .bind(domain::account::UserStatus::Active.as_str())
            .bind(site_id)
            .fetch_all(&mut *tx)
            .await?;
            for (user_id, site_id, last_seen) in away {
                let payload = serde_json::json!({ "user_id": user_id, "days": days, "last_seen": last_seen });
                crate::jobs::enqueue(&mut tx, Some(site_id), JobKind::WinBack, &format!("win_back:{user_id}:{days}:{last_seen}"), &payload, now, now).await?;
            }
        }
        let tomorrow = now / DAY + 1;
        crate::jobs::enqueue(&mut tx, None, JobKind::LifecycleScan, &format!("lifecycle_scan:{tomorrow}"), &serde_json::json!({}), tomorrow * DAY, now).await?;
        tx.commit().await?;
        Ok(Outcome::Done)
    }

    /// "We miss you", while the member is still away; the last one with the company's leaving
    /// discount as the member's own code.
    async fn win_back(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        let field = |name: &str| job.payload.get(name).and_then(|v| v.as_i64());
        let (Some(user_id), Some(days), Some(last_seen)) = (field("user_id"), field("days"), field("last_seen")) else {
            return Ok(Outcome::Dropped("payload"));
        };
        let Some(member) = self.accounts.member(user_id).await? else { return Ok(Outcome::Dropped("account")) };
        if !member.is_confirmed() {
            return Ok(Outcome::Dropped("unconfirmed"));
        }
        let (seen,): (Option<i64>,) = sqlx::query_as("SELECT last_seen_at FROM users WHERE id = $1").bind(user_id).fetch_one(self.accounts.db().pool()).await?;
        if seen != Some(last_seen) {
            return Ok(Outcome::Dropped("came_back"));
        }
        let Some(site) = self.sites.by_id(member.site_id) else { return Ok(Outcome::Dropped("site")) };
        let channel = match self.gate(&member, LifecycleKind::WinBack, site.settings.win_back, now).await? {
            Gate::Send(channel) => channel,
            Gate::Not(outcome) => return Ok(outcome),
        };
        let last = site.lifecycle_timing().win_back_after_days[1];
        let offer = match (&self.payments, days >= last) {
            (Some(payments), true) => match payments.leaving_offer(&site, &member).await? {
                crate::payments::leaving::LeavingOffer::Offer(_) => Some(payments.take_leaving_discount(&site, &member, now).await?),
                crate::payments::leaving::LeavingOffer::Taken(taken) if taken.expires_at > now => Some(taken),
                _ => None,
            },
            _ => None,
        };
        self.sent(self.deliver(&site, &member, &LifecycleNotice::win_back(days, offer.as_ref()), channel, now).await?)
    }
}

impl Lifecycle {
    /// "Your discount ends in N hours", when that is true: the offer is the member's now,
    /// nothing as good follows it, and an hour or more of it is left when the mail goes.
    async fn discount_ending(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        use domain::lifecycle::{discount_mail, DiscountMail};
        let Some(user_id) = job.payload.get("user_id").and_then(|v| v.as_i64()) else { return Ok(Outcome::Dropped("payload")) };
        let Some(member) = self.accounts.member(user_id).await? else { return Ok(Outcome::Dropped("account")) };
        let Some(site) = self.sites.by_id(member.site_id) else { return Ok(Outcome::Dropped("site")) };
        let Some(payments) = &self.payments else { return Ok(Outcome::Dropped("no_payments")) };
        let country = member.country.clone().unwrap_or_else(|| site.settings.geoip_country.clone());
        let (_, offers) = payments.discounts(&site, &member, None, &country, now).await?;
        let (percent, ends_at) = match discount_mail(&offers, member.signup_date, now, site.lifecycle_timing().discount_notice_secs) {
            DiscountMail::Send { percent, ends_at } => (percent, ends_at),
            DiscountMail::At(at) => return Ok(Outcome::Later(at)),
            DiscountMail::Never => return Ok(Outcome::Dropped("not_true")),
        };
        if !member.is_confirmed() {
            return Ok(Outcome::Dropped("unconfirmed"));
        }
        let channel = match self.gate(&member, LifecycleKind::DiscountEnding, site.settings.discount_ending, now).await? {
            Gate::Send(channel) => channel,
            Gate::Not(outcome) => return Ok(outcome),
        };
        // "5 uur", "1 hour", "5 godzin": the hours left in the member's language, counted.
        let hours = ((ends_at - now) + 3599) / 3600;
        let locale = domain::Locale::parse(&member.language).unwrap_or(domain::Locale::DEFAULT);
        let duration = domain::plural::plural(&self.accounts.catalog().texts(locale), locale, "duration.hours", hours, &[]);
        let notice = LifecycleNotice {
            kind: LifecycleKind::DiscountEnding,
            prefix: "lifecycle.discount_ending",
            vars: vec![("percent", percent.to_string()), ("duration", duration)],
            target: "/credits".into(),
        };
        self.sent(self.deliver(&site, &member, &notice, channel, now).await?)
    }
}

#[async_trait::async_trait]
impl Handler for Lifecycle {
    async fn run(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        match job.kind {
            JobKind::ConfirmReminder => self.confirm_reminder(job, now).await,
            JobKind::LifecycleScan => self.scan(now).await,
            JobKind::WinBack => self.win_back(job, now).await,
            JobKind::DiscountEnding => self.discount_ending(job, now).await,
            JobKind::UnreadDigest => self.unread_digest(job, now).await,
            JobKind::LikesDigest => self.likes_digest(job, now).await,
            JobKind::LowBalance => self.low_balance(job, now).await,
            // Registered by the payments (`Payments::schedule_recovery`), never here.
            JobKind::PaymentRecovery | JobKind::Postback => Err(AppError::Internal(format!("{} is not a lifecycle job", job.kind.as_str()))),
        }
    }
}

/// Lifecycle messages of one kind sent on one day (UTC), and the members who said no to the
/// kind that day, for staff's start page.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DayFigure {
    pub day: i64,
    pub kind: String,
    pub sent: i64,
    pub unsubscribed: i64,
    /// Spam complaints about the mails of that kind sent that day.
    pub complained: i64,
}

/// A site's sent and unsubscribed per kind and day since `since` (the latest day first); staff
/// with the jobs area only.
pub async fn figures(db: &crate::db::Db, who: &Member, site_id: i64, since: i64) -> Result<Vec<DayFigure>, AppError> {
    crate::staff::require_staff(who, site_id, domain::staff::StaffArea::Jobs)?;
    Ok(sqlx::query_as(
        "SELECT day, kind, SUM(sent) AS sent, SUM(unsubscribed) AS unsubscribed, SUM(complained) AS complained FROM ( \
           SELECT s.sent_at / 86400 AS day, s.kind, 1 AS sent, 0 AS unsubscribed, CASE WHEN s.complained_at IS NULL THEN 0 ELSE 1 END AS complained \
             FROM lifecycle_sent s JOIN users u ON u.id = s.user_id WHERE s.sent_at >= $1 AND u.site_id = $2 \
           UNION ALL SELECT o.created_at / 86400 AS day, o.kind, 0 AS sent, 1 AS unsubscribed, 0 AS complained FROM lifecycle_optouts o JOIN users u ON u.id = o.user_id \
             WHERE o.created_at >= $1 AND u.site_id = $2 \
         ) f GROUP BY day, kind ORDER BY day DESC, kind",
    )
    .bind(since)
    .bind(site_id)
    .fetch_all(db.pool())
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_time_follows_the_zone_and_summer_time() {
        // 2026-01-15 12:00 UTC: 13:00 in Amsterdam, 07:00 in New York.
        let winter = 1_768_478_400;
        assert_eq!(local_secs_of_day(zone_for(Some("NL")), winter), 13 * 3600);
        assert_eq!(local_secs_of_day(zone_for(Some("US")), winter), 7 * 3600);
        // 2026-07-15 12:00 UTC: 14:00 in Amsterdam (summer time), 13:00 in London.
        let summer = 1_784_116_800;
        assert_eq!(local_secs_of_day(zone_for(Some("nl")), summer), 14 * 3600);
        assert_eq!(local_secs_of_day(zone_for(Some("GB")), summer), 13 * 3600);
        assert_eq!(local_secs_of_day(zone_for(None), summer), 14 * 3600);
    }
}
