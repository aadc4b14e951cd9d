//! Staff and members: find a member by id or address, block and unblock them with a reason,
//! grant and take back staff roles (admins only).

use domain::rows::Flag;

use crate::accounts::Member;
use crate::error::AppError;

use super::{record, require_staff, Staff, StaffArea, StaffRole, StaffRoles, REASON_MAX_CHARS};

/// A member as staff see them.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberRecord {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub roles: StaffRoles,
    pub signup_date: i64,
    pub credits: i64,
    pub paid_user: bool,
    pub country: Option<String>,
    pub tracking_network: Option<String>,
}

/// A member's row as staff find it.
#[derive(sqlx::FromRow)]
struct RecordRow {
    id: i64,
    email: String,
    status: String,
    staff_roles: i64,
    signup_date: i64,
    credits: i64,
    #[sqlx(try_from = "Flag")]
    paid_user: bool,
    tracking_network: Option<String>,
    name: String,
    country: Option<String>,
}

/// A staff change to a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberChange {
    /// Blocked (with the reason): their sessions end and they leave the search.
    Block(String),
    /// Active again (with the reason).
    Unblock(String),
    /// A staff role granted (`true`) or taken back; staff and operators leave the search.
    Role(StaffRole, bool),
}

impl Staff {
    /// A member of the site by id (`123` or `#123`) or email address; deleted accounts are not
    /// found. Each member found is a view, written to the staff log.
    pub async fn find(&self, staff: &Member, site_id: i64, query: &str, now: i64) -> Result<Option<MemberRecord>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let q = query.trim();
        let by_id = q.trim_start_matches('#').parse::<i64>().ok();
        let deleted = domain::account::UserStatus::Deleted.as_str();
        let sql = "SELECT u.id, u.email, u.status, u.staff_roles, u.signup_date, u.credits, u.paid_user, u.tracking_network, p.name, p.country \
                   FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.status <> $3 AND ";
        let row = match by_id {
            Some(id) => sqlx::query_as::<_, RecordRow>(&format!("{sql}u.id = $2")).bind(site_id).bind(id).bind(deleted).fetch_optional(self.db.pool()).await?,
            None => {
                sqlx::query_as::<_, RecordRow>(&format!("{sql}u.email = $2"))
                    .bind(site_id)
                    .bind(q.to_lowercase())
                    .bind(deleted)
                    .fetch_optional(self.db.pool())
                    .await?
            }
        };
        if let Some(r) = &row {
            // What staff looked at is in the staff log too.
            self.note(staff, site_id, "member_view", &format!("member #{}", r.id), "", now).await?;
        }
        Ok(row.map(|r| MemberRecord {
            id: r.id,
            email: r.email,
            name: r.name,
            status: r.status,
            roles: StaffRoles::from_bits(r.staff_roles),
            signup_date: r.signup_date,
            credits: r.credits,
            paid_user: r.paid_user,
            country: r.country,
            tracking_network: r.tracking_network,
        }))
    }

    /// Applies a change to a member of the site and logs it. Support, moderators and admins
    /// block and unblock; admins grant roles. Staff cannot block themselves or take their own admin role
    /// (someone else has to).
    pub async fn change_member(&self, staff: &Member, site_id: i64, user_id: i64, change: MemberChange, now: i64) -> Result<(), AppError> {
        // Moderators block and unblock too (a spammer from the held messages).
        let area = match change {
            MemberChange::Role(..) => StaffArea::Roles,
            _ if staff.may(StaffArea::Held) => StaffArea::Held,
            _ => StaffArea::Members,
        };
        require_staff(staff, site_id, area)?;
        let reason_of = |r: &str| -> Result<String, AppError> {
            let r = r.trim();
            if r.is_empty() || r.chars().count() > REASON_MAX_CHARS {
                return Err(domain::ApiError::field(domain::Field::Form, domain::ErrorCode::ReasonRequired).with("max", REASON_MAX_CHARS).into());
            }
            Ok(r.to_string())
        };
        if user_id == staff.id && matches!(change, MemberChange::Block(_) | MemberChange::Role(StaffRole::Admin, false)) {
            return Err(AppError::from(domain::ErrorCode::Forbidden));
        }
        let mut tx = self.db.begin().await?;
        let status = status_on_site(&mut tx, user_id, site_id).await?;
        let target = format!("member #{user_id}");
        let (action, detail) = match &change {
            MemberChange::Block(reason) => {
                let reason = reason_of(reason)?;
                if status == "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = $2 WHERE id = $1")
                    .bind(user_id)
                    .bind(domain::account::UserStatus::Blocked.as_str())
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
                ("member_block", reason)
            }
            MemberChange::Unblock(reason) => {
                let reason = reason_of(reason)?;
                if status != "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = $2 WHERE id = $1")
                    .bind(user_id)
                    .bind(domain::account::UserStatus::Active.as_str())
                    .execute(&mut *tx)
                    .await?;
                ("member_unblock", reason)
            }
            MemberChange::Role(role, on) => {
                // One statement each way, so two admins changing two roles at once both count.
                let changed = if *on {
                    sqlx::query("UPDATE users SET staff_roles = staff_roles | $1 WHERE id = $2 AND (staff_roles & $1) = 0").bind(role.bit()).bind(user_id)
                } else {
                    sqlx::query("UPDATE users SET staff_roles = staff_roles & $1 WHERE id = $2 AND (staff_roles & $3) <> 0")
                        .bind(StaffRoles::ALL.without(*role).bits())
                        .bind(user_id)
                        .bind(role.bit())
                }
                .execute(&mut *tx)
                .await?;
                if changed.rows_affected() == 0 {
                    return Ok(());
                }
                (if *on { "role_granted" } else { "role_taken" }, role.as_str().to_string())
            }
        };
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        record(&mut tx, site_id, staff, action, &target, &detail, now).await?;
        tx.commit().await?;
        crate::members::search_cache::invalidate();
        tracing::info!(target: "security", staff = staff.id, user_id, action, "staff changed a member");
        Ok(())
    }
}

