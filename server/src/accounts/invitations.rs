//! Invitations: one-time signup links, the way in on an invite-only site (SPEC §3 `signups`).
//! Staff make them on any site; members when the site allows it (`member_invites`), at most
//! [`MEMBER_INVITES_PER_DAY`] a day. Only a link's hash is kept; the link itself is shown once,
//! to its maker. Opening it only checks it (a mail scanner's visit uses nothing up); the signup
//! it leads to uses it, in the transaction that creates the member, so two signups with one link
//! give one member.

use domain::account::UserStatus;
use domain::site::SiteSettings;
use domain::ErrorCode;

use super::tokens;
use super::{Accounts, Member};
use crate::error::AppError;

/// How many invitations a member may make in 24 hours.
pub const MEMBER_INVITES_PER_DAY: i64 = 5;
/// The longest note a maker keeps with an invitation (for whom it was).
pub const NOTE_MAX_CHARS: usize = 80;

/// One invitation as its maker (or staff) see it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Invitation {
    pub id: i64,
    pub note: String,
    /// Who made it (`name (#id)`), when it is listed for staff.
    pub invited_by: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    /// Who signed up with it (`name (#id)`).
    pub used_by: Option<String>,
}

impl Invitation {
    /// `open`, `used` or `expired` (withdrawn invitations expire at once).
    pub fn state(&self, now: i64) -> &'static str {
        match self.used_at {
            Some(_) => "used",
            None if self.expires_at <= now => "expired",
            None => "open",
        }
    }
}

impl Accounts {
    /// Staff of the site who see and withdraw every invitation and invite without a daily limit.
    fn invites_as_staff(site_id: i64, member: &Member) -> bool {
        member.may(crate::staff::StaffArea::Invitations) && member.site_id == site_id
    }

    /// Whether `member` may invite on `site`: its admins and support always; an active member
    /// with a confirmed address when the site lets members invite.
    pub fn may_invite(site: &SiteSettings, member: &Member) -> bool {
        Self::invites_as_staff(site.id, member) || (site.member_invites && member.site_id == site.id && member.status == UserStatus::Active)
    }

    /// Makes an invitation and returns its token (shown once, as a link, to its maker). Staff's
    /// invitations are written in the staff log.
    pub async fn invite(&self, site: &SiteSettings, maker: &Member, note: &str) -> Result<String, AppError> {
        if !Self::may_invite(site, maker) {
            return Err(ErrorCode::Forbidden.into());
        }
        let note: String = note.chars().filter(|c| !c.is_control()).collect::<String>().trim().chars().take(NOTE_MAX_CHARS).collect();
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        if !Self::invites_as_staff(site.id, maker) {
            // Counted inside the transaction after a write to the member's row, so parallel
            // requests are counted one after the other.
            sqlx::query("UPDATE users SET email = email WHERE id = $1").bind(maker.id).execute(&mut *tx).await?;
            let (made,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM invitations WHERE invited_by = $1 AND created_at > $2")
                .bind(maker.id)
                .bind(now - 24 * 3600)
                .fetch_one(&mut *tx)
                .await?;
            if made >= MEMBER_INVITES_PER_DAY {
                return Err(ErrorCode::TooManyRequests.into());
            }
        }
        let token = tokens::new_token();
        let expires_at = now + site.invitation_days.clamp(1, 90) * 24 * 3600;
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO invitations (site_id, token_hash, invited_by, note, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(site.id)
        .bind(tokens::hash(&token))
        .bind(maker.id)
        .bind(&note)
        .bind(now)
        .bind(expires_at)
        .fetch_one(&mut *tx)
        .await?;
        if Self::invites_as_staff(site.id, maker) {
            crate::staff::record(&mut tx, site.id, maker, "invitation_created", &format!("invitation #{id}"), &note, now).await?;
        }
        tx.commit().await?;
        tracing::info!(target: "security", maker = maker.id, site_id = site.id, invitation = id, "invitation made");
        Ok(token)
    }

    /// Whether `token` is an open invitation to `site` (unused, not expired).
    pub async fn invitation_is_open(&self, site_id: i64, token: &str) -> Result<bool, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(false);
        }
        let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM invitations WHERE token_hash = $1 AND site_id = $2 AND used_at IS NULL AND expires_at > $3")
            .bind(tokens::hash(token))
            .bind(site_id)
            .bind(self.clock.now())
            .fetch_optional(self.db.pool())
            .await?;
        Ok(found.is_some())
    }

    /// The invitations `viewer` may see: staff all of the site's, a member their own; newest first.
    pub async fn invitations(&self, site_id: i64, viewer: &Member) -> Result<Vec<Invitation>, AppError> {
        let sql = "SELECT i.id, i.note, i.created_at, i.expires_at, i.used_at, \
                   CASE WHEN m.user_id IS NULL THEN NULL ELSE m.name || ' (#' || CAST(m.user_id AS TEXT) || ')' END AS invited_by, \
                   CASE WHEN u.user_id IS NULL THEN NULL ELSE u.name || ' (#' || CAST(u.user_id AS TEXT) || ')' END AS used_by \
                   FROM invitations i LEFT JOIN profiles m ON m.user_id = i.invited_by LEFT JOIN profiles u ON u.user_id = i.used_by \
                   WHERE i.site_id = $1 AND ($2 OR i.invited_by = $3) ORDER BY i.created_at DESC, i.id DESC LIMIT 200";
        let staff = Self::invites_as_staff(site_id, viewer);
        Ok(sqlx::query_as(sql).bind(site_id).bind(staff).bind(viewer.id).fetch_all(self.db.pool()).await?)
    }

    /// Withdraws an open invitation (its maker, or staff of the site): it expires now.
    pub async fn withdraw_invitation(&self, site_id: i64, viewer: &Member, id: i64) -> Result<(), AppError> {
        let staff = Self::invites_as_staff(site_id, viewer);
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let done = sqlx::query(
            "UPDATE invitations SET expires_at = $1 WHERE id = $2 AND site_id = $3 AND used_at IS NULL AND expires_at > $1 AND ($4 OR invited_by = $5)",
        )
        .bind(now)
        .bind(id)
        .bind(site_id)
        .bind(staff)
        .bind(viewer.id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            // Someone else's, used, already expired or unknown: one answer for all.
            return Err(ErrorCode::NotFound.into());
        }
        if staff {
            crate::staff::record(&mut tx, site_id, viewer, "invitation_withdrawn", &format!("invitation #{id}"), "", now).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// Uses an invitation for the member just created, inside the signup's transaction: refused when
/// the link is unknown, expired, withdrawn or already used (then the signup is undone).
pub(super) async fn use_invitation(tx: &mut sqlx::Transaction<'_, sqlx::Any>, site_id: i64, token: &str, user_id: i64, now: i64) -> Result<(), AppError> {
    if !tokens::is_well_formed(token) {
        return Err(ErrorCode::InvitationInvalid.into());
    }
    let done = sqlx::query("UPDATE invitations SET used_at = $1, used_by = $2 WHERE token_hash = $3 AND site_id = $4 AND used_at IS NULL AND expires_at > $1")
        .bind(now)
        .bind(user_id)
        .bind(tokens::hash(token))
        .bind(site_id)
        .execute(&mut **tx)
        .await?;
    if done.rows_affected() == 1 {
        Ok(())
    } else {
        Err(ErrorCode::InvitationInvalid.into())
    }
}
