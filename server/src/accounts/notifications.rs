//! Notification mails: the member's preferences, and the reasons they are switched off without
//! the member's settings (SPEC §4: a spam complaint, a bounce or list-unsubscribe). While any
//! reason stands, no notification mail goes out and the disabled-notifications alert shows.

use domain::rows::Flag;
use domain::site::SiteSettings;

use super::mails::LinkMailSpec;
use super::tokens;
use super::Accounts;
use crate::error::AppError;

/// What a member wants to be mailed about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotificationPrefs {
    pub messages: bool,
    pub likes: bool,
    pub news: bool,
}

/// Kinds of notification mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotificationKind {
    Message,
    Like,
    News,
}

/// Why notification mails stopped without the member's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisabledReason {
    Spam,
    Bounce,
    ListUnsubscribe,
}

impl DisabledReason {
    pub fn code(self) -> &'static str {
        match self {
            DisabledReason::Spam => "spam",
            DisabledReason::Bounce => "bounce",
            DisabledReason::ListUnsubscribe => "list_unsubscribe",
        }
    }
    pub fn parse(code: &str) -> Option<DisabledReason> {
        [DisabledReason::Spam, DisabledReason::Bounce, DisabledReason::ListUnsubscribe].into_iter().find(|r| r.code() == code)
    }
}

/// Alerts a member can dismiss for good (SPEC §4).
pub const DISMISSIBLE_ALERTS: [&str; 4] = ["notifications_disabled", "profile_photo", "time_bonus", domain::push::ALERT];

/// The member's alert state: why mails are off, and which alerts were dismissed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AlertState {
    pub notifications_disabled: Vec<String>,
    pub dismissed: Vec<String>,
}

/// The member's choices as stored.
#[derive(sqlx::FromRow)]
struct PrefsRow {
    #[sqlx(try_from = "Flag")]
    notify_messages: bool,
    #[sqlx(try_from = "Flag")]
    notify_likes: bool,
    #[sqlx(try_from = "Flag")]
    notify_news: bool,
}

/// Whether the member `u` (`u.id = $1`) may get a notification mail whose wish is in `column`
/// now: they want it, no reason stops their mails, the account is in use and real. [`mailable`]
/// binds `$1`–`$5` (`$2` is true and `$5` false, for a statement around it to use too).
macro_rules! mailable_sql {
    ($column:literal) => {
        concat!(
            "u.id = $1 AND u.",
            $column,
            " = $2 AND u.status IN ($3, $4) AND u.fictional = $5 \
             AND NOT EXISTS (SELECT 1 FROM notifications_disabled d WHERE d.user_id = u.id)"
        )
    };
}

/// [`Accounts::may_mail`]'s question, per kind.
fn may_mail_sql(kind: NotificationKind) -> &'static str {
    match kind {
        NotificationKind::Message => concat!("SELECT u.id FROM users u WHERE ", mailable_sql!("notify_messages")),
        NotificationKind::Like => concat!("SELECT u.id FROM users u WHERE ", mailable_sql!("notify_likes")),
        NotificationKind::News => concat!("SELECT u.id FROM users u WHERE ", mailable_sql!("notify_news")),
    }
}

/// Claims a conversation's one new-message mail (`$6`) when the member may be mailed.
const CLAIM_MESSAGE_MAIL: &str = concat!(
    "UPDATE chat_members SET mailed = $2 WHERE conversation_id = $6 AND user_id = $1 AND mailed = $5 \
     AND EXISTS (SELECT 1 FROM users u WHERE ",
    mailable_sql!("notify_messages"),
    ")"
);

/// Binds [`mailable_sql!`]'s values.
fn mailable<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    user_id: i64,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    query.bind(user_id).bind(true).bind(domain::account::UserStatus::NotConfirmed.as_str()).bind(domain::account::UserStatus::Active.as_str()).bind(false)
}

/// Whom a notification mail goes to; `like_mailed_at` and `other` only where the query asks.
#[derive(sqlx::FromRow)]
struct MailTo {
    email: String,
    language: String,
    name: String,
    #[sqlx(default)]
    like_mailed_at: Option<i64>,
    #[sqlx(default)]
    other: Option<String>,
}

/// A reason mails are off (`disabled`) or a dismissed alert (`dismissed`).
#[derive(sqlx::FromRow)]
struct AlertRow {
    kind: String,
    name: String,
}

