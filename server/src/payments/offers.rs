//! What a member is offered: the site's bundles for their country, the payment methods there,
//! the discounts they may use, and the price of a bundle with the best of them.

use domain::checkout::{best_quote, better, normalize_code, Discount, DiscountKind, Quote};
use domain::offers::{offers, Offers};
use domain::payment::{methods_for_country, PaymentMethod};
use domain::site::CreditPack;
use domain::ErrorCode;
use sqlx::Row;

use super::{Offer, Payments};
use crate::accounts::Member;
use crate::error::AppError;
use crate::sites::Site;

impl Payments {
    /// A site's active bundles for a country: the country's own, else the site's general ones.
    pub async fn packs(&self, site_id: i64, country: &str) -> Result<Vec<CreditPack>, AppError> {
        let key = (site_id, country.to_ascii_uppercase());
        // A reload of the site settings (a change announced by the database) drops these too.
        let generation = crate::sites::SiteCache::generation();
        if let Some(packs) = self.packs_cache.get(&key, generation) {
            return Ok(packs);
        }
        let packs = self.read_packs(site_id, country).await?;
        self.packs_cache.put(key, generation, packs.clone());
        Ok(packs)
    }

    pub(super) async fn read_packs(&self, site_id: i64, country: &str) -> Result<Vec<CreditPack>, AppError> {
        #[derive(sqlx::FromRow)]
        struct CountryPack {
            #[sqlx(flatten)]
            pack: CreditPack,
            country: Option<String>,
        }
        let rows: Vec<CountryPack> = sqlx::query_as(
            "SELECT id, credits, price_minor, currency, highlighted, country FROM credit_packs \
             WHERE site_id = $1 AND active = TRUE AND (country IS NULL OR country = $2) ORDER BY sort_order, credits",
        )
        .bind(site_id)
        .bind(country.to_ascii_uppercase())
        .fetch_all(self.pool())
        .await?;
        // The country's own bundles where it has any, else the site's.
        let own = rows.iter().any(|r| r.country.is_some());
        Ok(rows.into_iter().filter(|r| r.country.is_some() == own).map(|r| r.pack).collect())
    }

    /// The methods offered in a country: the country's methods that the provider takes, and
    /// direct debit where we collect (SPEC §9's list, in display order).
    pub fn methods(&self, country: &str) -> Vec<PaymentMethod> {
        methods_for_country(country)
            .into_iter()
            .filter(|m| match m {
                PaymentMethod::DirectDebit => domain::checkout::DIRECT_DEBIT_COUNTRIES.contains(&country.to_ascii_uppercase().as_str()),
                m => self.provider.supports(*m),
            })
            .collect()
    }

    /// Codes the member has redeemed (or holds for an open payment).
    pub(super) async fn used_codes(&self, member_id: i64) -> Result<Vec<String>, AppError> {
        let rows: Vec<(String,)> = sqlx::query_as("SELECT code FROM discount_redemptions WHERE user_id = $1").bind(member_id).fetch_all(self.pool()).await?;
        Ok(rows.into_iter().map(|(c,)| c).collect())
    }

    /// The discount for this member now: a typed code (refused with 'Code niet gevonden' or
    /// 'Code reeds gebruikt'), the time bonus or the welcome discount; the larger one wins.
    pub async fn discount(&self, site: &Site, member: &Member, typed: Option<&str>, country: &str, now: i64) -> Result<Option<Discount>, AppError> {
        let (typed, offers) = self.discounts(site, member, typed, country, now).await?;
        Ok(better(typed, offers.now.map(|p| p.discount())))
    }

