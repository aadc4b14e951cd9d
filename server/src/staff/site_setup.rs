//! Staff and the site itself: its logo, and a new site on its own domain.

use crate::accounts::Member;
use crate::error::AppError;

use super::{record, require_staff, Staff, LOGO_MAX_BYTES};

impl Staff {
    /// Puts up a new logo (`Some`: an upload, decoded and written anew as PNG) or takes it down
    /// (`None`: back to the flame mark); logged.
    pub async fn set_logo(&self, staff: &Member, site_id: i64, upload: Option<Vec<u8>>, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Site)?;
        let logo = match upload {
            None => None,
            Some(bytes) => Some(
                tokio::task::spawn_blocking(move || crate::members::photo_decode::decode_logo(&bytes, LOGO_MAX_BYTES))
                    .await
                    .map_err(|e| AppError::Internal(format!("logo decoding stopped: {e}")))?
                    .map_err(|e| AppError::from(e.code()))?,
            ),
        };
        let mut tx = self.db.begin().await?;
        let detail = match &logo {
            Some(l) => {
                use sha2::Digest;
                let version: String = sha2::Sha256::digest(&l.png).iter().take(8).map(|b| format!("{b:02x}")).collect();
                sqlx::query("DELETE FROM site_logos WHERE site_id = $1").bind(site_id).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO site_logos (site_id, png, width, height) VALUES ($1, $2, $3, $4)")
                    .bind(site_id)
                    .bind(l.png.clone())
                    .bind(i64::from(l.width))
                    .bind(i64::from(l.height))
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("UPDATE sites SET logo_version = $1 WHERE id = $2").bind(&version).bind(site_id).execute(&mut *tx).await?;
                format!("{} × {} px, {} bytes", l.width, l.height, l.png.len())
            }
            None => {
                let removed =
                    sqlx::query("UPDATE sites SET logo_version = NULL WHERE id = $1 AND logo_version IS NOT NULL").bind(site_id).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM site_logos WHERE site_id = $1").bind(site_id).execute(&mut *tx).await?;
                if removed.rows_affected() == 0 {
                    return Ok(());
                }
                String::new()
            }
        };
        record(&mut tx, site_id, staff, if logo.is_some() { "site_logo" } else { "site_logo_removed" }, "site", &detail, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Starts a new site on its own domain: settings, company and active credit bundles copied
    /// from this site (changed there afterwards), no members but a copy of the staff member's
    /// account (same address, password and second step, staff, out of the search), so they can log in on it.
    /// Logged on both sites. `DomainTaken` when a site already answers on the domain.
    pub async fn create_site(&self, staff: &Member, site_id: i64, new: domain::staff::NewSite, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Site)?;
        let new = new.validate()?;
        // Every setting is copied: each column but the new site's own, its push key, its logo
        // (which stays with this site) and its creation time.
        let own = ["id", "domain", "is_default", "name", "domain_language", "push_key", "logo_version", "created_at"];
        let copied: Vec<String> = self.db.columns("sites").await?.into_iter().filter(|c| !own.contains(&c.as_str())).collect();
        let mut tx = self.db.begin().await?;
        let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM sites WHERE domain = $1").bind(&new.domain).fetch_optional(&mut *tx).await?;
        if taken.is_some() {
            return Err(domain::ApiError::new(domain::ErrorCode::DomainTaken).with("setting", "domain").into());
        }
        let inserted: Result<(i64,), sqlx::Error> = sqlx::query_as(&format!(
            "INSERT INTO sites (domain, is_default, name, domain_language, {cols}, created_at) SELECT $1, FALSE, $2, $3, {cols}, $4 FROM sites WHERE id = $5 RETURNING id",
            cols = copied.join(", ")
        ))
        .bind(&new.domain)
        .bind(&new.name)
        .bind(&new.domain_language)
        .bind(now)
        .bind(site_id)
        .fetch_one(&mut *tx)
        .await;
        let (new_id,) = match inserted {
            Ok(row) => row,
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(domain::ApiError::new(domain::ErrorCode::DomainTaken).with("setting", "domain").into())
            }
            Err(e) => return Err(e.into()),
        };
        sqlx::query(
            "INSERT INTO credit_packs (site_id, credits, price_minor, currency, highlighted, sort_order, active) \
             SELECT $1, credits, price_minor, currency, highlighted, sort_order, active FROM credit_packs WHERE site_id = $2 AND active",
        )
        .bind(new_id)
        .bind(site_id)
        .execute(&mut *tx)
        .await?;
        let (user_id,): (i64,) = sqlx::query_as(
            "INSERT INTO users (site_id, email, password_hash, totp_secret, status, language, signup_date, staff_roles, invisible) \
             SELECT $1, email, password_hash, totp_secret, $5, language, $2, $4, TRUE FROM users WHERE id = $3 RETURNING id",
        )
        .bind(new_id)
        .bind(now)
        .bind(staff.id)
        .bind(super::StaffRoles::of(&[super::StaffRole::Admin]).bits())
        .bind(domain::account::UserStatus::Active.as_str())
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO profiles (user_id, name, date_of_birth, gender, sexuality, country, status, site_id, last_active) \
             SELECT $1, name, date_of_birth, gender, sexuality, country, status, $2, $3 FROM profiles WHERE user_id = $4",
        )
        .bind(user_id)
        .bind(new_id)
        .bind(now)
        .bind(staff.id)
        .execute(&mut *tx)
        .await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        record(&mut tx, site_id, staff, "site_created", &new.domain, &format!("site #{new_id}, {}, {}", new.name, new.domain_language), now).await?;
        record(&mut tx, new_id, staff, "site_created", &new.domain, &format!("copied from site #{site_id}; staff account #{user_id}"), now).await?;
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, site_id, new_id, "staff created a site");
        Ok(new_id)
    }
}
