//! The logged-in member as pages need them, read in one query with the counters of the top bar.

use domain::account::{ProfileStatus, UserStatus};
use domain::rows::Flag;
use domain::staff::{StaffArea, StaffRoles};

use super::Accounts;
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
    /// Staff roles (none for a member; staff and operators are not members others see).
    pub roles: StaffRoles,
    /// Two-step login is on: staff use their roles only then.
    pub two_step: bool,
    /// The chosen main photo (SPEC §3 main_image), whatever its review status.
    pub main_photo_id: Option<i64>,
    /// The top bar's counters (see [`crate::counters`]).
    pub counters: domain::counters::Counters,
    /// The profile's country (two letters), once chosen: the member's country everywhere.
    pub country: Option<String>,
    /// The country this session signed in from (none when the member was read without a session).
    pub session_country: Option<String>,
    /// The member passed an age check (`crate::age`).
    pub age_verified: bool,
    /// The genders the member looks for, once gender and sexuality are filled in (the search's
    /// default gender when the address names none).
    pub seeks: Option<&'static [domain::profile::Gender]>,
}

impl Member {
    pub fn is_confirmed(&self) -> bool {
        self.status != UserStatus::NotConfirmed
    }

    /// Holds any staff role (an operator too).
    pub fn is_staff(&self) -> bool {
        !self.roles.is_empty()
    }

    /// Holds a role that opens `area` of the staff side, with two-step login on (required for
    /// every staff role; a site cannot switch that off).
    pub fn may(&self, area: StaffArea) -> bool {
        self.two_step && self.roles.may(area)
    }
}

pub(super) fn member_select() -> &'static str {
    static SELECT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SELECT.get_or_init(|| {
        format!(
            "SELECT u.id, u.site_id, u.email, u.status, u.language, u.credits, u.paid_user, u.invisible, u.signup_date, u.staff_roles, (u.totp_secret IS NOT NULL) AS two_step, (u.age_verified_at IS NOT NULL) AS age_verified, p.name, \
             p.status AS profile_status, p.main_photo_id, p.gender, p.sexuality, p.region, p.country, \
             (SELECT COUNT(*) FROM notifications_disabled d WHERE d.user_id = u.id) + (SELECT COUNT(*) FROM alert_dismissals a WHERE a.user_id = u.id) AS alert_rows, \
             {counters} FROM users u JOIN profiles p ON p.user_id = u.id",
            counters = crate::counters::COLUMNS
        )
    })
}

/// A row of [`member_select`].
#[derive(sqlx::FromRow)]
pub(super) struct MemberRow {
    id: i64,
    site_id: i64,
    email: String,
    name: String,
    #[sqlx(try_from = "String")]
    status: UserStatus,
    language: String,
    credits: i64,
    #[sqlx(try_from = "Flag")]
    paid_user: bool,
    #[sqlx(try_from = "Flag")]
    invisible: bool,
    signup_date: i64,
    staff_roles: i64,
    #[sqlx(try_from = "Flag")]
    two_step: bool,
    #[sqlx(try_from = "Flag")]
    age_verified: bool,
    /// Only when read with its session.
    #[sqlx(default)]
    session_country: Option<String>,
    #[sqlx(try_from = "String")]
    profile_status: ProfileStatus,
    main_photo_id: Option<i64>,
    gender: Option<String>,
    sexuality: Option<String>,
    region: Option<String>,
    country: Option<String>,
    alert_rows: i64,
    #[sqlx(flatten)]
    counters: domain::counters::Counters,
}

impl From<MemberRow> for Member {
    fn from(row: MemberRow) -> Member {
        Member {
            id: row.id,
            site_id: row.site_id,
            email: row.email,
            name: row.name,
            status: row.status,
            language: row.language,
            credits: row.credits,
            paid_user: row.paid_user,
            invisible: row.invisible,
            signup_date: row.signup_date,
            profile_status: row.profile_status,
            basics_complete: row.gender.is_some() && row.sexuality.is_some() && row.region.is_some(),
            seeks: domain::profile::seeks(row.gender.as_deref(), row.sexuality.as_deref()),
            alerts: Default::default(),
            roles: StaffRoles::from_bits(row.staff_roles),
            two_step: row.two_step,
            main_photo_id: row.main_photo_id,
            counters: row.counters,
            country: row.country.filter(|c| c.len() == 2),
            session_country: row.session_country.filter(|c| c.len() == 2),
            age_verified: row.age_verified,
        }
    }
}

impl Accounts {
    pub async fn member(&self, user_id: i64) -> Result<Option<Member>, AppError> {
        let row = sqlx::query_as(&format!("{} WHERE u.id = $1", member_select())).bind(user_id).fetch_optional(self.db().pool()).await?;
        self.complete_member(row).await
    }

    /// The member of the row, with the alert state read only when the row says there is one.
    pub(super) async fn complete_member(&self, row: Option<MemberRow>) -> Result<Option<Member>, AppError> {
        let Some(row) = row else { return Ok(None) };
        let alert_rows = row.alert_rows;
        let mut member = Member::from(row);
        if alert_rows > 0 {
            member.alerts = self.alert_state(member.id).await?;
        }
        Ok(Some(member))
    }
}
