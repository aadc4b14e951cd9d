//! The receipt of a paid payment, mailed and as PDF: what was bought, what it cost with the VAT in it, and
//! the company that sold it (SPEC §3 company info).

use domain::checkout::vat_part;
use domain::site::format_money;
use sqlx::Row;

use super::Accounts;
use crate::error::AppError;
use crate::mail::templates::ReceiptMail;
use crate::mail::Mail;
use crate::payments::PaymentView;
use crate::sites::Site;

/// What a receipt says, in the member's language: the mail and the PDF
/// ([`crate::payments::receipt_pdf`]) show the same lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    pub locale: domain::Locale,
    pub email: String,
    /// "Je betaalbewijs van {site}": the mail's subject and the PDF's title.
    pub title: String,
    pub greeting: String,
    pub intro: String,
    /// (label, value): order, date, bundle, method, [list price, discount], total, VAT, and
    /// after a partial refund what was refunded and what remains.
    pub rows: Vec<(String, String)>,
    /// Which row is the total (the PDF sets it in bold under a rule).
    pub total_row: usize,
    /// The seller: name, address, postal code and city, country, KvK, VAT numbers.
    pub company: Vec<String>,
    pub footer: String,
    /// The link's text in the mail ("Bekijk je betaling").
    pub button: String,
}

impl Accounts {
    /// What has gone back of a payment: refunds done, from staff or the provider's dashboard
    /// (a chargeback is the bank's, not a refund; one still asked of the provider is not yet).
    async fn refunded(&self, payment_id: i64) -> Result<i64, AppError> {
        let (sum,): (i64,) = sqlx::query_as("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM refunds WHERE payment_id = $1 AND state = $2 AND kind <> $3")
            .bind(payment_id)
            .bind(domain::refund::RefundState::Done.code())
            .bind(domain::refund::RefundKind::Chargeback.code())
            .fetch_one(self.db().pool())
            .await?;
        Ok(sum)
    }

    /// The receipt of `payment` (paid by `user_id` on `site`), in the member's language.
    pub async fn receipt(&self, site: &Site, user_id: i64, payment: &PaymentView) -> Result<Receipt, AppError> {
        let refunded = self.refunded(payment.id).await?;
        self.receipt_with(site, user_id, payment, refunded).await
    }

    /// [`Accounts::receipt`] with what has gone back of the payment already read.
    async fn receipt_with(&self, site: &Site, user_id: i64, payment: &PaymentView, refunded: i64) -> Result<Receipt, AppError> {
        let row = sqlx::query("SELECT u.email, u.language, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1")
            .bind(user_id)
            .fetch_one(self.db().pool())
            .await?;
        let name: String = row.try_get("name")?;
        let locale = domain::Locale::parse(&row.try_get::<String, _>("language")?).unwrap_or(domain::Locale::DEFAULT);
        let comma = !matches!(locale, domain::Locale::En);
        let money = |minor: i64| format_money(minor, &payment.currency, comma);
        let vars = [("site", site.settings.name.as_str()), ("name", name.as_str())];
        let t = |key: &str| domain::i18n::interpolate(&self.catalog.t(locale, key), &vars);
        let texts = self.catalog.texts(locale);
        let counted = |base: &str| domain::plural::plural(&texts, locale, base, payment.credits, &vars);
        let date = domain::date::from_unix(payment.paid_at.unwrap_or(payment.created_at));
        let method = payment.method.label_key().map(&t).unwrap_or_else(|| payment.method.brand_name().to_string());
        let rate = domain::checkout::format_rate(payment.vat_rate_bp, comma);
        let mut rows = vec![
            (t("receipt.order"), format!("#{}", payment.id)),
            (t("receipt.date"), format!("{:04}-{:02}-{:02}", date.year, date.month, date.day)),
            (t("receipt.bundle"), counted("receipt.bundle_value")),
            (t("receipt.method"), method),
        ];
        if let Some(code) = &payment.discount_code {
            rows.push((t("receipt.list_price"), money(payment.list_price)));
            rows.push((t("receipt.discount"), format!("{code} −{}%", payment.discount_percent)));
        }
        let total_row = rows.len();
        rows.push((t("receipt.total"), money(payment.amount)));
        rows.push((domain::i18n::interpolate(&t("receipt.vat"), &[("rate", &rate)]), money(vat_part(payment.amount, payment.vat_rate_bp))));
        // Money that went back: the receipt says how much, and what the member paid after it.
        if refunded > 0 {
            rows.push((t("receipt.refunded"), format!("−{}", money(refunded))));
            rows.push((t("receipt.remaining"), money((payment.amount - refunded).max(0))));
        }
        let c = &site.company;
        let mut company =
            vec![c.name.clone(), c.address.clone(), format!("{} {}", c.postal_code, c.city), c.country.clone(), format!("{} {}", t("receipt.kvk"), c.kvk)];
        if !c.vat_numbers.is_empty() {
            company.push(format!("{} {}", t("receipt.vat_number"), c.vat_numbers.join(", ")));
        }
        Ok(Receipt {
            locale,
            email: row.try_get("email")?,
            title: t("receipt.subject"),
            greeting: t("mail.greeting"),
            intro: counted("receipt.intro"),
            rows,
            total_row,
            company,
            footer: t("receipt.footer"),
            button: t("receipt.button"),
        })
    }

