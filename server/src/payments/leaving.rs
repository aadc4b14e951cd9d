//! The company's leaving discount (`companies.delete_discount`, SPEC §3 company info): offered
//! once in the delete-account flow. Taking it keeps the account and gives the member a code of
//! their own (only they can redeem it, once, within [`LEAVING_CODE_DAYS`]); one per member,
//! whatever is clicked twice. The row in `leaving_discounts` is the record of it.

use crate::accounts::Member;
use crate::error::AppError;
use crate::sites::Site;

use super::Payments;

/// A member's leaving discount, if they took it.
const TAKEN: &str = "SELECT code, percentage, expires_at FROM leaving_discounts WHERE user_id = $1";

/// How long a leaving discount's code can be redeemed.
pub const LEAVING_CODE_DAYS: i64 = 30;

/// A member's leaving discount: the code, its percentage and when it expires.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct LeavingDiscount {
    pub code: String,
    pub percentage: i64,
    pub expires_at: i64,
}

/// What the delete-account flow offers a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeavingOffer {
    /// The company gives none.
    None,
    /// Offered: this percentage if they stay.
    Offer(i64),
    /// Taken before (offered once only): their code.
    Taken(LeavingDiscount),
}

impl Payments {
    /// The leaving discount the delete-account flow shows this member.
    pub async fn leaving_offer(&self, site: &Site, member: &Member) -> Result<LeavingOffer, AppError> {
        let taken: Option<LeavingDiscount> = sqlx::query_as(TAKEN).bind(member.id).fetch_optional(self.pool()).await?;
        Ok(match taken {
            Some(t) => LeavingOffer::Taken(t),
            None if site.company.delete_discount > 0 => LeavingOffer::Offer(site.company.delete_discount.min(90)),
            None => LeavingOffer::None,
        })
    }

    /// Takes the leaving discount: the member's own code (the same one on every later call).
    pub async fn take_leaving_discount(&self, site: &Site, member: &Member, now: i64) -> Result<LeavingDiscount, AppError> {
        let percentage = site.company.delete_discount.min(90);
        let mut tx = self.db.begin().await?;
        let existing: Option<LeavingDiscount> = sqlx::query_as(TAKEN).bind(member.id).fetch_optional(&mut *tx).await?;
        if let Some(existing) = existing {
            return Ok(existing);
        }
        if percentage <= 0 {
            return Err(domain::ErrorCode::NotFound.into());
        }
        let code = format!("BLIJF-{}", crate::accounts::tokens::random_hex::<4>().to_ascii_uppercase());
        let expires_at = now + LEAVING_CODE_DAYS * 86_400;
        // Two clicks at once: the second insert finds the member's row and changes nothing.
        let inserted = sqlx::query(
            "INSERT INTO leaving_discounts (user_id, code, percentage, expires_at, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING",
        )
        .bind(member.id)
        .bind(&code)
        .bind(percentage)
        .bind(expires_at)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() == 0 {
            drop(tx);
            let existing: LeavingDiscount = sqlx::query_as(TAKEN).bind(member.id).fetch_one(self.pool()).await?;
            return Ok(existing);
        }
        sqlx::query(
            "INSERT INTO discount_codes (site_id, code, percentage, minimum_order, country, active, expires_at, member_id) VALUES ($1, $2, $3, 0, NULL, TRUE, $4, $5)",
        )
        .bind(site.settings.id)
        .bind(&code)
        .bind(percentage)
        .bind(expires_at)
        .bind(member.id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        tracing::info!(member = member.id, percentage, "leaving discount taken");
        Ok(LeavingDiscount { code, percentage, expires_at })
    }
}