    /// The typed code's discount (refused as above) and the automatic offers (what the member
    /// gets now and what follows, [`domain::offers`]), apart: each bundle takes whichever makes
    /// it cheaper ([`domain::checkout::best_quote`]).
    pub async fn discounts(&self, site: &Site, member: &Member, typed: Option<&str>, country: &str, now: i64) -> Result<(Option<Discount>, Offers), AppError> {
        let used = self.used_codes(member.id).await?;
        let typed = match typed.map(str::trim).filter(|t| !t.is_empty()) {
            None => None,
            Some(raw) => {
                let code = normalize_code(raw)?;
                let row =
                    sqlx::query("SELECT percentage, minimum_order, country, expires_at FROM discount_codes WHERE site_id = $1 AND code = $2 AND active = TRUE AND (member_id IS NULL OR member_id = $3)")
                        .bind(site.settings.id)
                        .bind(&code)
                        .bind(member.id)
                        .fetch_optional(self.pool())
                        .await?;
                let not_found = || domain::ApiError::field(domain::Field::DiscountCode, ErrorCode::DiscountNotFound);
                let row = row.ok_or_else(not_found)?;
                let for_country: Option<String> = row.try_get("country")?;
                let expires_at: Option<i64> = row.try_get("expires_at")?;
                if for_country.is_some_and(|c| !c.eq_ignore_ascii_case(country)) || expires_at.is_some_and(|e| e <= now) {
                    return Err(not_found().into());
                }
                if used.contains(&code) {
                    return Err(domain::ApiError::field(domain::Field::DiscountCode, ErrorCode::DiscountUsed).into());
                }
                Some(Discount { code, percent: row.try_get("percentage")?, kind: DiscountKind::Code, minimum_order: row.try_get("minimum_order")? })
            }
        };
        let offers = offers(&site.settings.offer_rules(), member.signup_date, now, member.paid_user, |c| used.iter().any(|u| u == c));
        Ok((typed, offers))
    }

    /// The site's bundles for a country at the prices this member (or visitor, by their
    /// `visitor` cookie) is shown under the running price tests (`server::splits`).
    pub async fn priced_packs(
        &self,
        site_id: i64,
        member: Option<&Member>,
        visitor: Option<&str>,
        country: &str,
        now: i64,
    ) -> Result<Vec<CreditPack>, AppError> {
        let packs = self.packs(site_id, country).await?;
        self.splits.priced(site_id, member, visitor, packs, now).await
    }

    /// One bundle for this member as they are charged for it: read anew, at their price.
    pub(super) async fn member_pack(&self, site: &Site, member: &Member, pack_id: i64, country: &str, now: i64) -> Result<CreditPack, AppError> {
        let pack = self.read_packs(site.settings.id, country).await?.into_iter().find(|p| p.id == pack_id).ok_or(ErrorCode::NotFound)?;
        let priced = self.splits.priced(site.settings.id, Some(member), None, vec![pack], now).await?;
        priced.into_iter().next().ok_or_else(|| ErrorCode::NotFound.into())
    }

    /// What `/credits` offers the member: each bundle at their price with the best discount,
    /// the discount in force, the methods. `visitor` (the browser's visitor cookie) draws
    /// their price in a price test they have not been shown yet.
    pub async fn offer(&self, site: &Site, member: &Member, visitor: Option<&str>, typed: Option<&str>, country: &str, now: i64) -> Result<Offer, AppError> {
        let (typed, offers) = self.discounts(site, member, typed, country, now).await?;
        let automatic = offers.now.map(|p| p.discount());
        let packs = self.priced_packs(site.settings.id, Some(member), visitor, country, now).await?;
        let packs: Vec<(CreditPack, Quote)> = packs
            .into_iter()
            .map(|p| {
                let q = best_quote(&p, &[typed.as_ref(), automatic.as_ref()], country);
                (p, q)
            })
            .collect();
        let discount = better(typed, automatic);
        let time_bonus_left = offers.time_bonus_left(now).filter(|_| discount.as_ref().is_some_and(|d| d.kind == DiscountKind::TimeBonus));
        Ok(Offer { country: country.to_string(), packs, discount, methods: self.methods(country), time_bonus_left, offers })
    }

    /// One bundle's price for this member now (their price in a price test).
    pub async fn quote(&self, site: &Site, member: &Member, pack_id: i64, typed: Option<&str>, country: &str, now: i64) -> Result<Quote, AppError> {
        let pack = self.member_pack(site, member, pack_id, country, now).await?;
        let (typed, offers) = self.discounts(site, member, typed, country, now).await?;
        Ok(best_quote(&pack, &[typed.as_ref(), offers.now.map(|p| p.discount()).as_ref()], country))
    }
}