    /// Mails the member the receipt of `payment`, with the site's logo; `link` is the payment's
    /// page (a path).
    /// Mails the credit note of a refund of `refund` (minor units, VAT included) of `payment`:
    /// the money that goes back, its VAT, and the credits taken back or already used.
    pub async fn mail_credit_note(
        &self,
        site: &Site,
        base_url: &str,
        user_id: i64,
        payment: &PaymentView,
        refund_id: i64,
        refund: i64,
        credits: domain::refund::CreditsBack,
        at: i64,
        link: &str,
    ) -> Result<(), AppError> {
        // Refunds done so far, this one included: the VAT of this part is what the VAT of the
        // refunded total grew by, so a payment refunded in parts takes back exactly its VAT.
        let refunded = self.refunded(payment.id).await?.max(refund);
        let mut note = self.receipt_with(site, user_id, payment, refunded).await?;
        let locale = note.locale;
        let comma = !matches!(locale, domain::Locale::En);
        let money = |minor: i64| format_money(minor, &payment.currency, comma);
        let amount = money(refund);
        let order = payment.id.to_string();
        let vars = [("site", site.settings.name.as_str()), ("amount", amount.as_str()), ("order", order.as_str())];
        let t = |key: &str| domain::i18n::interpolate(&self.catalog.t(locale, key), &vars);
        let date = domain::date::from_unix(at);
        let rate = domain::checkout::format_rate(payment.vat_rate_bp, comma);
        let vat = vat_part(refunded, payment.vat_rate_bp) - vat_part(refunded - refund, payment.vat_rate_bp);
        let mut rows = vec![
            (t("credit_note.number"), format!("#{}-{refund_id}", payment.id)),
            (t("receipt.order"), format!("#{}", payment.id)),
            (t("receipt.date"), format!("{:04}-{:02}-{:02}", date.year, date.month, date.day)),
            (t("credit_note.refund"), format!("−{amount}")),
            (domain::i18n::interpolate(&t("receipt.vat"), &[("rate", &rate)]), format!("−{}", money(vat))),
            (t("credit_note.credits_back"), credits.taken.to_string()),
        ];
        if credits.spent > 0 {
            rows.push((t("credit_note.credits_spent"), credits.spent.to_string()));
        }
        rows.push((t("credit_note.refunded_total"), format!("−{}", money(refunded))));
        rows.push((t("receipt.remaining"), money((payment.amount - refunded).max(0))));
        note.title = t("credit_note.subject");
        note.intro = t("credit_note.intro");
        note.rows = rows;
        note.total_row = 3;
        let link = crate::links::absolute(base_url, link);
        let logo = site.settings.logo.as_ref().map(|logo| (crate::links::absolute(base_url, &logo.url()), logo.width, logo.height));
        let layout = ReceiptMail {
            lang: locale.code(),
            site: &site.settings.name,
            logo: logo.as_ref().map(|(url, w, h)| (url.as_str(), *w, *h)),
            greeting: &note.greeting,
            intro: &note.intro,
            rows: &note.rows,
            button: &note.button,
            link: &link,
            company: &note.company,
            footer: &note.footer,
        };
        self.outbox
            .send(Mail {
                from_name: site.settings.mail_name.clone(),
                from_address: site.settings.support_email.clone(),
                to: note.email.clone(),
                subject: note.title.clone(),
                text: layout.text(),
                html: layout.html(),
                unsubscribe: None,
            })
            .await
    }

    pub async fn mail_receipt(&self, site: &Site, base_url: &str, user_id: i64, payment: &PaymentView, link: &str) -> Result<(), AppError> {
        let receipt = self.receipt(site, user_id, payment).await?;
        let link = crate::links::absolute(base_url, link);
        let logo = site.settings.logo.as_ref().map(|logo| (crate::links::absolute(base_url, &logo.url()), logo.width, logo.height));
        let layout = ReceiptMail {
            lang: receipt.locale.code(),
            site: &site.settings.name,
            logo: logo.as_ref().map(|(url, w, h)| (url.as_str(), *w, *h)),
            greeting: &receipt.greeting,
            intro: &receipt.intro,
            rows: &receipt.rows,
            button: &receipt.button,
            link: &link,
            company: &receipt.company,
            footer: &receipt.footer,
        };
        self.outbox
            .send(Mail {
                from_name: site.settings.mail_name.clone(),
                from_address: site.settings.support_email.clone(),
                to: receipt.email.clone(),
                subject: receipt.title.clone(),
                text: layout.text(),
                html: layout.html(),
                unsubscribe: None,
            })
            .await
    }
}
