//! The logged-in member as pages need them, read in one query with the counters of the top bar.

use domain::account::{ProfileStatus, Role, UserStatus};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::Accounts;
use crate::db::flag;
use crate::error::AppError;

/// A logged-in member as pages need them.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub id: i64,
    pub site_id: i64,
    pub email: String,
    pub name: String,
    pub status: UserStatus,
    pub language: String,
    pub credits: i64,
    pub paid_user: bool,
    pub invisible: bool,
    pub signup_date: i64,
    /// `disabled` until the address is confirmed, then `active` (SPEC §3 Profile status).
    pub profile_status: ProfileStatus,
    /// Gender, sexuality and region are filled in (`/complete-signup` done).
    pub basics_complete: bool,
    /// Why notification mails are off, and which alerts were dismissed.
    pub alerts: super::AlertState,
    pub role: Role,
    /// Answers as fictional profiles in the operator console.
    pub operator: bool,
    /// The chosen main photo (SPEC §3 main_image), whatever its review status.
    pub main_photo_id: Option<i64>,
    /// The top bar's counters (see [`crate::counters`]).
    pub counters: domain::counters::Counters,
    /// The profile's country (two letters), once chosen: the member's country everywhere.
    pub country: Option<String>,
    /// The genders the member looks for, once gender and sexuality are filled in (the search's
    /// default gender when the address names none).
    pub seeks: Option<&'static [domain::profile::Gender]>,
}

impl Member {
    pub fn is_confirmed(&self) -> bool {
        self.status != UserStatus::NotConfirmed
    }

    /// Staff review photos (and later complaints).
    pub fn is_staff(&self) -> bool {
        self.role == Role::Staff
    }
}

pub(super) fn member_select() -> &'static str {
    static SELECT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SELECT.get_or_init(|| {
        format!(
            "SELECT u.id, u.site_id, u.email, u.status, u.language, u.credits, u.paid_user, u.invisible, u.signup_date, u.role, u.operator, p.name, \
             p.status AS profile_status, p.main_photo_id, p.gender, p.sexuality, p.region, p.country, \
             (SELECT COUNT(*) FROM notifications_disabled d WHERE d.user_id = u.id) + (SELECT COUNT(*) FROM alert_dismissals a WHERE a.user_id = u.id) AS alert_rows, \
             {counters} FROM users u JOIN profiles p ON p.user_id = u.id",
            counters = crate::counters::COLUMNS
        )
    })
}

fn member_from_row(row: &AnyRow) -> Result<Member, AppError> {
    let status: String = row.try_get("status")?;
    let profile_status: String = row.try_get("profile_status")?;
    let role: String = row.try_get("role")?;
    let gender: Option<String> = row.try_get("gender")?;
    let sexuality: Option<String> = row.try_get("sexuality")?;
    Ok(Member {
        id: row.try_get("id")?,
        site_id: row.try_get("site_id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        status: UserStatus::parse(&status).ok_or_else(|| AppError::Internal(format!("unknown user status {status}")))?,
        language: row.try_get("language")?,
        credits: row.try_get("credits")?,
        paid_user: flag(row, "paid_user")?,
        invisible: flag(row, "invisible")?,
        signup_date: row.try_get("signup_date")?,
        profile_status: ProfileStatus::parse(&profile_status).ok_or_else(|| AppError::Internal(format!("unknown profile status {profile_status}")))?,
        basics_complete: gender.is_some() && sexuality.is_some() && row.try_get::<Option<String>, _>("region")?.is_some(),
        seeks: domain::profile::seeks(gender.as_deref(), sexuality.as_deref()),
        alerts: Default::default(),
        role: Role::parse(&role).unwrap_or(Role::Member),
        operator: flag(row, "operator")?,
        main_photo_id: row.try_get("main_photo_id")?,
        counters: crate::counters::from_row(row)?,
        country: row.try_get::<Option<String>, _>("country")?.filter(|c| c.len() == 2),
    })
}

impl Accounts {
    pub async fn member(&self, user_id: i64) -> Result<Option<Member>, AppError> {
        let row = sqlx::query(&format!("{} WHERE u.id = $1", member_select())).bind(user_id).fetch_optional(self.db().pool()).await?;
        self.complete_member(row).await
    }

    /// Reads the row, and the alert state only when the row says there is one.
    pub(super) async fn complete_member(&self, row: Option<AnyRow>) -> Result<Option<Member>, AppError> {
        let Some(row) = row else { return Ok(None) };
        let mut member = member_from_row(&row)?;
        let alert_rows: i64 = row.try_get("alert_rows")?;
        if alert_rows > 0 {
            member.alerts = self.alert_state(member.id).await?;
        }
        Ok(Some(member))
    }
}
