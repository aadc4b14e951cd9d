//! The receipt mail of a paid payment: what was bought, what it cost with the VAT in it, and
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

impl Accounts {
    /// Mails the member the receipt of `payment`; `link` is the payment's page (a path).
    pub async fn mail_receipt(&self, site: &Site, base_url: &str, user_id: i64, payment: &PaymentView, link: &str) -> Result<(), AppError> {
        let row = sqlx::query("SELECT u.email, u.language, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1").bind(user_id).fetch_one(self.db().pool()).await?;
        let email: String = row.try_get("email")?;
        let name: String = row.try_get("name")?;
        let locale = domain::Locale::parse(&row.try_get::<String, _>("language")?).unwrap_or(domain::Locale::DEFAULT);
        let comma = !matches!(locale, domain::Locale::En);
        let money = |minor: i64| format_money(minor, &payment.currency, comma);
        let credits = payment.credits.to_string();
        let vars = [("site", site.settings.name.as_str()), ("name", name.as_str()), ("credits", credits.as_str())];
        let t = |key: &str| domain::i18n::interpolate(&self.catalog.t(locale, key), &vars);
        let date = domain::date::from_unix(payment.paid_at.unwrap_or(payment.created_at));
        let method = payment.method.label_key().map(|k| t(k)).unwrap_or_else(|| payment.method.brand_name().to_string());
        let rate = domain::checkout::format_rate(payment.vat_rate_bp, comma);
        let mut rows = vec![
            (t("receipt.order"), format!("#{}", payment.id)),
            (t("receipt.date"), format!("{:04}-{:02}-{:02}", date.year, date.month, date.day)),
            (t("receipt.bundle"), t("receipt.bundle_value")),
            (t("receipt.method"), method),
        ];
        if let Some(code) = &payment.discount_code {
            rows.push((t("receipt.list_price"), money(payment.list_price)));
            rows.push((t("receipt.discount"), format!("{code} −{}%", payment.discount_percent)));
        }
        rows.push((t("receipt.total"), money(payment.amount)));
        rows.push((domain::i18n::interpolate(&t("receipt.vat"), &[("rate", &rate)]), money(vat_part(payment.amount, payment.vat_rate_bp))));
        let c = &site.company;
        let mut company = vec![c.name.clone(), c.address.clone(), format!("{} {}", c.postal_code, c.city), c.country.clone(), format!("{} {}", t("receipt.kvk"), c.kvk)];
        if !c.vat_numbers.is_empty() {
            company.push(format!("{} {}", t("receipt.vat_number"), c.vat_numbers.join(", ")));
        }
        let (greeting, intro, button, footer) = (t("mail.greeting"), t("receipt.intro"), t("receipt.button"), t("receipt.footer"));
        let link = crate::links::absolute(base_url, link);
        let layout = ReceiptMail { lang: locale.code(), greeting: &greeting, intro: &intro, rows: &rows, button: &button, link: &link, company: &company, footer: &footer };
        self.outbox
            .send(Mail {
                from_name: site.settings.mail_name.clone(),
                from_address: site.settings.support_email.clone(),
                to: email,
                subject: t("receipt.subject"),
                text: layout.text(),
                html: layout.html(),
                unsubscribe: None,
            })
            .await
    }
}
