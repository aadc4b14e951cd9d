//! The layouts of our mails, made with maud (HTML escaped by the template, checked when
//! compiling). Texts come translated from the caller; this module only arranges them.

use maud::{html, DOCTYPE};

/// A mail with a greeting, a paragraph, one button and a footer, and, for mails that go to a
/// member about notifications, an unsubscribe link.
#[derive(Debug, Clone)]
pub struct LinkMail<'a> {
    pub lang: &'a str,
    pub greeting: &'a str,
    pub body: &'a str,
    pub button: &'a str,
    pub link: &'a str,
    pub footer: &'a str,
    /// (url, label)
    pub unsubscribe: Option<(&'a str, &'a str)>,
}

const PRIMARY: &str = "#8b0d1a";
const MUTED: &str = "#6b5f63";

impl LinkMail<'_> {
    pub fn html(&self) -> String {
        html! {
            (DOCTYPE)
            html lang=(self.lang) {
                body style="font-family:system-ui,sans-serif;color:#1f1a1c" {
                    p { (self.greeting) }
                    p { (self.body) }
                    p {
                        a href=(self.link) style={ "display:inline-block;padding:12px 22px;border-radius:999px;background:" (PRIMARY) ";color:#fff;text-decoration:none;font-weight:700" } {
                            (self.button)
                        }
                    }
                    p style={ "color:" (MUTED) ";font-size:13px" } { (self.footer) }
                    @if let Some((url, label)) = self.unsubscribe {
                        p style={ "color:" (MUTED) ";font-size:12px" } {
                            a href=(url) style={ "color:" (MUTED) } { (label) }
                        }
                    }
                }
            }
        }
        .into_string()
    }

    pub fn text(&self) -> String {
        let mut text = format!("{}\n\n{}\n\n{}: {}\n\n{}\n", self.greeting, self.body, self.button, self.link, self.footer);
        if let Some((url, label)) = self.unsubscribe {
            text.push_str(&format!("\n{label}: {url}\n"));
        }
        text
    }
}

/// A receipt: a greeting, a line of thanks, the order as a table, a button to the payment, and
/// the company that sold it (name, address, registration and VAT numbers).
#[derive(Debug, Clone)]
pub struct ReceiptMail<'a> {
    pub lang: &'a str,
    /// The site's name: the heading, or the logo's alternative text.
    pub site: &'a str,
    /// The site's uploaded logo: absolute address, width, height.
    pub logo: Option<(&'a str, u32, u32)>,
    pub greeting: &'a str,
    pub intro: &'a str,
    /// (label, value)
    pub rows: &'a [(String, String)],
    pub button: &'a str,
    pub link: &'a str,
    pub company: &'a [String],
    pub footer: &'a str,
}

impl ReceiptMail<'_> {
    pub fn html(&self) -> String {
        html! {
            (DOCTYPE)
            html lang=(self.lang) {
                body style="font-family:system-ui,sans-serif;color:#1f1a1c" {
                    @match self.logo {
                        Some((src, width, height)) => {
                            p { img src=(src) alt=(self.site) width=(width) height=(height) style="max-width:240px;height:auto"; }
                        }
                        None => {
                            p style={ "font-size:22px;font-weight:800;color:" (PRIMARY) } { (self.site) }
                        }
                    }
                    p { (self.greeting) }
                    p { (self.intro) }
                    table style="border-collapse:collapse;margin:12px 0" {
                        @for (label, value) in self.rows {
                            tr {
                                th style="text-align:left;padding:4px 16px 4px 0;font-weight:600" { (label) }
                                td style="padding:4px 0" { (value) }
                            }
                        }
                    }
                    p {
                        a href=(self.link) style={ "display:inline-block;padding:12px 22px;border-radius:999px;background:" (PRIMARY) ";color:#fff;text-decoration:none;font-weight:700" } {
                            (self.button)
                        }
                    }
                    p style={ "color:" (MUTED) ";font-size:13px" } {
                        @for (i, line) in self.company.iter().enumerate() {
                            @if i > 0 { br; }
                            (line)
                        }
                    }
                    p style={ "color:" (MUTED) ";font-size:13px" } { (self.footer) }
                }
            }
        }
        .into_string()
    }

    pub fn text(&self) -> String {
        let mut text = format!("{}\n\n{}\n\n", self.greeting, self.intro);
        for (label, value) in self.rows {
            text.push_str(&format!("{label}: {value}\n"));
        }
        text.push_str(&format!("\n{}: {}\n\n{}\n\n{}\n", self.button, self.link, self.company.join("\n"), self.footer));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_escaped_and_the_link_is_kept() {
        let mail = LinkMail {
            lang: "nl",
            greeting: "Hoi <b>Anna</b>",
            body: "Klik & ga",
            button: "Activeer",
            link: "https://vonk.nl/activate?token=ab\"cd",
            footer: "Groet",
            unsubscribe: Some(("https://vonk.nl/unsubscribe?token=x", "Afmelden")),
        };
        let html = mail.html();
        assert!(html.starts_with("<!DOCTYPE html><html lang=\"nl\">"));
        assert!(html.contains("Hoi &lt;b&gt;Anna&lt;/b&gt;") && html.contains("Klik &amp; ga"));
        assert!(html.contains("href=\"https://vonk.nl/activate?token=ab&quot;cd\""));
        assert!(html.contains("Afmelden"));
        assert!(mail.text().contains("Activeer: https://vonk.nl/activate?token=ab\"cd") && mail.text().contains("Afmelden: https://vonk.nl/unsubscribe"));
        let plain = LinkMail { unsubscribe: None, ..mail };
        assert!(!plain.html().contains("Afmelden"));
    }
}
