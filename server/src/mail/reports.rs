//! Bounces and spam complaints as they come back, by the two common routes besides our own JSON:
//!
//! - **Mail** to a bounce mailbox: RFC 3464 delivery status notifications (a hard bounce is an
//!   `Action: failed` with a `5.x.x` status; delays and `4.x.x` are not) and RFC 5965 abuse
//!   reports (`Feedback-Type: abuse`, the complaint loops of the large mailbox providers). The
//!   mail server hands each message to `vonk mail-report` (Postfix `pipe`, procmail, a
//!   fetchmail `mda`; docs/operations.md).
//! - **Amazon SES** notifications, through SNS or SES's own event publishing, at
//!   `POST /api/mail-events` beside our own `{"event", "email"}`.
//!
//! Each report names addresses and why; `Accounts::mail_event` then switches notification mail
//! off for every account with that address (SPEC §4).

use crate::accounts::DisabledReason;

/// One address a report is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailReport {
    pub address: String,
    pub reason: DisabledReason,
    /// The `Message-ID` of the mail a complaint is about, where the report quotes it (a
    /// lifecycle mail's complaint then counts against its kind).
    pub message_id: Option<String>,
}

/// The reports in one returned mail (empty when it is neither a hard bounce nor a complaint:
/// a delay, an auto-reply, anything else).
pub fn parse_mail(message: &str) -> Vec<MailReport> {
    let lines = unfold(message);
    let lower: Vec<String> = lines.iter().map(|l| l.to_ascii_lowercase()).collect();
    let field = |line: &str, name: &str| -> Option<String> {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_string())
    };
    let mut reports = Vec::new();
    let is_feedback = lower.iter().any(|l| l.starts_with("feedback-type:") && (l.contains("abuse") || l.contains("fraud")));
    if is_feedback {
        // The original recipient: `Original-Rcpt-To`, else the `To:` of the returned message
        // (it follows the feedback fields; the report's own `To:` is our abuse mailbox).
        let start = lower.iter().position(|l| l.starts_with("feedback-type:")).unwrap_or(0);
        let address =
            lines.iter().find_map(|l| field(l, "Original-Rcpt-To")).or_else(|| lines[start..].iter().find_map(|l| field(l, "To"))).and_then(|v| address_in(&v));
        let message_id = lines[start..].iter().find_map(|l| field(l, "Message-ID")).and_then(|v| message_id_in(&v));
        if let Some(address) = address {
            reports.push(MailReport { address, reason: DisabledReason::Spam, message_id });
        }
        return reports;
    }
    // Delivery status: per-recipient blocks of fields, separated by blank lines.
    for block in lines.split(|l| l.trim().is_empty()) {
        let recipient = block.iter().find_map(|l| field(l, "Final-Recipient").or_else(|| field(l, "Original-Recipient")));
        let action = block.iter().find_map(|l| field(l, "Action")).map(|a| a.to_ascii_lowercase());
        let status = block.iter().find_map(|l| field(l, "Status"));
        let (Some(recipient), Some(action), Some(status)) = (recipient, action, status) else { continue };
        if action == "failed" && status.starts_with('5') {
            if let Some(address) = address_in(recipient.split_once(';').map_or(recipient.as_str(), |(_, a)| a)) {
                if !reports.iter().any(|r: &MailReport| r.address == address) {
                    reports.push(MailReport { address, reason: DisabledReason::Bounce, message_id: None });
                }
            }
        }
    }
    reports
}

