//! Staff and prices: the site's credit bundles and discount codes.

use domain::staff::{DiscountRecord, PackRecord};

use crate::accounts::Member;
use crate::error::AppError;

use super::{record, require_staff, Staff};

impl Staff {
    /// Every credit bundle of the site, in display order, with how often each was sold.
    pub async fn packs(&self, staff: &Member, site_id: i64) -> Result<Vec<PackRecord>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Pricing)?;
        Ok(sqlx::query_as(
            "SELECT c.id, c.credits, c.price_minor, c.currency, c.highlighted, c.sort_order, c.active, \
             (SELECT COUNT(*) FROM payments p WHERE p.pack_id = c.id AND p.status = $2) AS sold \
             FROM credit_packs c WHERE c.site_id = $1 ORDER BY c.sort_order, c.id",
        )
        .bind(site_id)
        .bind(domain::checkout::PaymentStatus::Paid.code())
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Adds a bundle (`id` none) or changes one of the site's; logged. Bundles are never
    /// deleted (payments refer to them): staff switch them off.
    pub async fn save_pack(&self, staff: &Member, site_id: i64, edit: domain::staff::PackEdit, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Pricing)?;
        let p = edit.validate()?;
        let mut tx = self.db.begin().await?;
        let describe = |p: &domain::staff::PackEdit| {
            format!(
                "{} credits, {} {}{}{}, order {}",
                p.credits,
                domain::site::format_money(p.price_minor, "", false).trim(),
                p.currency,
                if p.highlighted { ", highlighted" } else { "" },
                if p.active { "" } else { ", off" },
                p.sort_order
            )
        };
        let (id, action, detail) = match p.id {
            None => {
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO credit_packs (site_id, credits, price_minor, currency, highlighted, sort_order, active) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                )
                .bind(site_id)
                .bind(p.credits)
                .bind(p.price_minor)
                .bind(&p.currency)
                .bind(p.highlighted)
                .bind(p.sort_order)
                .bind(p.active)
                .fetch_one(&mut *tx)
                .await?;
                (id, "pack_add", describe(&p))
            }
            Some(id) => {
                let mut old: domain::staff::PackEdit =
                    sqlx::query_as("SELECT credits, price_minor, currency, highlighted, sort_order, active FROM credit_packs WHERE id = $1 AND site_id = $2")
                        .bind(id)
                        .bind(site_id)
                        .fetch_optional(&mut *tx)
                        .await?
                        .ok_or(domain::ErrorCode::NotFound)?;
                old.id = Some(id);
                if old == p {
                    return Ok(id);
                }
                sqlx::query("UPDATE credit_packs SET credits = $1, price_minor = $2, currency = $3, highlighted = $4, sort_order = $5, active = $6 WHERE id = $7 AND site_id = $8")
                    .bind(p.credits)
                    .bind(p.price_minor)
                    .bind(&p.currency)
                    .bind(p.highlighted)
                    .bind(p.sort_order)
                    .bind(p.active)
                    .bind(id)
                    .bind(site_id)
                    .execute(&mut *tx)
                    .await?;
                (id, "pack_change", format!("{} → {}", describe(&old), describe(&p)))
            }
        };
        record(&mut tx, site_id, staff, action, &format!("bundle #{id}"), &detail, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The site's discount codes, newest first, with how often each was redeemed.
    pub async fn discounts(&self, staff: &Member, site_id: i64) -> Result<Vec<DiscountRecord>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Pricing)?;
        Ok(sqlx::query_as(
            "SELECT d.id, d.code, d.percentage, d.minimum_order, d.country, d.active, d.expires_at, \
             (SELECT COUNT(*) FROM discount_redemptions r JOIN payments p ON p.id = r.payment_id WHERE r.code = d.code AND p.site_id = d.site_id) AS redeemed \
             FROM discount_codes d WHERE d.site_id = $1 AND d.member_id IS NULL ORDER BY d.id DESC",
        )
        .bind(site_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// A new discount code; `CodeTaken` when the site has it already (in any state).
    pub async fn add_discount(&self, staff: &Member, site_id: i64, edit: domain::staff::DiscountEdit, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Pricing)?;
        let d = edit.validate(now)?;
        let mut tx = self.db.begin().await?;
        let inserted: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO discount_codes (site_id, code, percentage, minimum_order, country, active, expires_at) VALUES ($1, $2, $3, $4, $5, TRUE, $6) \
             ON CONFLICT (site_id, code) DO NOTHING RETURNING id",
        )
        .bind(site_id)
        .bind(&d.code)
        .bind(d.percentage)
        .bind(d.minimum_order)
        .bind(&d.country)
        .bind(d.expires_at)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((id,)) = inserted else {
            return Err(domain::ApiError::new(domain::ErrorCode::CodeTaken).into());
        };
        let detail = format!(
            "{}%, minimum {}, {}{}",
            d.percentage,
            d.minimum_order,
            d.country.as_deref().unwrap_or("all countries"),
            d.expires_at
                .map(|at| {
                    let day = domain::account::Ymd::from_unix(at);
                    format!(", until {:04}-{:02}-{:02}", day.year, day.month, day.day)
                })
                .unwrap_or_default()
        );
        record(&mut tx, site_id, staff, "discount_add", &d.code, &detail, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Switches a discount code on or off (codes are kept: redemptions refer to them); logged.
    pub async fn set_discount_active(&self, staff: &Member, site_id: i64, id: i64, active: bool, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Pricing)?;
        let mut tx = self.db.begin().await?;
        let found: Option<(String,)> =
            sqlx::query_as("SELECT code FROM discount_codes WHERE id = $1 AND site_id = $2").bind(id).bind(site_id).fetch_optional(&mut *tx).await?;
        let Some((code,)) = found else { return Err(domain::ErrorCode::NotFound.into()) };
        let changed = sqlx::query("UPDATE discount_codes SET active = $1 WHERE id = $2 AND active <> $1").bind(active).bind(id).execute(&mut *tx).await?;
        if changed.rows_affected() == 0 {
            return Ok(());
        }
        record(&mut tx, site_id, staff, if active { "discount_on" } else { "discount_off" }, &code, "", now).await?;
        tx.commit().await?;
        Ok(())
    }
}
