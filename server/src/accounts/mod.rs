//! Accounts: signup and activation, login with its lockout, sessions, password recovery, email
//! change, deletion and purge, notification mails. Every rule that matters is checked here, on
//! the server; the browser's checks are a courtesy.
//!
//! One service, [`Accounts`], with its methods grouped by concern in the files of this folder.

mod address_attempts;
mod deletion;
mod email_change;
pub mod invitations;
mod lifecycle;
mod login;
mod mails;
mod member;
pub mod notifications;
pub mod passwords;
mod receipts;
mod recovery;
mod resell;
mod security;
mod sessions;
pub(crate) use sessions::{block_in, end_all};
mod sign_in_links;
mod signup;
pub mod tokens;
mod two_step;

use std::sync::Arc;

use domain::staff::{StaffRole, StaffRoles};
use domain::Locale;

use crate::clock::Clock;
use crate::db::Db;
use crate::error::AppError;
use crate::links::Links;
use crate::locales::Catalog;
use crate::mail::Outbox;

pub use email_change::{MAIL_CHANGES_PER_DAY, MAIL_CHANGE_TTL_SECS, MAIL_UNDO_TTL_SECS};
pub use invitations::Invitation;
pub use lifecycle::LifecycleNotice;
pub use login::LOCKOUT;
pub use login::{LoginOutcome, SECOND_STEP_TTL_SECS};
pub use member::Member;
pub use notifications::{AlertState, DisabledReason, NotificationKind, NotificationPrefs};
pub use receipts::Receipt;
pub use recovery::{RESETS_PER_DAY, RESET_TTL_SECS};
pub use resell::SisterSite;
pub use security::{Client, SecurityEvent, EVENTS_SHOWN};
pub use sessions::{ResolvedSession, SessionInfo, SESSION_TOUCH_SECS, SESSION_TTL_SECS};
pub use sign_in_links::{is_site_path, SignInLinkOutcome};
pub use signup::{SignupRequest, ACTIVATION_TTL_SECS};
pub use two_step::TwoStepSetup;

#[derive(Clone, Debug)]
pub struct Accounts {
    db: Db,
    clock: Clock,
    outbox: Outbox,
    catalog: Arc<Catalog>,
    links: Links,
    /// Where photo files live, so that purging an account removes them too.
    media: Option<crate::media::Media>,
    /// Sessions kept in memory (see [`crate::member_cache`]).
    member_cache: crate::member_cache::MemberCache,
}

impl Accounts {
    pub fn new(db: Db, clock: Clock, outbox: Outbox, catalog: Arc<Catalog>, links: Links) -> Accounts {
        Accounts { db, clock, outbox, catalog, links, media: None, member_cache: Default::default() }
    }

    /// Purging an account also deletes its photo files from this store.
    pub fn with_media(mut self, media: crate::media::Media) -> Accounts {
        self.media = Some(media);
        self
    }

    /// Sessions are kept in this cache between requests.
    pub fn with_member_cache(mut self, cache: crate::member_cache::MemberCache) -> Accounts {
        self.member_cache = cache;
        self
    }

    pub fn member_cache(&self) -> &crate::member_cache::MemberCache {
        &self.member_cache
    }

    pub fn links(&self) -> &Links {
        &self.links
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// Grants (`on`) or takes back a staff role for an address on every site; an account with a
    /// role leaves the search, one without any comes back. Returns how many accounts there are
    /// with the address; run from the command line (`vonk staff grant …`), where no staff member
    /// is there to ask (on a site, admins do it on `/staff/members`).
    pub async fn set_staff_role(&self, email: &str, role: StaffRole, on: bool) -> Result<u64, AppError> {
        let mut tx = self.db.begin().await?;
        // One statement: a role granted elsewhere meanwhile is kept.
        let (sql, operand) = if on {
            ("UPDATE users SET staff_roles = staff_roles | $1 WHERE email = $2 AND status <> $3 RETURNING id", role.bit())
        } else {
            ("UPDATE users SET staff_roles = staff_roles & $1 WHERE email = $2 AND status <> $3 RETURNING id", StaffRoles::ALL.without(role).bits())
        };
        let ids: Vec<(i64,)> =
            sqlx::query_as(sql).bind(operand).bind(email.trim().to_lowercase()).bind(domain::account::UserStatus::Deleted.as_str()).fetch_all(&mut *tx).await?;
        for (id,) in &ids {
            crate::members::search::refresh_searchable(&mut *tx, *id).await?;
        }
        tx.commit().await?;
        crate::members::search_cache::invalidate();
        Ok(ids.len() as u64)
    }

    /// Remembers the member's language (for mails and the next login on another device).
    pub async fn set_language(&self, user_id: i64, locale: Locale) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET language = $1 WHERE id = $2").bind(locale.code()).bind(user_id).execute(self.db.pool()).await?;
        Ok(())
    }

    /// Invisible members do not appear to others (search, likes, visitors).
    pub async fn set_invisible(&self, user_id: i64, invisible: bool) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET invisible = $1 WHERE id = $2").bind(invisible).bind(user_id).execute(self.db.pool()).await?;
        crate::members::search::refresh_searchable(self.db.pool(), user_id).await?;
        Ok(())
    }

    pub async fn is_invisible(&self, user_id: i64) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT invisible FROM users WHERE id = $1").bind(user_id).fetch_one(self.db.pool()).await?;
        Ok(crate::db::flag(&row, "invisible")?)
    }
}

/// A new account's id from its `INSERT … RETURNING id`, or `email_taken` where the address is
/// on the site already: two signups with one address at the same moment, and the unique index
/// decides.
fn new_account(inserted: Result<(i64,), sqlx::Error>) -> Result<i64, AppError> {
    match inserted {
        Ok((id,)) => Ok(id),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(domain::ErrorCode::EmailTaken.into()),
        Err(e) => Err(e.into()),
    }
}