/// The reports in an Amazon SES notification: SNS's envelope (`{"Type": "Notification",
/// "Message": "<the SES JSON>"}`) or SES's own event (`notificationType` or `eventType`).
/// Permanent bounces and complaints count; transient bounces do not.
pub fn parse_ses(body: &serde_json::Value) -> Vec<MailReport> {
    let inner;
    let event = match body.get("Message").and_then(|m| m.as_str()) {
        Some(message) => {
            inner = serde_json::from_str::<serde_json::Value>(message).unwrap_or_default();
            &inner
        }
        None => body,
    };
    let kind = event.get("notificationType").or_else(|| event.get("eventType")).and_then(|k| k.as_str()).unwrap_or_default();
    let list = |part: &str, recipients: &str| -> Vec<String> {
        event
            .get(part)
            .and_then(|p| p.get(recipients))
            .and_then(|r| r.as_array())
            .map(|r| r.iter().filter_map(|x| x.get("emailAddress").and_then(|a| a.as_str())).filter_map(address_in).collect())
            .unwrap_or_default()
    };
    match kind {
        "Bounce" if event.get("bounce").and_then(|b| b.get("bounceType")).and_then(|t| t.as_str()) == Some("Permanent") => {
            list("bounce", "bouncedRecipients").into_iter().map(|address| MailReport { address, reason: DisabledReason::Bounce, message_id: None }).collect()
        }
        "Complaint" => {
            // The original mail's own `Message-ID` (SES's `mail.messageId` is SES's id).
            let message_id = event.pointer("/mail/commonHeaders/messageId").and_then(|m| m.as_str()).and_then(message_id_in);
            list("complaint", "complainedRecipients")
                .into_iter()
                .map(|address| MailReport { address, reason: DisabledReason::Spam, message_id: message_id.clone() })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// An SNS subscription's confirmation link, which the site's owner opens once by hand (Vonk
/// never fetches an address a request names).
pub fn sns_subscribe_url(body: &serde_json::Value) -> Option<&str> {
    (body.get("Type").and_then(|t| t.as_str()) == Some("SubscriptionConfirmation")).then(|| body.get("SubscribeURL").and_then(|u| u.as_str())).flatten()
}

/// Header lines joined with their continuations.
fn unfold(message: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in message.lines() {
        match lines.last_mut() {
            Some(last) if (line.starts_with(' ') || line.starts_with('\t')) && !last.trim().is_empty() => {
                last.push(' ');
                last.push_str(line.trim());
            }
            _ => lines.push(line.trim_end().to_string()),
        }
    }
    lines
}

/// A `Message-ID` as we write them (`<token@domain>`), angle brackets and all; none for
/// anything longer or stranger.
fn message_id_in(text: &str) -> Option<String> {
    let text = text.trim();
    let inner = text.strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or(text);
    let plausible = !inner.is_empty()
        && inner.len() <= 200
        && inner.contains('@')
        && inner.chars().all(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>' | '"' | ',' | ';'));
    plausible.then(|| format!("<{inner}>"))
}

/// The address in `text` (`Anna <anna@example.nl>`, `<anna@example.nl>` or the bare address),
/// lower-cased; none when it does not look like one.
fn address_in(text: &str) -> Option<String> {
    let text = text.trim();
    let inner = match (text.rfind('<'), text.rfind('>')) {
        (Some(open), Some(close)) if open < close => &text[open + 1..close],
        _ => text,
    };
    let address = inner.trim().to_ascii_lowercase();
    let (local, domain) = address.split_once('@')?;
    let plausible = !local.is_empty()
        && domain.contains('.')
        && address.len() <= 254
        && !address.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | ',' | ';'));
    plausible.then_some(address)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DSN: &str = "From: MAILER-DAEMON@mx.example.com\r\nTo: bounces@vonk.nl\r\nSubject: Undelivered Mail Returned to Sender\r\n\
Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\n\
I'm sorry to have to inform you that your message could not be delivered.\r\n\r\n--b1\r\nContent-Type: message/delivery-status\r\n\r\n\
Reporting-MTA: dns; mx.example.com\r\nArrival-Date: Sun, 29 Nov 2026 12:00:00 +0100\r\n\r\n\
Final-Recipient: rfc822; Anna@Example.NL\r\nOriginal-Recipient: rfc822;anna@example.nl\r\nAction: failed\r\nStatus: 5.1.1\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <anna@example.nl>: Recipient address rejected:\r\n    User unknown in virtual mailbox table\r\n\r\n\
Final-Recipient: rfc822; bert@example.nl\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\n--b1--\r\n";

    #[test]
    fn a_hard_bounce_names_its_recipient_and_a_delay_nothing() {
        assert_eq!(parse_mail(DSN), vec![MailReport { address: "anna@example.nl".into(), reason: DisabledReason::Bounce, message_id: None }]);
        let soft = DSN.replace("Action: failed\r\nStatus: 5.1.1", "Action: failed\r\nStatus: 4.2.2");
        assert!(parse_mail(&soft).is_empty(), "a full mailbox is not a dead address");
        assert!(parse_mail("Subject: Out of office\r\n\r\nI am away until Monday.").is_empty());
    }

    #[test]
    fn an_abuse_report_names_the_original_recipient() {
        let arf = "From: fbl@mailbox.example\r\nTo: abuse@vonk.nl\r\nContent-Type: multipart/report; report-type=feedback-report; boundary=\"b\"\r\n\r\n\
--b\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\nUser-Agent: FBL/1.0\r\nVersion: 1\r\n\r\n\
--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Vonk <support@vonk.nl>\r\nTo: Carla <Carla@Example.nl>\r\nSubject: Nieuw bericht\r\n\
Message-ID:\r\n <abc123@vonk.nl>\r\n\r\n--b--\r\n";
        assert_eq!(
            parse_mail(arf),
            vec![MailReport { address: "carla@example.nl".into(), reason: DisabledReason::Spam, message_id: Some("<abc123@vonk.nl>".into()) }]
        );
        let with_rcpt = arf.replace("Version: 1\r\n", "Version: 1\r\nOriginal-Rcpt-To: dirk@example.nl\r\n");
        assert_eq!(parse_mail(&with_rcpt)[0].address, "dirk@example.nl");
    }

    #[test]
    fn ses_permanent_bounces_and_complaints_count_through_sns_or_not() {
        let bounce = serde_json::json!({"notificationType": "Bounce", "bounce": {"bounceType": "Permanent", "bouncedRecipients": [{"emailAddress": "Anna@example.nl"}, {"emailAddress": "not an address"}]}});
        assert_eq!(parse_ses(&bounce), vec![MailReport { address: "anna@example.nl".into(), reason: DisabledReason::Bounce, message_id: None }]);
        let sns = serde_json::json!({"Type": "Notification", "Message": bounce.to_string()});
        assert_eq!(parse_ses(&sns).len(), 1);
        let transient =
            serde_json::json!({"eventType": "Bounce", "bounce": {"bounceType": "Transient", "bouncedRecipients": [{"emailAddress": "a@example.nl"}]}});
        assert!(parse_ses(&transient).is_empty());
        let complaint = serde_json::json!({"eventType": "Complaint", "complaint": {"complainedRecipients": [{"emailAddress": "b@example.nl"}]},
            "mail": {"messageId": "0100-ses-id", "commonHeaders": {"messageId": "<x9@vonk.nl>"}}});
        assert_eq!(
            parse_ses(&complaint),
            vec![MailReport { address: "b@example.nl".into(), reason: DisabledReason::Spam, message_id: Some("<x9@vonk.nl>".into()) }]
        );
        assert_eq!(message_id_in("<a b@c>"), None);
        assert!(parse_ses(&serde_json::json!({"Type": "Notification", "Message": "<not json>"})).is_empty());
        let confirm = serde_json::json!({"Type": "SubscriptionConfirmation", "SubscribeURL": "https://sns.example/confirm"});
        assert_eq!(sns_subscribe_url(&confirm), Some("https://sns.example/confirm"));
        assert!(parse_ses(&confirm).is_empty());
    }

    #[test]
    fn only_plausible_addresses_are_taken() {
        assert_eq!(address_in("Anna <ANNA@example.nl>").as_deref(), Some("anna@example.nl"));
        for bad in ["", "anna", "anna@localhost", "a b@example.nl", "<>", "a@b.nl>\r\nBcc: x@y.nl"] {
            assert_eq!(address_in(bad), None, "{bad:?}");
        }
    }
}
