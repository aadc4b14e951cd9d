//! What staff do outside complaints and photo review: find a member by email or id, block and
//! unblock them with a reason, grant and take back the staff and operator roles. Every change is
//! written to the staff log (`staff_actions`: who, what, on what, why, when) in the same
//! transaction; only staff of the member's own site get anywhere.

use domain::account::Role;
use sqlx::Row;

use crate::accounts::Member;
use crate::db::{flag, Db};
use crate::error::AppError;

/// Longest block reason, in characters.
pub const REASON_MAX_CHARS: usize = domain::account::STAFF_REASON_MAX_CHARS;

/// One line of the staff log.
#[derive(Debug, Clone, PartialEq)]
pub struct StaffAction {
    pub staff_name: String,
    pub action: String,
    pub target: String,
    pub detail: String,
    pub created_at: i64,
}

/// A member as staff see them.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberRecord {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub role: Role,
    pub operator: bool,
    pub signup_date: i64,
    pub credits: i64,
    pub paid_user: bool,
    pub country: Option<String>,
    pub tracking_network: Option<String>,
}

/// A staff change to a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberChange {
    /// Blocked (with the reason): their sessions end and they leave the search.
    Block(String),
    /// Active again (with the reason).
    Unblock(String),
    Role(Role),
    Operator(bool),
}

/// Staff of this site only; anyone else is told the thing does not exist.
pub fn require_staff(staff: &Member, site_id: i64) -> Result<(), AppError> {
    if staff.is_staff() && staff.site_id == site_id {
        Ok(())
    } else {
        Err(AppError::from(domain::ErrorCode::NotFound))
    }
}

/// Writes one line of the staff log inside the transaction of the change it describes.
pub async fn record(tx: &mut sqlx::Transaction<'_, sqlx::Any>, site_id: i64, staff: &Member, action: &str, target: &str, detail: &str, now: i64) -> Result<(), AppError> {
    sqlx::query("INSERT INTO staff_actions (site_id, staff_id, staff_name, action, target, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(site_id)
        .bind(staff.id)
        .bind(format!("{} (#{})", staff.name, staff.id))
        .bind(action)
        .bind(target)
        .bind(detail)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Staff {
    db: Db,
}

impl Staff {
    pub fn new(db: Db) -> Staff {
        Staff { db }
    }

    /// The staff log of a site, newest first.
    pub async fn log(&self, staff: &Member, site_id: i64, limit: i64) -> Result<Vec<StaffAction>, AppError> {
        require_staff(staff, site_id)?;
        let rows: Vec<(String, String, String, String, i64)> =
            sqlx::query_as("SELECT staff_name, action, target, detail, created_at FROM staff_actions WHERE site_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2")
                .bind(site_id)
                .bind(limit)
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows.into_iter().map(|(staff_name, action, target, detail, created_at)| StaffAction { staff_name, action, target, detail, created_at }).collect())
    }

    /// A member of the site by id (`123` or `#123`) or email address; deleted accounts are not found.
    pub async fn find(&self, staff: &Member, site_id: i64, query: &str) -> Result<Option<MemberRecord>, AppError> {
        require_staff(staff, site_id)?;
        let q = query.trim();
        let by_id = q.trim_start_matches('#').parse::<i64>().ok();
        let sql = "SELECT u.id, u.email, u.status, u.role, u.operator, u.signup_date, u.credits, u.paid_user, u.tracking_network, p.name, p.country \
                   FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.status <> 'deleted' AND ";
        let row = match by_id {
            Some(id) => sqlx::query(&format!("{sql}u.id = $2")).bind(site_id).bind(id).fetch_optional(self.db.pool()).await?,
            None => sqlx::query(&format!("{sql}u.email = $2")).bind(site_id).bind(q.to_lowercase()).fetch_optional(self.db.pool()).await?,
        };
        let Some(r) = row else { return Ok(None) };
        Ok(Some(MemberRecord {
            id: r.try_get("id")?,
            email: r.try_get("email")?,
            name: r.try_get("name")?,
            status: r.try_get("status")?,
            role: Role::parse(&r.try_get::<String, _>("role")?).unwrap_or(Role::Member),
            operator: flag(&r, "operator")?,
            signup_date: r.try_get("signup_date")?,
            credits: r.try_get("credits")?,
            paid_user: flag(&r, "paid_user")?,
            country: r.try_get("country")?,
            tracking_network: r.try_get("tracking_network")?,
        }))
    }

    /// Applies a change to a member of the site and logs it. Staff cannot block themselves or
    /// take their own staff role (someone else has to).
    pub async fn change_member(&self, staff: &Member, site_id: i64, user_id: i64, change: MemberChange, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id)?;
        let reason_of = |r: &str| -> Result<String, AppError> {
            let r = r.trim();
            if r.is_empty() || r.chars().count() > REASON_MAX_CHARS {
                return Err(domain::ApiError::field(domain::account::Field::Form, domain::ErrorCode::ReasonRequired).with("max", REASON_MAX_CHARS).into());
            }
            Ok(r.to_string())
        };
        if user_id == staff.id && matches!(change, MemberChange::Block(_) | MemberChange::Role(Role::Member)) {
            return Err(AppError::from(domain::ErrorCode::Forbidden));
        }
        let mut tx = self.db.pool().begin().await?;
        let found: Option<(String,)> = sqlx::query_as("SELECT status FROM users WHERE id = $1 AND site_id = $2 AND status <> 'deleted'").bind(user_id).bind(site_id).fetch_optional(&mut *tx).await?;
        let Some((status,)) = found else { return Err(AppError::from(domain::ErrorCode::NotFound)) };
        let target = format!("member #{user_id}");
        let (action, detail) = match &change {
            MemberChange::Block(reason) => {
                let reason = reason_of(reason)?;
                if status == "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = 'blocked' WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
                ("member_block", reason)
            }
            MemberChange::Unblock(reason) => {
                let reason = reason_of(reason)?;
                if status != "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
                ("member_unblock", reason)
            }
            MemberChange::Role(role) => {
                let changed = sqlx::query("UPDATE users SET role = $1 WHERE id = $2 AND role <> $1").bind(role.as_str()).bind(user_id).execute(&mut *tx).await?;
                if changed.rows_affected() == 0 {
                    return Ok(());
                }
                ("member_role", role.as_str().to_string())
            }
            MemberChange::Operator(on) => {
                let changed = sqlx::query("UPDATE users SET operator = $1 WHERE id = $2 AND operator <> $1").bind(*on).bind(user_id).execute(&mut *tx).await?;
                if changed.rows_affected() == 0 {
                    return Ok(());
                }
                ("member_operator", if *on { "on" } else { "off" }.to_string())
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
