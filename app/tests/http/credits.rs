//! Pricing and buying credits: the test provider, direct debit.

use super::*;

#[tokio::test]
async fn pricing_lists_packs_and_mounts_the_payment_widget() {
    let app = start().await;
    let (status, _, html) = app.get("/pricing", &[]).await;
    assert_eq!(status, StatusCode::OK);
    for credits in ["25", "60", "150", "400"] {
        assert!(html.contains(&format!(r#"data-credits="{credits}""#)));
    }
    assert!(html.contains("€ 9,95") && html.contains("€ 19,95"));
    assert!(html.contains("Meest gekozen"));
    assert!(html.contains(r#"data-widget="PaymentMethodBlocks""#));
    let (_, _, html) = app.get("/pricing", &[("cookie", "i18n_redirected=en")]).await;
    assert!(html.contains("€ 9.95"), "English uses a decimal point");
}

#[tokio::test]
async fn buying_credits_through_the_test_provider_over_http() {
    let app = start_in("BE").await;
    let origin = app.origin();
    let anna = signed_up(&app, "anna@example.nl").await;
    let html = |path: &'static str, cookie: String| {
        let app = &app;
        async move { app.get(path, &[("cookie", &cookie), ("accept", "text/html")]).await }
    };

    // Visitors are sent to log in; members see the bundles with the time bonus applied.
    let (status, headers, _) = app.get("/credits", &[("accept", "text/html")]).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/login?return_to=/credits");
    let (status, _, page) = html("/credits", anna.clone()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Tijdbonus: 25% korting") && page.contains("€ 14,96") && page.contains("Normaal € 19,95") && page.contains("incl. 21% btw"),
        "{page}"
    );
    // The time-bonus banner is in the member area, not on /credits.
    let (_, _, members) = html("/members", anna.clone()).await;
    assert!(members.contains(r#"data-testid="time-bonus""#) && (members.contains("04:00:00") || members.contains("03:59:")), "the banner with its countdown");
    // A code that does not exist, and one that does (40 % beats the bonus from 60 credits up).
    let (_, _, page) = html("/credits?code=nope", anna.clone()).await;
    assert!(page.contains("Code niet gevonden"));
    let (_, _, page) = html("/credits?code=vonk40", anna.clone()).await;
    assert!(page.contains("40% korting met code VONK40") && page.contains("€ 11,97"), "60 credits at 40 % off");

    let pack =
        app.state.payments.packs(app.state.sites.for_host(None).unwrap().settings.id, "BE").await.unwrap().into_iter().find(|p| p.credits == 60).unwrap().id;
    let (status, _, page) = app.get(&format!("/credits/{pack}/bancontact"), &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("Betalen met Bancontact") && page.contains("PaymentMethodBlocks") && page.contains("<noscript>"),
        "a pay button, the blocks and the no-script buttons"
    );

    // A method the country does not have is refused; the price never comes from the form.
    let res =
        app.form("start_checkout", &format!("pack={pack}&method=blik"), &format!("/credits/{pack}/blik"), &[("cookie", &anna), ("origin", &origin)]).await;
    assert_eq!(refusal(&res, "start_checkout").0.code, domain::ErrorCode::MethodUnavailable);
    let res = app
        .form(
            "start_checkout",
            &format!("pack={pack}&method=bancontact&amount=1"),
            &format!("/credits/{pack}/bancontact"),
            &[("cookie", &anna), ("origin", &origin)],
        )
        .await;
    assert!(res.status() == StatusCode::FOUND, "extra fields are ignored or refused, never used");
    // Cross-origin posts are refused before anything happens.
    let res = app.form("start_checkout", &format!("pack={pack}&method=bancontact"), "/credits", &[("cookie", &anna), ("origin", "https://evil.example")]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    let res = app
        .form("start_checkout", &format!("pack={pack}&method=bancontact"), &format!("/credits/{pack}/bancontact"), &[("cookie", &anna), ("origin", &origin)])
        .await;
    let checkout = location(&res);
    assert!(checkout.starts_with("/checkout/test/tst_"), "{checkout}");
    let (status, _, page) = app.get(&checkout, &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    // The open payment above holds the time bonus: this one has the welcome discount (15 %).
    assert!(page.contains("Testbetaling") && page.contains("€ 16,96") && page.contains(r#"value="paid""#), "{page}");
    let id = checkout.trim_start_matches("/checkout/test/");
    let res = app.form("test_checkout_outcome", &format!("id={id}&outcome=paid"), &checkout, &[("cookie", &anna), ("origin", &origin)]).await;
    let result = location(&res);
    assert!(result.starts_with("/transactions/"), "{result}");
    // The result page settles the payment itself when the webhook has not come yet.
    let (status, _, page) = app.get(&result, &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Betaling gelukt!") && page.contains("60 credits zijn toegevoegd"), "{page}");
    let member = app.state.accounts.member(1).await.unwrap().unwrap();
    assert!(member.paid_user && member.credits >= 60);
    // The whole page is after the booking: the top bar shows the new balance and the premium
    // member's credits link (the repeat order, no longer /premium).
    let top_bar = &page[page.find(r#"data-testid="credits""#).expect("the top bar's credits")..];
    let top_bar = &top_bar[..top_bar.find("</a>").unwrap()];
    assert!(top_bar.contains(&format!("{} credits", member.credits)), "{top_bar}");
    let link = &page[..page.find(r#"data-testid="credits""#).unwrap()];
    assert!(link[link.rfind("<a").unwrap()..].contains(r#"href="/credits/repeat-order""#), "premium after the first bundle");
    assert!(page.contains("Je bent nu premium lid."), "said after the first bundle");
    let pdf_link = format!("/transactions/{}/receipt.pdf", payment_id(&result));
    assert!(page.contains(&format!(r#"href="{pdf_link}""#)) && page.contains("Download je betaalbewijs (PDF)"), "the receipt's download link");

    // The webhook: unknown ids and repeats answer 200 and change nothing; no cookie, no origin needed.
    for body in [format!("id={id}"), format!("id={id}"), "id=tst_unknown".to_string()] {
        let res = app.post_form("/webhooks/payments/test", &body, &[("origin", "https://api.provider.example")]).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let res = app.post_form("/webhooks/payments/test", &"x".repeat(10_000), &[]).await;
    assert!(res.status().is_client_error(), "an oversized body");
    let payment = payment_id(&result);
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE reference = $1")
        .bind(format!("payment:{payment}"))
        .fetch_one(app.state.db.pool())
        .await
        .unwrap();
    assert_eq!(n, 1);
    assert!(mails(&app).iter().any(|m| m.contains("betaalbewijs")), "a receipt mail");

    // Paid members' credits link leads to the repeat order, which starts the same checkout.
    let (_, _, page) = html("/members", anna.clone()).await;
    assert!(page.contains(r#"href="/credits/repeat-order""#) && !page.contains(r#"data-testid="time-bonus""#), "premium: no time bonus");
    let res = app.form("repeat_order", "", "/credits/repeat-order", &[("cookie", &anna), ("origin", &origin)]).await;
    let repeat = location(&res);
    assert!(repeat.starts_with("/checkout/test/tst_"));
    // While a payment is open its page asks again every 3 seconds (with or without JavaScript).
    let (open,): (i64,) = sqlx::query_as("SELECT MAX(id) FROM payments").fetch_one(app.state.db.pool()).await.unwrap();
    let (status, headers, page) = app.get(&format!("/transactions/{open}"), &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    let _ = headers;
    assert!(
        page.contains(r#"<noscript><meta http-equiv="refresh" content="3"></noscript>"#) && page.contains("PaymentWatcher"),
        "the island, and a refresh without JavaScript"
    );
    assert!(page.contains(r#"data-status="open""#) && page.contains("Verder met betalen"));
    let (_, _, page) = app.get(&result, &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(!page.contains("http-equiv=\"refresh\"") && !page.contains("PaymentWatcher"), "a settled payment's page stays put");
    // The second bundle is paid: its page does not announce premium again.
    let res = app
        .form(
            "test_checkout_outcome",
            &format!("id={}&outcome=paid", repeat.trim_start_matches("/checkout/test/")),
            &repeat,
            &[("cookie", &anna), ("origin", &origin)],
        )
        .await;
    let (_, _, page) = app.get(&location(&res), &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(page.contains("Betaling gelukt!") && !page.contains("Je bent nu premium lid."), "{page}");

    // Another member cannot see Anna's payment, nor learn that it exists.
    let bart = signed_up(&app, "bart@example.nl").await;
    let (status, _, page) = app.get(&result, &[("cookie", &bart), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!page.contains("60 credits") && !page.contains("Bancontact"));
    let res = app.call("transaction", &format!("id={payment}"), &[("cookie", &bart), ("origin", &origin)]).await;
    assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()));
    let (_, _, page) = html("/transactions", bart.clone()).await;
    assert!(page.contains("Je hebt nog geen betalingen."));

    // The receipt PDF: Anna's own; a visitor logs in first; Bart is sent to the page that
    // tells him there is nothing there; a bad id is not found.
    let (status, headers, body) = app.get(&pdf_link, &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/pdf");
    assert!(headers["content-disposition"].to_str().unwrap().starts_with("attachment;") && headers["cache-control"] == "private, no-store");
    assert!(body.starts_with("%PDF-"), "a PDF");
    let (status, headers, _) = app.get(&pdf_link, &[]).await;
    assert!(status.is_redirection());
    assert_eq!(headers["location"], format!("/login?return_to={pdf_link}"));
    let (status, headers, body) = app.get(&pdf_link, &[("cookie", &bart)]).await;
    assert!(status.is_redirection() && !body.starts_with("%PDF"));
    assert_eq!(headers["location"], result.as_str());
    let (status, _, _) = app.get("/transactions/%3Cb%3E/receipt.pdf", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}

#[tokio::test]
async fn direct_debit_over_http_forms() {
    let app = start_in("BE").await;
    let origin = app.origin();
    let anna = signed_up(&app, "anna@example.nl").await;
    let pack =
        app.state.payments.packs(app.state.sites.for_host(None).unwrap().settings.id, "BE").await.unwrap().into_iter().find(|p| p.credits == 25).unwrap().id;
    let page = format!("/directdebit?pack={pack}");
    let (status, _, html) = app.get(&page, &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"name="iban""#) && html.contains(r#"name="phone""#));

    // Not before her address is confirmed (the SMS code proves the phone, not the address):
    // refused in Dutch, no code sent.
    let res = app
        .form("start_direct_debit", &format!("pack={pack}&iban=BE68+5390+0754+7034&phone=0470+12+34+56"), &page, &[("cookie", &anna), ("origin", &origin)])
        .await;
    assert_eq!(refusal(&res, "start_direct_debit").0.code, domain::ErrorCode::AddressNotConfirmed);
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("Bevestig eerst je e-mailadres"), "the way on");
    assert!(!app._dir.path().join("sms").exists(), "no code sent");
    let link = mail_link(&app, "/activate?token=");
    app.press(&link, "activate").await;

    // A bad IBAN comes back with the Dutch text and what was typed.
    let res = app
        .form("start_direct_debit", &format!("pack={pack}&iban=NL00TEST0123456789&phone=0612345678"), &page, &[("cookie", &anna), ("origin", &origin)])
        .await;
    let (error, back) = refusal(&res, "start_direct_debit");
    assert_eq!(error.code, domain::ErrorCode::IbanInvalid);
    assert!(back.contains("iban=NL00TEST0123456789") && back.contains("phone=0612345678"), "{back}");
    let res = app
        .form("start_direct_debit", &format!("pack={pack}&iban=BE68+5390+0754+7034&phone=0470+12+34+56"), &page, &[("cookie", &anna), ("origin", &origin)])
        .await;
    let (to, html) = app.follow(&res, &anna).await;
    assert!(to.contains("&order="), "{to}");
    assert!(html.contains("We hebben een code gestuurd naar") && html.contains(r#"name="sms_code""#));
    let order: i64 = to.split("order=").nth(1).unwrap().split('&').next().unwrap().parse().unwrap();
    let sms_dir = app._dir.path().join("sms");
    let text = std::fs::read_dir(&sms_dir).unwrap().map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).next().unwrap();
    assert!(text.starts_with("To: +32470123456"), "{text}");
    let code: String = text.split("\n\n").nth(1).unwrap().chars().filter(|c| c.is_ascii_digit()).take(6).collect();
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let res = app.form("confirm_direct_debit", &format!("pack={pack}&order={order}&sms_code={wrong}"), &to, &[("cookie", &anna), ("origin", &origin)]).await;
    let (error, _) = refusal(&res, "confirm_direct_debit");
    assert_eq!(error.code, domain::ErrorCode::SmsCodeInvalid);
    let res = app.form("confirm_direct_debit", &format!("pack={pack}&order={order}&sms_code={code}"), &to, &[("cookie", &anna), ("origin", &origin)]).await;
    let (result, html) = app.follow(&res, &anna).await;
    assert!(result.starts_with("/transactions/") && html.contains("Betaling gelukt!"), "{result}");
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}

/// Staff find a payment, read its timeline and the sales report (page and CSV); the search
/// fields keep what was typed, escaped; members get not-found.
#[tokio::test]
async fn staff_see_payments_their_timeline_and_the_sales_report() {
    let app = start().await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let site = app.state.sites.for_host(None).unwrap();
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let member = app.state.accounts.member(anna_id).await.unwrap().unwrap();
    let pack = app.state.payments.packs(site.settings.id, "NL").await.unwrap().into_iter().find(|p| p.credits == 25).unwrap().id;
    let now = app.state.clock.now();
    let started = app.state.payments.start_checkout(&site, &member, pack, domain::payment::PaymentMethod::Ideal, None, "NL", "nl", now).await.unwrap();
    let (tr,): (String,) =
        sqlx::query_as("SELECT provider_id FROM payments WHERE id = $1").bind(started.payment_id).fetch_one(app.state.db.pool()).await.unwrap();
    app.state.payments.test_provider().unwrap().choose(&tr, domain::checkout::PaymentStatus::Paid).await.unwrap();
    app.state.payments.webhook("test", &tr, now).await.unwrap();

    let (status, _, page) = app.get("/staff/payments", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#"data-testid="payment-row""#) && page.contains("anna@example.nl") && page.contains("Betaald"), "{page}");
    assert!(page.contains(r#"data-testid="sales-row""#) && page.contains("Nederland") && page.contains("21%"));
    // A search: found by address; markup in the fields stays text.
    let (_, _, page) = app.get("/staff/payments?member=anna%40example.nl&status=paid&method=ideal", &[("cookie", &staff)]).await;
    assert!(page.contains(&format!("#{}", started.payment_id)));
    let (status, _, page) =
        app.get("/staff/payments?member=%3Cscript%3Ealert(1)%3C%2Fscript%3E&payment=x&status=%3Cb%3E&from=nope&period=2026-13", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!page.contains("<script>alert(1)") && page.contains(r#"data-testid="payments-none""#));
    // One payment's timeline.
    let (_, _, page) = app.get(&format!("/staff/payments?id={}", started.payment_id), &[("cookie", &staff)]).await;
    assert!(page.contains(r#"data-testid="payment-timeline""#) && page.contains("Aangemaakt") && page.contains("25 credits bijgeschreven"), "{page}");

    // The report as CSV, for staff only.
    let period = domain::sales::Period::month_of(now).code();
    let (status, headers, csv) = app.get(&format!("/staff/payments/sales.csv?period={period}"), &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/csv"));
    assert!(csv.starts_with("period,country,vat_rate_percent") && csv.contains(&format!("{period},NL,21,EUR,1,")), "{csv}");
    let (status, _, _) = app.get("/staff/payments/sales.csv", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, _, page) = app.get("/staff/payments", &[("cookie", &anna)]).await;
    assert!(!page.contains("anna@example.nl") || !page.contains(r#"data-testid="payment-row""#));
}

/// Staff refund part of a payment from its timeline (the form's key makes a replay the same
/// refund), then the rest; the member sees it in `/transactions` and on the payment's page;
/// a lying amount, a member's post and a post from another site change nothing.
#[tokio::test]
async fn staff_refund_a_payment_and_the_member_sees_it() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let site = app.state.sites.for_host(None).unwrap();
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let member = app.state.accounts.member(anna_id).await.unwrap().unwrap();
    let pack = app.state.payments.packs(site.settings.id, "NL").await.unwrap().into_iter().find(|p| p.credits == 25).unwrap().id;
    let now = app.state.clock.now();
    let started = app.state.payments.start_checkout(&site, &member, pack, domain::payment::PaymentMethod::Ideal, None, "NL", "nl", now).await.unwrap();
    let id = started.payment_id;
    let (tr, amount): (String, i64) =
        sqlx::query_as("SELECT provider_id, amount FROM payments WHERE id = $1").bind(id).fetch_one(app.state.db.pool()).await.unwrap();
    app.state.payments.test_provider().unwrap().choose(&tr, domain::checkout::PaymentStatus::Paid).await.unwrap();
    app.state.payments.webhook("test", &tr, now).await.unwrap();

    // The timeline carries the refund form with its key.
    let page = format!("/staff/payments?id={id}");
    let (_, _, html) = app.get(&page, &[("cookie", &staff)]).await;
    assert!(html.contains(r#"data-testid="refund-form""#), "{html}");
    let key_at = html.find(r#"name="key" value=""#).expect("the form's key") + r#"name="key" value=""#.len();
    let key = &html[key_at..key_at + 64];
    assert!(key.bytes().all(|b| b.is_ascii_hexdigit()));

    // A lying amount, markup, and amounts that would need a guess (`0,001` once refunded
    // € 1,00): refused with the Dutch text, nothing booked.
    for typed in ["%3Cb%3E5%3C%2Fb%3E", "0%2C001", "1.000%2C5", "1.000"] {
        let res = app
            .form("staff_refund_payment", &format!("payment={id}&amount={typed}&reason=&key={key}"), &page, &[("cookie", &staff), ("origin", &origin)])
            .await;
        let (error, _) = refusal(&res, "staff_refund_payment");
        assert_eq!(error.code, domain::ErrorCode::AmountInvalid, "{typed}");
        let (_, html) = app.follow(&res, &staff).await;
        assert!(html.contains("Vul een bedrag in zoals 12,50"), "{typed}");
    }
    let res = app.form("staff_refund_payment", &format!("payment={id}&amount=0&reason=&key={key}"), &page, &[("cookie", &staff), ("origin", &origin)]).await;
    assert_eq!(refusal(&res, "staff_refund_payment").0.code, domain::ErrorCode::RefundAmountInvalid, "nothing to refund");
    // A member, and a post from elsewhere: nothing.
    let res = app.form("staff_refund_payment", &format!("payment={id}&amount=&reason=&key={key}"), &page, &[("cookie", &anna), ("origin", &origin)]).await;
    assert_eq!(refusal(&res, "staff_refund_payment").0.code, domain::ErrorCode::NotFound);
    let res = app
        .form("staff_refund_payment", &format!("payment={id}&amount=&reason=&key={key}"), &page, &[("cookie", &staff), ("origin", "https://evil.example")])
        .await;
    assert!(res.status().is_client_error() || res.status() == StatusCode::FOUND);
    let (refunded,): (i64,) = sqlx::query_as("SELECT refunded FROM payments WHERE id = $1").bind(id).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(refunded, 0);

    // Half, with markup in the reason; sent twice, refunded once.
    let half = amount / 2;
    let typed = format!("{},{:02}", half / 100, half % 100);
    let body = format!("payment={id}&amount={typed}&reason=%3Cscript%3Ealert(1)%3C%2Fscript%3E&key={key}");
    let res = app.form("staff_refund_payment", &body, &page, &[("cookie", &staff), ("origin", &origin)]).await;
    let (to, html) = app.follow(&res, &staff).await;
    assert!(to.contains("refund=done"), "{to}");
    assert!(html.contains(r#"data-testid="refund-result""#) && html.contains("terugbetaald"), "{html}");
    assert!(!html.contains("<script>alert(1)") && html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let res = app.form("staff_refund_payment", &body, &page, &[("cookie", &staff), ("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    let (rows, refunded): (i64, i64) = sqlx::query_as("SELECT COUNT(*), CAST(SUM(amount) AS BIGINT) FROM refunds WHERE payment_id = $1")
        .bind(id)
        .fetch_one(app.state.db.pool())
        .await
        .unwrap();
    assert_eq!((rows, refunded), (1, half));

    // The member sees the part refunded; then staff refund the rest with a new form.
    let (_, _, list) = app.get("/transactions", &[("cookie", &anna)]).await;
    assert!(list.contains(r#"data-testid="refunded""#) && list.contains("terugbetaald"), "{list}");
    let (_, _, html) = app.get(&page, &[("cookie", &staff)]).await;
    let key_at = html.find(r#"name="key" value=""#).unwrap() + r#"name="key" value=""#.len();
    let second = html[key_at..key_at + 64].to_string();
    assert_ne!(second, key);
    let res = app.form("staff_refund_payment", &format!("payment={id}&amount=&reason=&key={second}"), &page, &[("cookie", &staff), ("origin", &origin)]).await;
    let (_, html) = app.follow(&res, &staff).await;
    assert!(!html.contains(r#"data-testid="refund-form""#), "nothing left to refund");
    let (_, _, list) = app.get("/transactions", &[("cookie", &anna)]).await;
    assert!(list.contains("status--refunded") && list.contains("Terugbetaald"), "{list}");
    let (_, _, result) = app.get(&format!("/transactions/{id}"), &[("cookie", &anna)]).await;
    assert!(result.contains(r#"data-status="refunded""#), "{result}");
    assert!(server::credits::reconcile(&app.state.db).await.unwrap().is_empty());
}

/// The time bonus and the welcome discount say what is true for this member now and what
/// follows, on `/credits`, in the banner and modal, and at checkout (`domain::offers`), under
/// each combination of the site's settings.
#[tokio::test]
async fn offers_say_what_is_true_now_and_what_follows() {
    let app = start_in("NL").await;
    let origin = app.origin();
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let set = |tb: (i64, i64), welcome: (i64, i64)| {
        let (app, origin, staff) = (&app, &origin, &staff);
        async move {
            let body = format!(
                "message_credits=10&photo_credits=15&gift_credits=20&signup_credits=0&free_messages=3&message_length=1000&welcome_discount_percent={}&welcome_discount_hours={}&time_bonus_percent={}&time_bonus_hours={}&refund_days=14&direct_debit_monthly_limit=150",
                welcome.0, welcome.1, tb.0, tb.1
            );
            let res = app.form("staff_site_credits", &body, "/staff/site", &[("origin", origin), ("cookie", staff)]).await;
            assert_eq!(location(&res), "/staff/site?saved=credits#credits", "{body}");
        }
    };
    let page = |path: &'static str, cookie: String| {
        let app = &app;
        async move { app.get(path, &[("cookie", &cookie), ("accept", "text/html")]).await.2 }
    };
    let banner = r#"data-testid="time-bonus""#;
    // The seconds a countdown right after `prefix` shows ("… · nog 03:59:58").
    let left = |page: &str, prefix: &str| -> i64 {
        let at = page.find(prefix).unwrap_or_else(|| panic!("{prefix:?} in {page}")) + prefix.len();
        let hms: Vec<i64> = page[at..at + 8].split(':').map(|n| n.parse().unwrap()).collect();
        hms[0] * 3600 + hms[1] * 60 + hms[2]
    };
    // Members who signed up `hours` ago (the server's clock is the real one).
    let backdate = |email: &'static str, hours: i64| {
        let app = &app;
        async move {
            sqlx::query("UPDATE users SET signup_date = signup_date - $1 WHERE email = $2")
                .bind(hours * 3600)
                .bind(email)
                .execute(app.state.db.pool())
                .await
                .unwrap();
            let id: (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = $1").bind(email).fetch_one(app.state.db.pool()).await.unwrap();
            app.state.accounts.member_cache().forget(id.0);
        }
    };

    // The defaults (SPEC §4): 25 % for 4 hours, then the welcome discount's 15 % until 48 hours.
    let anna = signed_up(&app, "anna@example.nl").await;
    let credits = page("/credits", anna.clone()).await;
    assert!((4 * 3600 - 10..=4 * 3600).contains(&left(&credits, "Tijdbonus: 25% korting · nog ")));
    assert!(credits.contains(". Daarna 15% korting, nog 44 uur lang."), "{credits}");
    let members = page("/members", anna.clone()).await;
    assert!(members.contains(banner) && members.contains("Daarna is het 15%, nog 44 uur lang."), "the modal says what follows");
    assert!(!members.contains("Alleen de eerste"), "no false deadline");

    // Five hours later: the welcome discount, how long it still runs, nothing after it; no banner.
    backdate("anna@example.nl", 5).await;
    let credits = page("/credits", anna.clone()).await;
    assert!((43 * 3600 - 10..=43 * 3600).contains(&left(&credits, "Welkomstkorting: 15% op je credits · nog ")));
    assert!(!credits.contains("Daarna"), "{credits}");
    assert!(!page("/members", anna.clone()).await.contains(banner));
    // Past 48 hours: no offer at all, full prices.
    backdate("anna@example.nl", 43).await;
    let credits = page("/credits", anna.clone()).await;
    assert!(!credits.contains("Welkomstkorting") && !credits.contains("Tijdbonus"), "{credits}");

    // A welcome discount that lasts whole days is said in days.
    set((25, 4), (15, 52)).await;
    let bea = signed_up(&app, "bea@example.nl").await;
    assert!(page("/credits", bea.clone()).await.contains("Daarna 15% korting, nog 2 dagen lang."));

    // No welcome discount: now "only the first 4 hours" is true, and the modal says so.
    set((25, 4), (0, 48)).await;
    let cor = signed_up(&app, "cor@example.nl").await;
    let members = page("/members", cor.clone()).await;
    assert!(members.contains("Alleen de eerste 4 uur na je aanmelding krijg je 25% korting op je credits."), "the deadline is true now");
    let credits = page("/credits", cor.clone()).await;
    assert!((4 * 3600 - 10..=4 * 3600).contains(&left(&credits, "Tijdbonus: 25% korting · nog ")) && !credits.contains("Daarna"), "{credits}");
    // One hour: the singular form.
    set((30, 1), (0, 48)).await;
    let dirk = signed_up(&app, "dirk@example.nl").await;
    assert!(page("/members", dirk.clone()).await.contains("Alleen in het eerste uur na je aanmelding krijg je 30% korting"));

    // No time bonus: the welcome discount from signup, no banner, no countdown modal.
    set((0, 4), (40, 72)).await;
    let eva = signed_up(&app, "eva@example.nl").await;
    let credits = page("/credits", eva.clone()).await;
    assert!((72 * 3600 - 10..=72 * 3600).contains(&left(&credits, "Welkomstkorting: 40% op je credits · nog ")) && !credits.contains("Daarna"), "{credits}");
    assert!(!page("/members", eva.clone()).await.contains(banner));
    // The checkout states the same, and charges it.
    let pack =
        app.state.payments.packs(app.state.sites.for_host(None).unwrap().settings.id, "NL").await.unwrap().into_iter().find(|p| p.credits == 60).unwrap().id;
    let (_, _, checkout) = app.get(&format!("/credits/{pack}"), &[("cookie", &eva), ("accept", "text/html")]).await;
    assert!((72 * 3600 - 10..=72 * 3600).contains(&left(&checkout, "Welkomstkorting: 40% op je credits · nog ")) && checkout.contains("€ 11,97"), "{checkout}");
}

/// The leaving discount in the delete-account flow: offered on `/settings` when the company
/// gives one, taken with one form post (the code on `/credits`), then shown as taken; the code
/// is the member's own.
#[tokio::test]
async fn the_leaving_discount_keeps_a_member_with_their_own_code() {
    let app = start_in("NL").await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let settings = |cookie: String| {
        let app = &app;
        async move { app.get("/settings", &[("cookie", &cookie), ("accept", "text/html")]).await.2 }
    };
    // A company that gives none: no offer.
    sqlx::query("UPDATE companies SET delete_discount = 0").execute(app.state.db.pool()).await.unwrap();
    app.state.sites.reload().await.unwrap();
    assert!(!settings(anna.clone()).await.contains(r#"data-testid="leaving-offer""#));

    sqlx::query("UPDATE companies SET delete_discount = 40").execute(app.state.db.pool()).await.unwrap();
    app.state.sites.reload().await.unwrap();
    let page = settings(anna.clone()).await;
    assert!(page.contains(r#"data-testid="leaving-offer""#) && page.contains("je krijgt 40% korting op je volgende creditbundel"), "offered");
    // Cross-origin: refused before anything happens.
    let res = app.call("take_leaving_discount", "", &[("cookie", &anna), ("origin", "https://evil.example")]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.form("take_leaving_discount", "", "/settings", &[("origin", &origin), ("cookie", &anna)]).await;
    let to = location(&res);
    assert!(to.starts_with("/credits?code=BLIJF-"), "{to}");
    let code = to.trim_start_matches("/credits?code=").to_string();
    let (_, _, credits) = app.get(&to, &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(credits.contains(&format!("40% korting met code {code}")), "the code applies on the bundles");
    // Offered once: the panel now shows the code; taking it again gives the same code.
    let page = settings(anna.clone()).await;
    assert!(page.contains(r#"data-testid="leaving-taken""#) && page.contains(&code) && !page.contains(r#"data-testid="leaving-take""#));
    let res = app.form("take_leaving_discount", "", "/settings", &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(location(&res), to);
    // Another member cannot use it.
    let (_, _, theirs) = app.get(&to, &[("cookie", &bart), ("accept", "text/html")]).await;
    assert!(theirs.contains("Code niet gevonden"), "not Bart's code");
    // Visitors cannot take one.
    let res = app.call("take_leaving_discount", "", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
}
