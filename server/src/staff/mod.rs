//! What staff do outside complaints and photo review, by job: [`members`] (find a member, block
//! and unblock with a reason, the staff and operator roles), [`site_settings`] (the site's
//! settings and its company), [`pricing`] (bundles and discount codes) and [`site_setup`] (the
//! logo, a new site). Every change is written to the staff log (`staff_actions`: who, what, on
//! what, why, when) in the same transaction; only staff of the member's own site get anywhere.

mod member_file;
mod members;
mod pricing;
mod site_settings;
mod site_setup;

pub use member_file::{ComplaintLine, ConversationLine, ReadMessage};
pub use members::{Found, MemberChange, MemberRecord, StaffNote};
pub use site_settings::SiteChange;

pub use domain::staff::{DiscountRecord, PackRecord, StaffArea, StaffRole, StaffRoles, LOGO_MAX_BYTES};

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;

/// One line of the staff log.
#[derive(Debug, Clone, PartialEq)]
pub struct StaffAction {
    pub staff_name: String,
    pub action: String,
    pub target: String,
    pub detail: String,
    pub created_at: i64,
}

/// Staff of this site with a role that opens `area` only; anyone else is told the thing does not
/// exist. Staff with the role but without two-step login are told to switch it on first.
pub fn require_staff(staff: &Member, site_id: i64, area: StaffArea) -> Result<(), AppError> {
    if staff.site_id != site_id || !staff.roles.may(area) {
        Err(AppError::from(domain::ErrorCode::NotFound))
    } else if !staff.two_step {
        Err(AppError::from(domain::ErrorCode::TwoStepRequired))
    } else {
        Ok(())
    }
}

/// Writes one line of the staff log inside the transaction of the change it describes.
pub async fn record(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    site_id: i64,
    staff: &Member,
    action: &str,
    target: &str,
    detail: &str,
    now: i64,
) -> Result<(), AppError> {
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

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    /// Writes what staff looked at or took away (a member's file, a conversation, an export) to
    /// the staff log; the caller has checked the role.
    pub async fn note(&self, staff: &Member, site_id: i64, action: &str, target: &str, detail: &str, now: i64) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        record(&mut tx, site_id, staff, action, target, detail, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The staff log of a site, newest first.
    pub async fn log(&self, staff: &Member, site_id: i64, limit: i64) -> Result<Vec<StaffAction>, AppError> {
        require_staff(staff, site_id, StaffArea::Log)?;
        let rows: Vec<(String, String, String, String, i64)> = sqlx::query_as(
            "SELECT staff_name, action, target, detail, created_at FROM staff_actions WHERE site_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
        )
        .bind(site_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.into_iter().map(|(staff_name, action, target, detail, created_at)| StaffAction { staff_name, action, target, detail, created_at }).collect())
    }
}