impl Accounts {
    pub async fn notification_prefs(&self, user_id: i64) -> Result<NotificationPrefs, AppError> {
        let row = sqlx::query_as::<_, PrefsRow>("SELECT notify_messages, notify_likes, notify_news FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(self.db().pool())
            .await?;
        Ok(NotificationPrefs { messages: row.notify_messages, likes: row.notify_likes, news: row.notify_news })
    }

    /// Saves the member's choices. Saving from the settings also lifts a list-unsubscribe (the
    /// member chose again); bounces and spam complaints are lifted only by
    /// [`Accounts::enable_notifications`].
    pub async fn set_notification_prefs(&self, user_id: i64, prefs: NotificationPrefs) -> Result<(), AppError> {
        let mut tx = self.db().begin().await?;
        sqlx::query("UPDATE users SET notify_messages = $1, notify_likes = $2, notify_news = $3 WHERE id = $4")
            .bind(prefs.messages)
            .bind(prefs.likes)
            .bind(prefs.news)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM notifications_disabled WHERE user_id = $1 AND reason = 'list_unsubscribe'").bind(user_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// True when a notification mail of this kind may go to the member now.
    pub async fn may_mail(&self, user_id: i64, kind: NotificationKind) -> Result<bool, AppError> {
        let row = mailable(sqlx::query(may_mail_sql(kind)), user_id).fetch_optional(self.db().pool()).await?;
        Ok(row.is_some())
    }

    /// Tells a member about a like or a match by mail, if the member's preferences and the
    /// disabled reasons allow it. Likes mail at most once in
    /// [`domain::notifications::LIKE_MAIL_GAP_SECS`], matches always. Returns whether a mail went out.
    pub async fn mail_like(&self, site: &SiteSettings, base_url: &str, to_user: i64, other_id: i64, other_name: &str, matched: bool) -> Result<bool, AppError> {
        if !self.may_mail(to_user, NotificationKind::Like).await? {
            return Ok(false);
        }
        let now = self.clock().now();
        let mut tx = self.db().begin().await?;
        // Under the member's row lock, so that likes arriving together send one mail.
        sqlx::query("UPDATE users SET like_mailed_at = like_mailed_at WHERE id = $1").bind(to_user).execute(&mut *tx).await?;
        let row = sqlx::query_as::<_, MailTo>(
            "SELECT u.email, u.language, u.like_mailed_at, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1",
        )
        .bind(to_user)
        .fetch_one(&mut *tx)
        .await?;
        let pair: Option<(i64,)> = sqlx::query_as("SELECT mailed_at FROM like_mails WHERE to_user = $1 AND from_user = $2")
            .bind(to_user)
            .bind(other_id)
            .fetch_optional(&mut *tx)
            .await?;
        if !domain::notifications::pair_mail_due(matched, row.like_mailed_at, pair.map(|(at,)| at), now) {
            return Ok(false);
        }
        sqlx::query("UPDATE users SET like_mailed_at = $1 WHERE id = $2").bind(now).bind(to_user).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO like_mails (to_user, from_user, mailed_at) VALUES ($1, $2, $3) ON CONFLICT (to_user, from_user) DO UPDATE SET mailed_at = excluded.mailed_at")
            .bind(to_user)
            .bind(other_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        let MailTo { email, name, language, .. } = row;
        let locale = domain::Locale::parse(&language).unwrap_or(domain::Locale::DEFAULT);
        let prefix = if matched { "mail.match" } else { "mail.like" };
        let spec = LinkMailSpec {
            prefix,
            footer: "mail.notification_footer",
            vars: &[("name", &name), ("other", other_name)],
            unsubscribe_for: Some(to_user),
            lifecycle: None,
        };
        self.send_link_mail(site, base_url, locale, &email, spec, &self.links.member(other_id)).await?;
        Ok(true)
    }

    /// Tells a member about a new message by mail (SPEC §4 'messages' preference): at most one
    /// mail per conversation until the member reads it, never to fictional profiles. Returns
    /// whether a mail went out.
    pub async fn mail_message(&self, site: &SiteSettings, base_url: &str, to_user: i64, from_user: i64, conversation: i64) -> Result<bool, AppError> {
        // Claims the conversation's one mail when the member may be mailed, in one statement
        // (this runs for every message delivered); reading it (`Chat::mark_read`) frees it again.
        let claimed = mailable(sqlx::query(CLAIM_MESSAGE_MAIL), to_user).bind(conversation).execute(self.db().writer()).await?.rows_affected() == 1;
        if !claimed {
            return Ok(false);
        }
        let row = sqlx::query_as::<_, MailTo>("SELECT u.email, u.language, p.name, (SELECT o.name FROM profiles o WHERE o.user_id = $2) AS other FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1")
            .bind(to_user)
            .bind(from_user)
            .fetch_one(self.db().pool())
            .await?;
        let MailTo { email, name, language, other, .. } = row;
        let other = other.unwrap_or_default();
        let locale = domain::Locale::parse(&language).unwrap_or(domain::Locale::DEFAULT);
        let spec = LinkMailSpec {
            prefix: "mail.message",
            footer: "mail.notification_footer",
            vars: &[("name", &name), ("other", &other)],
            unsubscribe_for: Some(to_user),
            lifecycle: None,
        };
        self.send_link_mail(site, base_url, locale, &email, spec, &self.links.chat(conversation)).await?;
        Ok(true)
    }

    /// Records a reason; idempotent.
    pub async fn disable_notifications(&self, user_id: i64, reason: DisabledReason) -> Result<(), AppError> {
        sqlx::query("INSERT INTO notifications_disabled (user_id, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, reason) DO NOTHING")
            .bind(user_id)
            .bind(reason.code())
            .bind(self.clock().now())
            .execute(self.db().pool())
            .await?;
        // The alert returns even if an earlier one was dismissed: this is news.
        sqlx::query("DELETE FROM alert_dismissals WHERE user_id = $1 AND alert = 'notifications_disabled'").bind(user_id).execute(self.db().pool()).await?;
        Ok(())
    }

    /// The member turns notification mails back on (after fixing the address, say).
    pub async fn enable_notifications(&self, user_id: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM notifications_disabled WHERE user_id = $1").bind(user_id).execute(self.db().pool()).await?;
        Ok(())
    }

    /// RFC 8058 one-click unsubscribe. Unknown tokens change nothing; returns whether one matched.
    pub async fn unsubscribe(&self, token: &str) -> Result<bool, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(false);
        }
        let row: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE unsubscribe_token = $1 AND status <> $2")
            .bind(token)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_optional(self.db().pool())
            .await?;
        match row {
            Some((id,)) => {
                self.disable_notifications(id, DisabledReason::ListUnsubscribe).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// A bounce or spam complaint reported by the mail provider for an address: every account
    /// with that address (on any site) stops getting notification mails. Returns how many.
    pub async fn mail_event(&self, email: &str, reason: DisabledReason) -> Result<u64, AppError> {
        let ids: Vec<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE email = $1 AND status <> $2")
            .bind(email.trim().to_lowercase())
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_all(self.db().pool())
            .await?;
        for (id,) in &ids {
            self.disable_notifications(*id, reason).await?;
        }
        Ok(ids.len() as u64)
    }

    /// A report from the mail provider ([`crate::mail::reports`]): [`Accounts::mail_event`],
    /// and a complaint about a lifecycle mail it names counts against that mail's kind.
    pub async fn mail_report(&self, report: &crate::mail::reports::MailReport) -> Result<u64, AppError> {
        let count = self.mail_event(&report.address, report.reason).await?;
        if let (DisabledReason::Spam, Some(message_id)) = (report.reason, report.message_id.as_deref()) {
            sqlx::query("UPDATE lifecycle_sent SET complained_at = $1 WHERE message_id = $2 AND complained_at IS NULL")
                .bind(self.clock().now())
                .bind(message_id)
                .execute(self.db().pool())
                .await?;
        }
        Ok(count)
    }

    /// The member's unsubscribe token (created on first use), for the links in mails.
    pub async fn unsubscribe_token(&self, user_id: i64) -> Result<String, AppError> {
        let existing: Option<(Option<String>,)> =
            sqlx::query_as("SELECT unsubscribe_token FROM users WHERE id = $1").bind(user_id).fetch_optional(self.db().pool()).await?;
        if let Some((Some(token),)) = existing {
            return Ok(token);
        }
        let token = tokens::new_token();
        sqlx::query("UPDATE users SET unsubscribe_token = $1 WHERE id = $2 AND unsubscribe_token IS NULL")
            .bind(&token)
            .bind(user_id)
            .execute(self.db().pool())
            .await?;
        let (token,): (Option<String>,) = sqlx::query_as("SELECT unsubscribe_token FROM users WHERE id = $1").bind(user_id).fetch_one(self.db().pool()).await?;
        token.ok_or_else(|| AppError::Internal("unsubscribe token missing".into()))
    }

    /// Why mails are off and which alerts the member dismissed (one query).
    pub async fn alert_state(&self, user_id: i64) -> Result<AlertState, AppError> {
        let rows = sqlx::query_as::<_, AlertRow>(
            "SELECT 'disabled' AS kind, reason AS name FROM notifications_disabled WHERE user_id = $1 \
             UNION ALL SELECT 'dismissed' AS kind, alert AS name FROM alert_dismissals WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_all(self.db().pool())
        .await?;
        let mut state = AlertState::default();
        for row in rows {
            if row.kind == "disabled" {
                state.notifications_disabled.push(row.name);
            } else {
                state.dismissed.push(row.name);
            }
        }
        state.notifications_disabled.sort();
        Ok(state)
    }

    /// Stores an alert's dismissal with its moment; unknown alerts are refused.
    pub async fn dismiss_alert(&self, user_id: i64, alert: &str) -> Result<(), AppError> {
        if !DISMISSIBLE_ALERTS.contains(&alert) {
            return Err(domain::ErrorCode::BadRequest.into());
        }
        sqlx::query("INSERT INTO alert_dismissals (user_id, alert, dismissed_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, alert) DO UPDATE SET dismissed_at = excluded.dismissed_at")
            .bind(user_id)
            .bind(alert)
            .bind(self.clock().now())
            .execute(self.db().pool())
            .await?;
        Ok(())
    }
}
