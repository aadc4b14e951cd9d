//! Direct debit (`/directdebit`): the member gives an IBAN and a mobile number, we text a
//! six-digit code, and the right code is the member's consent: the order becomes a payment that
//! the provider collects as a SEPA direct debit (Mollie: a customer, a mandate on the account,
//! then a recurring payment against it). The site decides whether the credits come at once (then
//! a failed or reversed collection takes them back and closes direct debit for the member, as
//! `vonk payments reverse` does by hand) or only once the money is collected. A site also caps
//! what one member may order by direct debit per calendar month (SPEC §8's blocked and
//! limit-reached texts).

use domain::checkout::{
    best_quote, normalize_phone, validate_iban, validate_sms_code, within_monthly_limit, PaymentStatus, SMS_CODE_ATTEMPTS, SMS_CODE_TTL_SECS,
};
use domain::payment::PaymentMethod;
use domain::rows::Flag;
use domain::ErrorCode;

use super::{Payments, DIRECT_DEBIT};
use crate::accounts::{tokens, Member};
use crate::db::flag;
use crate::error::AppError;
use crate::sites::Site;

/// Codes a member may have texted per day.
pub const CODES_PER_DAY: i64 = 5;

/// A direct-debit order waiting for its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub id: i64,
    pub pack_id: i64,
    /// The IBAN as shown back: `NL91 •••• •••• 4300`.
    pub iban_masked: String,
    /// The number the code went to, all but the last three digits hidden.
    pub phone_masked: String,
}

fn mask_phone(phone: &str) -> String {
    let keep = phone.len().saturating_sub(3);
    format!("{}{}", "•".repeat(keep.min(8)), &phone[keep..])
}

fn six_digits() -> String {
    let mut bytes = [0u8; 4];
    getrandom::getrandom(&mut bytes).expect("the operating system's random source");
    format!("{:06}", u32::from_le_bytes(bytes) % 1_000_000)
}

fn month_start(now: i64) -> i64 {
    let d = domain::date::from_unix(now);
    domain::date::to_unix(d.year, d.month, 1, 0, 0)
}

