//! `member_resell`: a member joins the company's other sites with one tap (`domain::resell`).
//!
//! The other site gets an account made from the member's own details: the address (already
//! confirmed here), the password's hash (the same password signs in there), the language, and
//! the profile's name, birth date, gender, orientation and place. Photos, messages, likes and
//! credits stay where they are; the accounts are separate from then on. The signup counts on
//! the other site under the network `resell` with this site's domain as its ref.

use domain::account::{UserStatus, Ymd};
use domain::resell::{offered, Joiner, SiteTerms};
use domain::site::SiteSettings;
use domain::ErrorCode;

use super::{Accounts, Member};
use crate::credits::{self, Entry, Reason};
use crate::error::AppError;

/// One of the company's other sites, as `/settings` offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SisterSite {
    pub site_id: i64,
    pub name: String,
    pub domain: String,
    pub description: String,
    /// The member's address has an account there already.
    pub joined: bool,
}

/// The member's details that go along.
#[derive(sqlx::FromRow)]
struct Details {
    email: String,
    password_hash: String,
    language: String,
    status: String,
    name: String,
    date_of_birth: String,
    gender: Option<String>,
    sexuality: Option<String>,
    country: Option<String>,
    region: Option<String>,
    city: Option<String>,
}

impl Details {
    fn joiner(&self, member: &Member, today: Ymd) -> Joiner<'_> {
        Joiner {
            age: Ymd::parse(&self.date_of_birth).map_or(-1, |d| d.age_on(today)),
            country: self.country.as_deref(),
            confirmed_member: UserStatus::parse(&self.status) == Some(UserStatus::Active) && !member.is_staff(),
        }
    }
}

impl Accounts {
    async fn details(&self, member: &Member) -> Result<Details, AppError> {
        sqlx::query_as(
            "SELECT u.email, u.password_hash, u.language, u.status, p.name, p.date_of_birth, p.gender, p.sexuality, p.country, p.region, p.city \
             FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1",
        )
        .bind(member.id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| ErrorCode::NotFound.into())
    }

    /// The company's other sites `member` of `from` is offered, each with whether the member's
    /// address is there already. Empty where `from` does not offer them.
    pub async fn sister_sites(&self, from: &SiteSettings, sites: &[&SiteSettings], member: &Member) -> Result<Vec<SisterSite>, AppError> {
        if !from.member_resell {
            return Ok(Vec::new());
        }
        let details = self.details(member).await?;
        let today = Ymd::from_unix(self.clock.now());
        let joiner = details.joiner(member, today);
        let offered: Vec<&SiteSettings> = sites.iter().copied().filter(|to| offered(&SiteTerms::from(from), &SiteTerms::from(*to), joiner)).collect();
        if offered.is_empty() {
            return Ok(Vec::new());
        }
        // Where the address has an account already, in one query (the ids are the sites', as
        // numbers in the text).
        let ids: Vec<String> = offered.iter().map(|s| s.id.to_string()).collect();
        let there: Vec<(i64,)> = sqlx::query_as(&format!("SELECT site_id FROM users WHERE email = $1 AND site_id IN ({})", ids.join(", ")))
            .bind(&details.email)
            .fetch_all(self.db.pool())
            .await?;
        let offers = offered
            .into_iter()
            .map(|to| SisterSite {
                site_id: to.id,
                name: to.name.clone(),
                domain: to.domain.clone(),
                description: to.description.clone(),
                joined: there.iter().any(|(id,)| *id == to.id),
            })
            .collect();
        Ok(offers)
    }

    /// Makes `member` of `from` a member of `to` with their own details (module docs), confirmed
    /// and counted under the network `resell`. Answers the new account's id on `to`. Refused
    /// with `not_found` where `to` is not offered to this member, `email_taken` where the address
    /// is there already (two taps at once: the unique index decides).
    pub async fn join_sister_site(&self, from: &SiteSettings, to: &SiteSettings, member: &Member) -> Result<i64, AppError> {
        let details = self.details(member).await?;
        let now = self.clock.now();
        if !offered(&SiteTerms::from(from), &SiteTerms::from(to), details.joiner(member, Ymd::from_unix(now))) {
            return Err(ErrorCode::NotFound.into());
        }
        let tracking = domain::resell::tracking(&from.domain);
        let mut tx = self.db.begin().await?;
        let inserted: Result<(i64,), sqlx::Error> = sqlx::query_as(
            "INSERT INTO users (site_id, email, password_hash, language, signup_date, tracking_network, tracking_ref, status) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(to.id)
        .bind(&details.email)
        .bind(&details.password_hash)
        .bind(&details.language)
        .bind(now)
        .bind(tracking.network.clone())
        .bind(tracking.r#ref.clone())
        .bind(UserStatus::Active.as_str())
        .fetch_one(&mut *tx)
        .await;
        let user_id = super::new_account(inserted)?;
        sqlx::query(
            "INSERT INTO profiles (user_id, site_id, name, date_of_birth, gender, sexuality, country, region, city, status, last_active) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(user_id)
        .bind(to.id)
        .bind(&details.name)
        .bind(&details.date_of_birth)
        .bind(&details.gender)
        .bind(&details.sexuality)
        .bind(&details.country)
        .bind(&details.region)
        .bind(&details.city)
        .bind(domain::account::ProfileStatus::Active.as_str())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let source = domain::figures::Source::new(&tracking, None, details.country.clone(), None);
        crate::figures::signup(&mut tx, to.id, user_id, &source, now).await?;
        crate::figures::confirmed(&mut tx, user_id, now).await?;
        crate::postbacks::queue(&mut tx, to.id, user_id, domain::postbacks::PostbackEvent::Signup, None, now).await?;
        crate::postbacks::queue(&mut tx, to.id, user_id, domain::postbacks::PostbackEvent::Confirmed, None, now).await?;
        if to.signup_credits > 0 {
            let reference = format!("signup:{user_id}");
            credits::book(&mut tx, Entry { user_id, delta: to.signup_credits, reason: Reason::Signup, reference: &reference }, now).await?;
        }
        crate::notifications::record(&mut tx, user_id, domain::notifications::NotificationKind::Welcome, None, now).await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        tx.commit().await?;
        Ok(user_id)
    }
}