impl Staff {
    /// Corrects a member's credits through the ledger (`adjustment`), with the reason in the
    /// staff log: support and admins. `key` is the form's own one-time key: the same
    /// form sent twice (a double click, a retried request) books once. A correction that would
    /// take the balance below zero is refused (`insufficient_credits`) and changes nothing.
    /// Returns the member's balance after it.
    #[allow(clippy::too_many_arguments)]
    pub async fn correct_credits(&self, staff: &Member, site_id: i64, user_id: i64, amount: &str, reason: &str, key: &str, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id, StaffArea::Credits)?;
        let (delta, reason) = domain::staff::validate_credit_correction(amount, reason)?;
        if !(16..=64).contains(&key.len()) || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(domain::ErrorCode::BadRequest.into());
        }
        let mut tx = self.db.begin().await?;
        status_on_site(&mut tx, user_id, site_id).await?;
        let reference = format!("staff:{}:{key}", staff.id);
        let entry = crate::credits::Entry { user_id, delta, reason: crate::credits::Reason::Adjustment, reference: &reference };
        let booking = crate::credits::book(&mut tx, entry, now).await?;
        if let crate::credits::Booking::Booked { .. } = booking {
            record(&mut tx, site_id, staff, "credits_corrected", &format!("member #{user_id}"), &format!("{delta:+} · {reason}"), now).await?;
        }
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, user_id, delta, "staff corrected a member's credits");
        Ok(booking.balance())
    }
}

/// A member's status, when they are a member of the site and not deleted; `not_found` otherwise.
async fn status_on_site(tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: i64, site_id: i64) -> Result<String, AppError> {
    let found: Option<(String,)> = sqlx::query_as("SELECT status FROM users WHERE id = $1 AND site_id = $2 AND status <> $3")
        .bind(user_id)
        .bind(site_id)
        .bind(domain::account::UserStatus::Deleted.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    found.map(|(status,)| status).ok_or_else(|| AppError::from(domain::ErrorCode::NotFound))
}