impl Payments {
    /// Whether direct debit is closed for the member (after a reversed debit).
    pub async fn direct_debit_blocked(&self, member_id: i64) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT direct_debit_blocked FROM users WHERE id = $1").bind(member_id).fetch_one(self.pool()).await?;
        Ok(flag(&row, "direct_debit_blocked")?)
    }

    /// What the member ordered by direct debit this calendar month (open, pending and paid).
    async fn direct_debit_this_month(&self, conn: &mut sqlx::AnyConnection, member_id: i64, now: i64) -> Result<i64, AppError> {
        let (this_month,): (i64,) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payments WHERE user_id = $1 AND method = $2 AND status IN ($4, $5, $6) AND created_at >= $3",
        )
        .bind(member_id)
        .bind(PaymentMethod::DirectDebit.code())
        .bind(month_start(now))
        .bind(domain::checkout::PaymentStatus::Open.code())
        .bind(domain::checkout::PaymentStatus::Pending.code())
        .bind(domain::checkout::PaymentStatus::Paid.code())
        .fetch_one(conn)
        .await?;
        Ok(this_month)
    }

    /// Refuses when direct debit is closed for the member or `amount` does not fit the month
    /// (the form's early answer; the confirmation checks again under the member's lock).
    async fn direct_debit_allowed(&self, site: &Site, member_id: i64, amount: i64, now: i64) -> Result<(), AppError> {
        if self.direct_debit_blocked(member_id).await? {
            return Err(ErrorCode::DirectDebitBlocked.into());
        }
        self.refuse_if_blocked(member_id, domain::payment::PaymentMethod::DirectDebit).await?;
        let mut conn = self.pool().acquire().await?;
        let this_month = self.direct_debit_this_month(&mut conn, member_id, now).await?;
        if !within_monthly_limit(this_month, amount, site.settings.direct_debit_monthly_limit) {
            return Err(ErrorCode::DirectDebitLimit.into());
        }
        Ok(())
    }

    /// Step one: checks the IBAN, the number, the block and the month's limit, then texts a
    /// code. Nothing is stored when a check fails.
    pub async fn start_direct_debit(
        &self,
        site: &Site,
        member: &Member,
        pack_id: i64,
        iban: &str,
        phone: &str,
        typed: Option<&str>,
        country: &str,
        now: i64,
    ) -> Result<Pending, AppError> {
        if !self.methods(country).contains(&PaymentMethod::DirectDebit) {
            return Err(ErrorCode::MethodUnavailable.into());
        }
        // The SMS code proves the phone, not the address: a mandate only from a member whose
        // address is confirmed.
        if !member.is_confirmed() {
            return Err(ErrorCode::AddressNotConfirmed.into());
        }
        crate::age::gate(&self.db, site, member, Some(country)).await?;
        crate::fraud::payment_gate(&self.db, site, member, now).await?;
        let iban = validate_iban(iban)?;
        let phone = normalize_phone(phone, country)?;
        let q = self.quote(site, member, pack_id, typed, country, now).await?;
        self.direct_debit_allowed(site, member.id, q.amount, now).await?;
        let (today,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM direct_debits WHERE user_id = $1 AND created_at > $2")
            .bind(member.id)
            .bind(now - 86_400)
            .fetch_one(self.pool())
            .await?;
        if today >= CODES_PER_DAY {
            return Err(ErrorCode::TooManyRequests.into());
        }
        let code = six_digits();
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO direct_debits (user_id, pack_id, iban, phone, code_hash, discount_code, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(member.id)
        .bind(pack_id)
        .bind(&iban)
        .bind(&phone)
        .bind(tokens::hash(&code))
        .bind(q.discount.as_ref().filter(|d| d.kind == domain::checkout::DiscountKind::Code).map(|d| d.code.clone()))
        .bind(now)
        .bind(now + SMS_CODE_TTL_SECS)
        .fetch_one(self.pool())
        .await?;
        let locale = domain::Locale::parse(&member.language).unwrap_or(domain::Locale::DEFAULT);
        let text = domain::i18n::interpolate(&self.accounts.catalog().t(locale, "directdebit.sms"), &[("code", &code), ("site", &site.settings.name)]);
        self.sms.send(&phone, &text).await?;
        Ok(Pending { id, pack_id, iban_masked: domain::checkout::mask_iban(&iban), phone_masked: mask_phone(&phone) })
    }

    /// The member's order waiting for a code (for the form's second step).
    pub async fn pending_direct_debit(&self, member_id: i64, id: i64, now: i64) -> Result<Option<Pending>, AppError> {
        #[derive(sqlx::FromRow)]
        struct PendingRow {
            id: i64,
            pack_id: i64,
            iban: String,
            phone: String,
        }
        let row = sqlx::query_as::<_, PendingRow>(
            "SELECT id, pack_id, iban, phone FROM direct_debits WHERE id = $1 AND user_id = $2 AND payment_id IS NULL AND expires_at > $3 AND attempts < $4",
        )
        .bind(id)
        .bind(member_id)
        .bind(now)
        .bind(SMS_CODE_ATTEMPTS)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| Pending { id: r.id, pack_id: r.pack_id, iban_masked: domain::checkout::mask_iban(&r.iban), phone_masked: mask_phone(&r.phone) }))
    }

    /// Step two: the code. A wrong, expired or used-up code is 'Code ongeldig' (five tries);
    /// the right one creates the payment once (a second submit answers the same payment) and
    /// books it. Answers the payment id.
    pub async fn confirm_direct_debit(&self, site: &Site, member: &Member, id: i64, code: &str, country: &str, now: i64) -> Result<i64, AppError> {
        let invalid = || AppError::from(domain::ApiError::field(domain::Field::Code, ErrorCode::SmsCodeInvalid));
        #[derive(sqlx::FromRow)]
        struct OrderRow {
            pack_id: i64,
            code_hash: String,
            attempts: i64,
            expires_at: i64,
            payment_id: Option<i64>,
            discount_code: Option<String>,
        }
        let row = sqlx::query_as::<_, OrderRow>(
            "SELECT pack_id, code_hash, attempts, expires_at, payment_id, discount_code FROM direct_debits WHERE id = $1 AND user_id = $2",
        )
        .bind(id)
        .bind(member.id)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(invalid)?;
        if let Some(payment_id) = row.payment_id {
            return Ok(payment_id);
        }
        let code = validate_sms_code(code)?;
        if row.attempts >= SMS_CODE_ATTEMPTS || row.expires_at <= now {
            return Err(invalid());
        }
        // Count the try before comparing, so parallel guesses cannot exceed the limit.
        let counted = sqlx::query("UPDATE direct_debits SET attempts = attempts + 1 WHERE id = $1 AND attempts < $2 AND payment_id IS NULL")
            .bind(id)
            .bind(SMS_CODE_ATTEMPTS)
            .execute(self.pool())
            .await?
            .rows_affected();
        if counted == 0 || tokens::hash(&code) != row.code_hash {
            return Err(invalid());
        }
        let pack = self.member_pack(site, member, row.pack_id, country, now).await?;
        let (typed, offers) = self.discounts(site, member, row.discount_code.as_deref(), country, now).await?;
        let q = best_quote(&pack, &[typed.as_ref(), offers.now.map(|p| p.discount()).as_ref()], country);
        // The month's cap is checked and the order stored in one transaction that holds the
        // member's row: parallel confirmations of several orders are counted one after another,
        // so together they never pass the cap.
        #[derive(sqlx::FromRow)]
        struct HeldRow {
            #[sqlx(try_from = "Flag")]
            direct_debit_blocked: bool,
            #[sqlx(try_from = "Flag")]
            payments_blocked: bool,
            status: String,
        }
        let mut tx = self.db.begin().await?;
        let blocked = sqlx::query_as::<_, HeldRow>(
            "UPDATE users SET direct_debit_blocked = direct_debit_blocked WHERE id = $1 RETURNING direct_debit_blocked, payments_blocked, status",
        )
        .bind(member.id)
        .fetch_one(&mut *tx)
        .await?;
        if blocked.status == domain::account::UserStatus::NotConfirmed.as_str() {
            return Err(ErrorCode::AddressNotConfirmed.into());
        }
        if blocked.direct_debit_blocked {
            return Err(ErrorCode::DirectDebitBlocked.into());
        }
        if blocked.payments_blocked {
            return Err(ErrorCode::PaymentsBlocked.into());
        }
        // A parallel submit of this same order may have stored it while we waited for the lock.
        let (stored,): (Option<i64>,) = sqlx::query_as("SELECT payment_id FROM direct_debits WHERE id = $1").bind(id).fetch_one(&mut *tx).await?;
        if let Some(payment_id) = stored {
            return Ok(payment_id);
        }
        let this_month = self.direct_debit_this_month(&mut tx, member.id, now).await?;
        if !within_monthly_limit(this_month, q.amount, site.settings.direct_debit_monthly_limit) {
            return Err(ErrorCode::DirectDebitLimit.into());
        }
        // The order's own id makes the payment unique: a double submit cannot create two.
        let payment_id =
            self.insert_payment_in(&mut tx, site, member, &q, PaymentMethod::DirectDebit, country, DIRECT_DEBIT, Some(&format!("dd_{id}")), now).await?;
        sqlx::query("UPDATE direct_debits SET payment_id = $1 WHERE id = $2").bind(payment_id).bind(id).execute(&mut *tx).await?;
        tx.commit().await?;
        crate::metrics::payment(PaymentStatus::Open.code());
        self.collect_direct_debit(payment_id, now).await?;
        Ok(payment_id)
    }

    /// Hands a confirmed order to the provider to collect, once: the payment then carries the
    /// provider's id, and is paid at once or pending until collected (the site's choice). A
    /// provider that refuses fails the payment; one that does not answer leaves it open for
    /// the recovery job, which asks again (each step has an idempotency key of the order).
    pub(super) async fn collect_direct_debit(&self, payment_id: i64, now: i64) -> Result<PaymentStatus, AppError> {
        #[derive(sqlx::FromRow)]
        struct CollectRow {
            status: String,
            provider: String,
            amount: i64,
            currency: String,
            user_id: i64,
            site_id: i64,
            order_id: i64,
            iban: String,
            signed_at: i64,
            email: String,
            name: String,
            customer_id: Option<String>,
        }
        let row = sqlx::query_as::<_, CollectRow>(
            "SELECT p.status, p.provider, p.amount, p.currency, p.user_id, p.site_id, d.id AS order_id, d.iban, d.created_at AS signed_at, u.email, pr.name, c.customer_id \
             FROM payments p JOIN direct_debits d ON d.payment_id = p.id JOIN users u ON u.id = p.user_id JOIN profiles pr ON pr.user_id = p.user_id \
             LEFT JOIN provider_customers c ON c.user_id = p.user_id AND c.provider = $2 WHERE p.id = $1",
        )
        .bind(payment_id)
        .bind(self.provider.name())
        .fetch_one(self.pool())
        .await?;
        let status = PaymentStatus::try_from(row.status).map_err(AppError::Internal)?;
        if !status.is_open() || row.provider != DIRECT_DEBIT {
            return Ok(status);
        }
        let site = self.site_by_id(row.site_id).await?;
        let order_id = row.order_id;
        let request = super::provider::DirectDebitRequest {
            payment_id,
            order_id,
            member_id: row.user_id,
            name: row.name,
            email: row.email,
            iban: row.iban,
            signed_at: row.signed_at,
            customer_id: row.customer_id,
            amount: row.amount,
            currency: row.currency,
            description: format!("{} – #{payment_id}", site.settings.name),
            webhook_url: self.webhook_url(&site),
        };
        match self.provider.direct_debit(&request).await {
            Ok(created) => {
                let mut tx = self.db.begin().await?;
                let moved = sqlx::query("UPDATE payments SET provider = $1, provider_id = $2, checked_at = $3 WHERE id = $4 AND provider = $5")
                    .bind(self.provider.name())
                    .bind(&created.provider_id)
                    .bind(now)
                    .bind(payment_id)
                    .bind(DIRECT_DEBIT)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                sqlx::query("UPDATE direct_debits SET mandate_id = $1 WHERE id = $2").bind(&created.mandate_id).bind(order_id).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO provider_customers (user_id, provider, customer_id) VALUES ($1, $2, $3) ON CONFLICT (user_id, provider) DO UPDATE SET customer_id = $3")
                    .bind(request.member_id)
                    .bind(self.provider.name())
                    .bind(&created.customer_id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                if moved == 0 {
                    // Another run handed it over meanwhile and moves it.
                    let (status,): (String,) = sqlx::query_as("SELECT status FROM payments WHERE id = $1").bind(payment_id).fetch_one(self.pool()).await?;
                    return PaymentStatus::parse(&status).ok_or_else(|| AppError::Internal("payment status".into()));
                }
                let next = if site.settings.direct_debit_on_collection { PaymentStatus::Pending } else { PaymentStatus::Paid };
                self.apply(payment_id, next, now).await
            }
            Err(super::provider::ProviderError::Refused(reason)) => {
                tracing::warn!(payment = payment_id, reason, "the provider refused the direct debit");
                self.apply(payment_id, PaymentStatus::Failed, now).await
            }
            Err(super::provider::ProviderError::Unavailable(reason)) => {
                tracing::warn!(payment = payment_id, reason, "the provider did not take the direct debit yet; the recovery job asks again");
                Ok(status)
            }
        }
    }
}
