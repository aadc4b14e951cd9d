//! Staff pages: members, prices and codes, site settings, complaints.

use super::*;

#[tokio::test]
async fn staff_block_a_member_with_a_reason_and_the_log_shows_it() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await, 1);
    let (anna_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();

    let (status, _, _) = app.get("/staff/members?q=anna%40example.nl", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "members do not see the page");
    let res = app.form("staff_change_member", &format!("id={anna_id}&change=staff"), "/staff/members", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"), "nor use its function");

    let (status, _, page) = app.get("/staff/members?q=anna%40example.nl", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&format!("(#{anna_id})")) && page.contains("Actief") && page.contains("Blokkeren"), "the member, their status and the actions");
    let (_, _, page) = app.get("/staff/members?q=nobody%40example.nl", &[("cookie", &staff)]).await;
    assert!(page.contains("Geen lid gevonden"));
    // Several found: a list, each with what matched and a link to the record; markup in the
    // query stays text; a query too short says how to search.
    let (_, _, page) = app.get("/staff/members?q=%40example.nl", &[("cookie", &staff)]).await;
    assert_eq!(page.matches(r#"data-testid="member-found""#).count(), 2, "anna and staff");
    assert!(page.contains(&format!(r#"href="/staff/members?q=%23{anna_id}""#)) && page.contains("gevonden op deel van het e-mailadres"));
    let (status, _, page) = app.get("/staff/members?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!page.contains("<script>alert(1)") && page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the query comes back as text");
    let (_, _, page) = app.get("/staff/members?q=an", &[("cookie", &staff)]).await;
    assert!(page.contains("zoek op minstens 3 tekens"));
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(page.contains("Leden gezocht") && page.contains("@example.nl"), "searches are in the staff log");

    // A note on the member file: markup stays text, the form's textarea comes back empty, the
    // member's devices are listed.
    let res = app
        .form(
            "staff_add_note",
            &format!("id={anna_id}&body=%3C%2Ftextarea%3E%3Cscript%3Ex()%3C%2Fscript%3E+belde"),
            "/staff/members",
            &[("origin", &origin), ("cookie", &staff)],
        )
        .await;
    assert_eq!(location(&res), format!("/staff/members?q=%23{anna_id}&saved=1"));
    let (_, _, page) = app.get(&location(&res), &[("cookie", &staff)]).await;
    assert!(page.contains("&lt;/textarea&gt;&lt;script&gt;x()&lt;/script&gt; belde") && !page.contains("<script>x()"), "the note as text");
    assert!(page.contains(r#"aria-describedby="note-help"></textarea>"#), "an empty textarea");
    assert!(page.contains(r#"data-testid="member-sessions""#), "anna's signed-in device");
    assert!(page.contains("Fraudesignalen") && page.contains("Score: 0 van 100") && page.contains("Geen signalen."), "no fraud signals for anna");
    let res = app.form("staff_add_note", &format!("id={anna_id}&body=+"), "/staff/members", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_add_note").0.code, domain::ErrorCode::Required);
    let res = app.form("staff_add_note", &format!("id={anna_id}&body=x"), "/staff/members", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"), "members cannot");
    let res = app.form("staff_add_note", "body=x", "/staff/members", &[("origin", &origin), ("cookie", &staff)]).await;
    assert!(!res.status().is_server_error());

    // Without a reason: refused in Dutch, nothing changed.
    let res =
        app.form("staff_change_member", &format!("id={anna_id}&change=block&reason="), "/staff/members", &[("origin", &origin), ("cookie", &staff)]).await;
    let (error, back) = refusal(&res, "staff_change_member");
    assert_eq!(error.code, domain::ErrorCode::ReasonRequired);
    assert!(back.starts_with(&format!("/staff/members?q=#{anna_id}")), "the record again: {back}");
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Geef een reden op (hoogstens 500 tekens)."));
    let (status, _, _) = app.get("/settings", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK, "still logged in");

    let res = app
        .form("staff_change_member", &format!("id={anna_id}&change=block&reason=Scam+messages"), "/staff/members", &[("origin", &origin), ("cookie", &staff)])
        .await;
    assert_eq!(location(&res), format!("/staff/members?q=%23{anna_id}&saved=1"));
    let (_, _, page) = app.get(&location(&res), &[("cookie", &staff)]).await;
    assert!(page.contains("Geblokkeerd") && page.contains("Deblokkeren"));
    let (status, headers, _) = app.get("/settings", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(status.is_redirection() && headers["location"].to_str().unwrap().starts_with("/login"), "the blocked member's session is gone");
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(
        page.contains("Lid geblokkeerd") && page.contains("Scam messages") && page.contains(&format!("member #{anna_id}")),
        "the staff log says who, what and why"
    );
}

#[tokio::test]
async fn staff_set_prices_countries_and_codes_and_members_see_the_change() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let credits = "message_credits=12&photo_credits=15&gift_credits=25&signup_credits=0&free_messages=2&message_length=800&welcome_discount_percent=30&welcome_discount_hours=6&time_bonus_percent=35&time_bonus_hours=2&refund_days=14&direct_debit_monthly_limit=150";

    // Members: not found, and the functions refuse them without changing anything.
    for path in ["/staff/site", "/staff/pricing"] {
        let (status, _, _) = app.get(path, &[("cookie", &anna)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let res = app.form("staff_site_credits", credits, "/staff/site", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"));
    assert_ne!(app.state.sites.for_host(None).unwrap().settings.message_credits, 12);

    // The page shows the current values with the rule's limits.
    let (status, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    let input = &page[page.find(r#"name="message_credits""#).expect("the message price field")..];
    assert!(input[..120].contains(r#"min="0" max="1000""#), "limits from domain::staff: {}", &input[..120]);
    assert!(page.contains("Credits per bericht") && page.contains("Cadeaus in de chat") && page.contains(r#"type="color""#));

    // Out of range: refused in Dutch, naming the field; nothing changed.
    let res = app
        .form("staff_site_credits", &credits.replace("gift_credits=25", "gift_credits=5000"), "/staff/site", &[("origin", &origin), ("cookie", &staff)])
        .await;
    let (error, _) = refusal(&res, "staff_site_credits");
    assert_eq!(error.code, domain::ErrorCode::OutOfRange);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Credits per cadeau: Kies een waarde van 0 tot en met 1000."), "the setting named, translated");

    // A time bonus no better than the welcome discount would make its "only now" untrue:
    // refused, naming the time bonus; nothing changed.
    for bad in [credits.replace("time_bonus_percent=35", "time_bonus_percent=30"), credits.replace("time_bonus_hours=2", "time_bonus_hours=6")] {
        let res = app.form("staff_site_credits", &bad, "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
        let (error, _) = refusal(&res, "staff_site_credits");
        assert_eq!(error.code, domain::ErrorCode::TimeBonusNotBetter, "{bad}");
        let (_, html) = app.follow(&res, &staff).await;
        assert!(html.contains("Tijdbonus (%): De tijdbonus moet meer korting geven dan de welkomstkorting"), "translated, the setting named");
    }
    assert_ne!(app.state.sites.for_host(None).unwrap().settings.time_bonus_percent, 30);

    // Saved: the site's prices change for everyone at once (the pricing page shows them).
    let res = app.form("staff_site_credits", credits, "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=credits#credits");
    assert_eq!(app.state.sites.for_host(None).unwrap().settings.message_credits, 12);
    let offers = app.state.sites.for_host(None).unwrap().settings.offer_rules();
    assert_eq!((offers.time_bonus_percent, offers.time_bonus_hours, offers.welcome_percent, offers.welcome_hours), (35, 2, 30, 6));
    let (_, _, pricing) = app.get("/pricing", &[]).await;
    let message_cost = &pricing[pricing.find("Een bericht sturen").unwrap()..];
    assert!(
        message_cost[..200].contains(r#"<span class="cost__value">12 credits</span>"#),
        "the pricing page lists the new message price: {}",
        &message_cost[..200]
    );

    // Countries: the default must be among them; a pinned country makes every visitor Belgian.
    let res = app
        .form(
            "staff_site_countries",
            "countries%5BNL%5D=on&geoip_country=BE&geoip_selected_country=&min_age=18",
            "/staff/site",
            &[("origin", &origin), ("cookie", &staff)],
        )
        .await;
    assert_eq!(refusal(&res, "staff_site_countries").0.code, domain::ErrorCode::ChoiceInvalid);
    let res = app
        .form(
            "staff_site_countries",
            "countries%5BNL%5D=on&countries%5BBE%5D=on&geoip_country=NL&geoip_selected_country=BE&min_age=21",
            "/staff/site",
            &[("origin", &origin), ("cookie", &staff)],
        )
        .await;
    assert_eq!(location(&res), "/staff/site?saved=countries#countries");
    let settings = app.state.sites.for_host(None).unwrap();
    assert_eq!(
        (settings.settings.countries.clone(), settings.settings.geoip_selected_country.clone(), settings.settings.min_age),
        (vec!["NL".to_string(), "BE".to_string()], Some("BE".to_string()), 21)
    );

    // Theme colours reach the page; a bad one does not.
    let res =
        app.form("staff_site_theme", "primary=%23123456&secondary=%23abcdef&accent=red%3B%7D", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(refusal(&res, "staff_site_theme").0.code, domain::ErrorCode::ColourInvalid);
    app.form("staff_site_theme", "primary=%23123456&secondary=%23abcdef&accent=%23ff9f1c", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    let (_, _, home) = app.get("/", &[]).await;
    assert!(home.contains("#123456"), "the new colour is on the page");

    // A bundle added with a price typed the Dutch way; a discount code; switched off again.
    let res = app
        .form("staff_save_pack", "credits=777&price=59%2C95&currency=eur&sort_order=5&active=on", "/staff/pricing", &[("origin", &origin), ("cookie", &staff)])
        .await;
    assert!(location(&res).starts_with("/staff/pricing?saved=pack-"), "{}", location(&res));
    let (_, _, pricing) = app.get("/pricing", &[]).await;
    assert!(pricing.contains("777") && pricing.contains("59,95"), "on offer at once");
    // Not money, and money with a guess in it (a thousand, or one?): refused, nothing saved.
    for price in ["gratis", "1.000", "1.000%2C50", "0%2C001"] {
        let res = app
            .form(
                "staff_save_pack",
                &format!("credits=778&price={price}&currency=EUR&sort_order=5"),
                "/staff/pricing",
                &[("origin", &origin), ("cookie", &staff)],
            )
            .await;
        assert_eq!(refusal(&res, "staff_save_pack").0.code, domain::ErrorCode::AmountInvalid, "{price}");
        let (_, html) = app.follow(&res, &staff).await;
        assert!(html.contains("Prijs") && html.contains("Vul een bedrag in zoals 12,50"), "the field and the way to write it");
    }
    let (none,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM credit_packs WHERE credits = 778").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(none, 0);
    let res = app
        .form(
            "staff_add_discount",
            "code=lente10&percentage=10&minimum_order=20&country=NL&expires=2099-12-31",
            "/staff/pricing",
            &[("origin", &origin), ("cookie", &staff)],
        )
        .await;
    assert_eq!(location(&res), "/staff/pricing?saved=codes#codes");
    let res = app.form("staff_add_discount", "code=LENTE10&percentage=10", "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    let (error, _) = refusal(&res, "staff_add_discount");
    assert_eq!(error.code, domain::ErrorCode::CodeTaken);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Deze code bestaat al."));
    let (_, _, page) = app.get("/staff/pricing", &[("cookie", &staff)]).await;
    assert!(page.contains("LENTE10") && page.contains("10 %") && page.contains("20.00") && page.contains("777 credits"));
    let (code_id, minimum): (i64, i64) =
        sqlx::query_as("SELECT id, minimum_order FROM discount_codes WHERE code = 'LENTE10'").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(minimum, 2000);
    app.form("staff_discount_active", &format!("id={code_id}&active=false"), "/staff/pricing", &[("origin", &origin), ("cookie", &staff)]).await;
    let (active,): (i64,) = sqlx::query_as("SELECT CASE WHEN active THEN 1 ELSE 0 END FROM discount_codes WHERE id = $1")
        .bind(code_id)
        .fetch_one(app.state.db.pool())
        .await
        .unwrap();
    assert_eq!(active, 0, "switched off");

    // Every change is in the staff log with its values.
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    for line in [
        "Credits gewijzigd",
        "message_credits: ",
        "→ 12",
        "Landen gewijzigd",
        "Kleuren gewijzigd",
        "Bundel toegevoegd",
        "Kortingscode toegevoegd",
        "Kortingscode uitgezet",
    ] {
        assert!(page.contains(line), "{line}");
    }
    assert!(page.contains(r#"href="/staff/site""#) && page.contains(r#"href="/staff/pricing""#));
}

#[tokio::test]
async fn staff_set_visitor_rules_costs_company_and_logo_and_start_a_site() {
    let app = start_with(&[("VONK_PAGE_CACHE_SECS", "0")]).await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let post = |name: &'static str, body: String, cookie: String| {
        let app = &app;
        let origin = origin.clone();
        async move { app.form(name, &body, "/staff/site", &[("origin", &origin), ("cookie", &cookie)]).await }
    };
    let rules = "niche=6&signups=all&domain_language=nl-NL&auto_likes=3&auto_like_gap_minutes=60&logged_out_search=on&visible_profile_fields%5Bhair_colour%5D=on&visible_profile_fields%5Btattoos%5D=on&search_fields%5Bgender%5D=on&search_fields%5Bage%5D=on";

    // A member cannot; nothing changes.
    let res = post("staff_site_rules", rules.into(), anna.clone()).await;
    assert!(location(&res).contains("__err"));
    assert_eq!(app.state.sites.for_host(None).unwrap().niche.number(), 1);

    // The page has every new part, and a member tile link on a lander uses the niche's prefix after saving.
    let (_, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    for part in [
        r#"id="rules""#,
        r#"id="costs""#,
        r#"id="company""#,
        r#"id="logo""#,
        r#"id="new-site""#,
        "Bezoekers en aanmelden",
        "Bedrijfsgegevens",
        r#"name="cost[NL]""#,
    ] {
        assert!(page.contains(part), "{part}");
    }
    let res = post("staff_site_rules", rules.replace("niche=6", "niche=8"), staff.clone()).await;
    assert_eq!(refusal(&res, "staff_site_rules").0.code, domain::ErrorCode::OutOfRange);
    let res = post("staff_site_rules", rules.into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=rules#rules");
    let site = app.state.sites.for_host(None).unwrap();
    assert_eq!(
        (site.niche.number(), site.enable_site_entry_popup, site.visible_profile_fields.clone()),
        (6, false, vec!["hair_colour".to_string(), "tattoos".to_string()])
    );
    let (status, headers, _) = app.get("/landers/gallery/amsterdam", &[]).await;
    assert!(status.is_redirection() && headers.get("location").unwrap().to_str().unwrap().ends_with("/landers/gallery/milf-amsterdam"), "the niche's prefix");
    // The search form has the fields chosen (whom and age), no country or region; none: no form.
    assert_eq!(site.search_fields, vec!["gender".to_string(), "age".to_string()]);
    let (_, _, search) = app.get("/members", &[]).await;
    assert!(search.contains(r#"name="gender""#) && search.contains(r#"name="min_age""#), "the chosen fields");
    assert!(!search.contains(r#"name="country""#) && !search.contains(r#"name="region""#), "no others");
    let res = post("staff_site_rules", rules.replace("&search_fields%5Bgender%5D=on&search_fields%5Bage%5D=on", ""), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=rules#rules");
    let (_, _, search) = app.get("/members", &[]).await;
    assert!(!search.contains(r#"data-testid="search-filters""#) && search.contains(r#"class="member-card""#), "results without a form");
    let res = post("staff_site_rules", rules.replace("search_fields%5Bage%5D", "search_fields%5Bemail%5D"), staff.clone()).await;
    assert_eq!(refusal(&res, "staff_site_rules").0.code, domain::ErrorCode::ChoiceInvalid);
    post("staff_site_rules", rules.into(), staff.clone()).await;

    // Minimum message price: typed the Dutch way, shown on the pricing page; a bad price refused.
    for cost in ["gratis", "0%2C089"] {
        let res = post("staff_site_message_costs", format!("cost%5BNL%5D={cost}&currency%5BNL%5D=EUR"), staff.clone()).await;
        let (error, _) = refusal(&res, "staff_site_message_costs");
        assert_eq!(error.code, domain::ErrorCode::AmountInvalid, "{cost}");
    }
    let res = post("staff_site_message_costs", "cost%5BNL%5D=0%2C89&currency%5BNL%5D=EUR&cost%5BBE%5D=&currency%5BBE%5D=EUR".into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=costs#costs");
    assert_eq!(
        app.state.sites.for_host(None).unwrap().minimum_message_costs,
        vec![domain::site::MessageCost { country: "NL".into(), costs: 89, currency: "EUR".into() }]
    );
    let (_, _, pricing) = app.get("/pricing", &[("cookie", &anna)]).await;
    assert!(pricing.contains("0,89"), "the minimum price is stated");

    // Company details: on the legal pages at once; a bad VAT number is refused, naming the field.
    let company = "company_name=Vonk+Holding+B.V.&address=Keizersgracht+1&postal_code=1015+AA&city=Amsterdam&company_country=NL&kvk=87654321&tradenames=Vonk%0AVonk+Zuid&vat_numbers=NL001234567B01&company_phone=020-123+4567&delete_discount=40";
    let res = post("staff_site_company", company.replace("NL001234567B01", "%3Cb%3E"), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_site_company");
    assert_eq!(error.code, domain::ErrorCode::ChoiceInvalid);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Btw-nummers (één per regel):"), "the field is named");
    let res = post("staff_site_company", company.into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=company#company");
    let (_, _, terms) = app.get("/pages/terms", &[]).await;
    assert!(terms.contains("Vonk Holding B.V.") && terms.contains("87654321"), "the terms name the company");

    // A logo: a picture is stored as PNG and shown in the header; other files are refused.
    let upload = |bytes: Vec<u8>| {
        let app = &app;
        let staff = staff.clone();
        async move {
            let boundary = "----vonk-logo-boundary-7MA4YWxk";
            let mut body =
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"logo.png\"\r\nContent-Type: image/png\r\n\r\n").into_bytes();
            body.extend_from_slice(&bytes);
            body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
            app.client
                .post(format!("{}/api/fn/staff_site_logo", app.base))
                .header("content-type", format!("multipart/form-data; boundary={boundary}"))
                .header("accept", "text/html")
                .header("referer", format!("{}/staff/site", app.base))
                .header("origin", app.origin())
                .header("cookie", staff)
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    let res = upload(b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>".to_vec()).await;
    assert_eq!(refusal(&res, "staff_site_logo").0.code, domain::ErrorCode::PhotoNotAnImage);
    let res = upload(png(960, 240)).await;
    assert_eq!(location(&res), "/staff/site?saved=logo#logo");
    let logo = app.state.sites.for_host(None).unwrap().logo.clone().expect("a logo");
    assert_eq!((logo.width, logo.height), (480, 120));
    let (_, _, home) = app.get("/", &[]).await;
    assert!(home.contains(&format!(r#"src="{}""#, logo.url())) && home.contains(r#"class="logo__image""#), "the header shows it");
    let (status, headers, _) = app.get(&logo.url(), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers.get("content-type").unwrap(), "image/png");
    assert!(headers.get("cache-control").unwrap().to_str().unwrap().contains("immutable"));
    let res = post("staff_site_logo_remove", String::new(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=logo#logo");
    let (status, _, _) = app.get(&logo.url(), &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A new site: refused on a taken or bad domain; then it answers on its domain, and the
    // staff member logs in there with the same password.
    let res = post("staff_new_site", "domain=vonk.de&name=Vonk+Zuid&domain_language=nl-NL".into(), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_new_site");
    assert_eq!(error.code, domain::ErrorCode::DomainTaken);
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Op dit domein draait al een site."));
    let res = post("staff_new_site", "domain=vonk+zuid&name=Vonk+Zuid&domain_language=nl-NL".into(), staff.clone()).await;
    assert_eq!(refusal(&res, "staff_new_site").0.code, domain::ErrorCode::DomainInvalid);
    let res = post("staff_new_site", "domain=https%3A%2F%2Fwww.Vonk-Zuid.nl%2F&name=Vonk+Zuid&domain_language=nl-BE".into(), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?created=vonk-zuid.nl#new-site");
    let (_, html) = app.follow(&res, &staff).await;
    assert!(html.contains("Site vonk-zuid.nl is aangemaakt.") && html.contains(r#"href="https://vonk-zuid.nl/login""#));
    let (_, _, spoofed) = app.get("/staff/site?created=evil.example", &[("cookie", &staff)]).await;
    assert!(!spoofed.contains("site-created") && !spoofed.contains("https://evil.example"), "only a site of this company is announced");
    let (_, _, home) = app.get("/", &[("host", "vonk-zuid.nl")]).await;
    assert!(home.contains("Vonk Zuid"), "the new site answers on its domain");
    let login = app
        .client
        .post(format!("{}/api/fn/login", app.base))
        .header("host", "vonk-zuid.nl")
        .header("origin", "http://vonk-zuid.nl")
        .header("accept", "text/html")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("email=staff%40example.nl&password=rode+kater+op+het+dak")
        .send()
        .await
        .unwrap();
    assert!(cookie_value(&login, "vonk.two_step").is_some(), "the password leads on to the same two-step login there: {:?}", login.headers());

    // Each change is logged.
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    for line in [
        "Bezoekers en aanmelden gewijzigd",
        "Minimale berichtprijzen gewijzigd",
        "Bedrijfsgegevens gewijzigd",
        "Nieuw logo geplaatst",
        "Logo verwijderd",
        "Nieuwe site aangemaakt",
    ] {
        assert!(page.contains(line), "{line}");
    }
}

#[tokio::test]
async fn complaints_are_filed_mailed_and_handled_by_staff_only() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bram = ready_member(&app, "bram@example.nl", "male").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    assert_eq!(grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await, 1);
    let bram_id: (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'bram@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let bram_id = bram_id.0;

    // The profile's report link opens the form about that member, the member's name and address filled in.
    let (_, _, profile) = app.get(&format!("/members/{bram_id}"), &[("cookie", &anna)]).await;
    assert!(profile.contains(&format!(r#"href="/complaints?member={bram_id}#complaint""#)) && profile.contains("Profiel melden"));
    let (status, _, page) = app.get(&format!("/complaints?member={bram_id}"), &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Je meldt het profiel van Anna.") && page.contains(&format!(r#"name="member" value="{bram_id}""#)), "the subject");
    assert!(page.contains(r#"value="anna@example.nl""#), "the member's address");

    // Bad input: a translated refusal, what was typed comes back, nothing is stored or mailed.
    let before = mails(&app).len();
    let body = format!("name=Anna&email=anna%40example.nl&category=harassment&concerning=&text=rude&member={bram_id}");
    let res = app.form("file_complaint", &body, "/complaints", &[("origin", &origin), ("cookie", &anna)]).await;
    let (error, page_path) = refusal(&res, "file_complaint");
    assert_eq!(error.code, domain::ErrorCode::ComplaintLength);
    assert!(page_path.contains("text=rude") && page_path.contains(&format!("member={bram_id}")), "{page_path}");
    let (_, html) = app.follow(&res, &anna).await;
    assert!(html.contains("Beschrijf je klacht in 10 tot 4000 tekens.") && html.contains(">rude</textarea>") && html.contains("Je meldt het profiel van"));
    for bad in [
        "name=&email=anna%40example.nl&category=harassment&text=ten+characters+at+least",
        "name=A&email=nope&category=harassment&text=ten+characters+at+least",
        "name=A&email=a%40b.nl&category=made_up&text=ten+characters+at+least",
    ] {
        let res = app.form("file_complaint", bad, "/complaints", &[("origin", &origin)]).await;
        assert_eq!(res.status(), StatusCode::FOUND, "{bad}");
        assert!(location(&res).contains("__err"), "{bad}");
    }
    assert_eq!(mails(&app).len(), before, "nothing mailed");
    // Another site's form cannot post here.
    let res = app
        .form(
            "file_complaint",
            &body.replace("text=rude", "text=He+keeps+sending+rude+messages"),
            "/complaints",
            &[("origin", "https://evil.example"), ("cookie", &anna)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    // Filed: a reference on the page, a mail to support, a record for staff.
    let res = app
        .form("file_complaint", &body.replace("text=rude", "text=He+keeps+sending+rude+messages"), "/complaints", &[("origin", &origin), ("cookie", &anna)])
        .await;
    let to = location(&res);
    let reference = to.strip_prefix("/complaints?sent=").unwrap_or_else(|| panic!("{to}")).to_string();
    assert!(domain::complaint::is_reference(&reference));
    let (_, _, page) = app.get(&to, &[("cookie", &anna)]).await;
    assert!(page.contains("Bedankt, we hebben je bericht ontvangen") && page.contains(&reference));
    let mail = mails(&app).into_iter().rev().find(|m| m.contains(&reference)).expect("support was mailed");
    assert!(mail.contains("To: support@vonk.example") && mail.contains("He keeps sending rude messages"));

    // Staff pages: a visitor and a member get a 404, staff see the complaint.
    let (status, _, _) = app.get("/staff/complaints", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for path in ["/staff", "/staff/complaints"] {
        let (status, _, page) = app.get(path, &[("cookie", &bram)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(!page.contains(&reference));
    }
    let res = app.call("staff_complaints", "status=open", &[("origin", &origin), ("cookie", &bram)]).await;
    assert!(res.status().is_client_error(), "{}", res.status());
    let (status, _, page) = app.get("/staff/complaints", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(&reference) && page.contains("He keeps sending rude messages") && page.contains("Intimidatie of ongewenste berichten"));
    let id: (i64,) = sqlx::query_as("SELECT id FROM complaints WHERE reference = $1").bind(&reference).fetch_one(app.state.db.pool()).await.unwrap();
    let res = app.form("set_complaint_status", &format!("id={}&handled=1", id.0), "/staff/complaints", &[("origin", &origin), ("cookie", &bram)]).await;
    assert!(location(&res).contains("__err"), "a member cannot handle it");
    let res = app.form("set_complaint_status", &format!("id={}&handled=1", id.0), "/staff/complaints", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/complaints?saved=1");
    let (_, _, page) = app.get("/staff/complaints?status=handled", &[("cookie", &staff)]).await;
    assert!(page.contains(&reference) && page.contains("Afgehandeld door"));
    let (_, _, page) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(page.contains("Klacht afgehandeld") && page.contains(&reference), "the staff log");

    // The form's limit per address.
    let mut limited = false;
    for i in 0..12 {
        let res = app
            .form("file_complaint", &format!("name=A&email=a%40b.nl&category=other&text=complaint+number+{i}+here"), "/complaints", &[("origin", &origin)])
            .await;
        if location(&res).contains("__err") {
            limited = true;
            break;
        }
    }
    assert!(limited, "too many complaints from one address are refused");
}

/// Every staff address as a visitor, a member and each role: the page (or file, or stream) for the
/// roles that open it, and the same 404 for everyone else — a visitor is not sent to log in, so
/// the address does not announce itself. Every `/staff` page of the router is in the list.
#[tokio::test]
async fn every_staff_address_answers_its_roles_only_and_404_to_everyone_else() {
    use app::features::staff::STAFF_ADDRESSES;
    use domain::staff::StaffRole;
    let listed: Vec<&str> = STAFF_ADDRESSES.iter().map(|(path, _)| *path).collect();
    for path in app::ssr::page_paths().iter().filter(|p| p.starts_with("/staff")) {
        assert!(listed.contains(&path.as_str()), "{path} has no area in STAFF_ADDRESSES");
    }
    let app = start().await;
    let member = ready_member(&app, "member@example.nl", "female").await;
    let mut people = vec![("visitor", None, String::new()), ("member", None, member)];
    for role in StaffRole::ALL {
        let email = format!("{}@example.nl", role.as_str());
        let cookie = ready_member(&app, &email, "male").await;
        assert_eq!(grant_staff(&app, &email, role).await, 1);
        people.push((role.as_str(), Some(role), cookie));
    }
    let mut asked = 0;
    for (path, area) in STAFF_ADDRESSES {
        for (who, role, cookie) in &people {
            let open = role.is_some_and(|r| area.roles().contains(&r));
            // The stream never ends: its status only.
            let res = app.client.get(format!("{}{path}", app.base)).header("cookie", cookie.as_str()).header("accept", "text/html").send().await.unwrap();
            let status = res.status();
            let expected = if open { StatusCode::OK } else { StatusCode::NOT_FOUND };
            assert_eq!(status, expected, "{who} at {path}");
            if !path.ends_with("/events") {
                let body = res.text().await.unwrap();
                if !open && !path.ends_with(".csv") {
                    assert!(body.contains("data-status=\"404\""), "{who} at {path}: the not-found page");
                }
            }
            asked += 1;
        }
    }
    assert_eq!(asked, STAFF_ADDRESSES.len() * 7);

    // The start page links only where the role may go; the account menu leads to it.
    let (_, _, page) = app.get("/staff", &[("cookie", &people[2 + 2].2)]).await;
    assert!(page.contains("href=\"/staff/photos\"") && page.contains("href=\"/staff/complaints\""), "a moderator's links");
    assert!(!page.contains("href=\"/staff/chats\"") && !page.contains("href=\"/staff/site\"") && !page.contains("href=\"/staff/payments\""));
    assert!(page.contains("href=\"/staff\""), "the account menu's link");
    let (_, _, page) = app.get("/staff", &[("cookie", &people[2 + 4].2)]).await;
    assert!(page.contains("href=\"/staff/chats\"") && !page.contains("href=\"/staff/members\""), "an operator's links");
    let (_, _, page) = app.get("/members", &[("cookie", &people[1].2)]).await;
    assert!(!page.contains("href=\"/staff\""), "no staff link for a member");

    // A new admin without two-step login: told to switch it on first, and no staff function.
    let fresh = ready_member(&app, "nieuw@example.nl", "male").await;
    app.state.accounts.set_staff_role("nieuw@example.nl", StaffRole::Admin, true).await.unwrap();
    let (status, _, page) = app.get("/staff/members", &[("cookie", &fresh)]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(page.contains("data-testid=\"staff-two-step-first\"") && page.contains("href=\"/settings#two-step\""));
    let res = app.client.get(format!("{}/staff/operators.csv", app.base)).header("cookie", fresh.as_str()).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = app.call("staff_change_member", "id=1&change=block&reason=x", &[("origin", &app.origin()), ("cookie", &fresh)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "two_step_required".to_string()));
    let res = app.call("staff_change_member", "id=1&change=block&reason=x", &[("origin", &app.origin()), ("cookie", &people[1].2)]).await;
    assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()), "a member: nothing there");
    let res = app.call("staff_change_member", "id=1&change=block&reason=x", &[("origin", &app.origin())]).await;
    assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()), "a visitor: nothing there");

    // Exports are in the staff log.
    let (_, _, _) = app.get("/staff/operators.csv", &[("cookie", &people[2].2)]).await;
    let (_, _, page) = app.get("/staff", &[("cookie", &people[2].2)]).await;
    assert!(page.contains("Export gedownload") && page.contains("operators.csv"), "the export is logged");
}

/// Support correct a member's credits from the members page: the form's key makes a second send
/// of the same form (a double click, the back button) book nothing more; a member gets a 404.
#[tokio::test]
async fn support_correct_credits_once_per_form() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let sven = ready_member(&app, "sven@example.nl", "male").await;
    grant_staff(&app, "sven@example.nl", domain::staff::StaffRole::Support).await;
    let (anna_id, before): (i64, i64) =
        sqlx::query_as("SELECT id, credits FROM users WHERE email = 'anna@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let (status, _, page) = app.get("/staff/members?q=anna%40example.nl", &[("cookie", &sven)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains(r#"data-testid="form-credits""#) && page.contains("Reden van de correctie"));
    assert!(!page.contains("Rol geven"), "support grant no roles");
    let key = page.split(r#"name="key" value=""#).nth(1).and_then(|rest| rest.split('"').next()).expect("the form's key").to_string();
    let body = format!("id={anna_id}&amount=25&reason=Goodwill&key={key}");
    let res = app.form("staff_correct_credits", &body, "/staff/members", &[("origin", &origin), ("cookie", &sven)]).await;
    assert_eq!(location(&res), format!("/staff/members?q=%23{anna_id}&saved=1"));
    let res = app.form("staff_correct_credits", &body, "/staff/members", &[("origin", &origin), ("cookie", &sven)]).await;
    assert_eq!(location(&res), format!("/staff/members?q=%23{anna_id}&saved=1"), "the same form again: no error, nothing more");
    let (credits,): (i64,) = sqlx::query_as("SELECT credits FROM users WHERE id = $1").bind(anna_id).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(credits, before + 25);
    // Zero, markup and a member: refused, nothing changes.
    let res = app
        .form("staff_correct_credits", &format!("id={anna_id}&amount=0&reason=x&key={key}1"), "/staff/members", &[("origin", &origin), ("cookie", &sven)])
        .await;
    let (error, _) = refusal(&res, "staff_correct_credits");
    assert_eq!(error.code, domain::ErrorCode::CreditCorrectionInvalid);
    let (_, html) = app.follow(&res, &sven).await;
    assert!(html.contains("Geef een heel aantal credits tussen -100000 en 100000, niet 0."));
    let res = app
        .form("staff_correct_credits", &format!("id={anna_id}&amount=%3Cb%3E&reason=x&key={key}2"), "/staff/members", &[("origin", &origin), ("cookie", &sven)])
        .await;
    assert_eq!(refusal(&res, "staff_correct_credits").0.code, domain::ErrorCode::CreditCorrectionInvalid);
    let res = app.call("staff_correct_credits", &format!("id={anna_id}&amount=500&reason=mine&key={key}3"), &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(json_code(res).await, (StatusCode::NOT_FOUND, "not_found".to_string()));
    let (credits,): (i64,) = sqlx::query_as("SELECT credits FROM users WHERE id = $1").bind(anna_id).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(credits, before + 25);
}

#[tokio::test]
async fn admins_see_the_job_queue_run_a_failed_job_again_and_switch_reminders_off() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    // A job that failed every try, its error with markup in it.
    sqlx::query(
        "INSERT INTO jobs (kind, site_id, job_key, payload, status, due_at, attempts, last_error, created_at, finished_at) \
         VALUES ('confirm_reminder', 1, 'confirm_reminder:999:1', '{}', 'failed', 1, 6, '<b>smtp: 554</b>', 1, 2)",
    )
    .execute(app.state.db.pool())
    .await
    .unwrap();
    let (id,): (i64,) = sqlx::query_as("SELECT id FROM jobs WHERE job_key = 'confirm_reminder:999:1'").fetch_one(app.state.db.pool()).await.unwrap();

    let (status, _, page) = app.get("/staff/jobs", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Taken en berichten") && page.contains("Herinnering: e-mailadres bevestigen") && page.contains("6 pogingen"));
    assert!(page.contains("&lt;b&gt;smtp: 554&lt;/b&gt;") && !page.contains("<b>smtp"), "the error as text");
    let (_, _, home) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(home.contains(r#"href="/staff/jobs""#), "linked from the start page for admins");

    // A member neither sees it nor runs it.
    let res = app.form("staff_retry_job", &format!("id={id}"), "/staff/jobs", &[("origin", &origin), ("cookie", &anna)]).await;
    assert!(location(&res).contains("__err"));
    let res = app.form("staff_retry_job", &format!("id={id}"), "/staff/jobs", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/jobs?retried=1");
    let res = app.form("staff_retry_job", &format!("id={id}"), "/staff/jobs", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/jobs", "a second press changes nothing");
    let (status,): (String,) = sqlx::query_as("SELECT status FROM jobs WHERE id = $1").bind(id).fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(status, "queued");
    let (_, _, home) = app.get("/staff", &[("cookie", &staff)]).await;
    assert!(home.contains("Taak opnieuw uitgevoerd"), "in the staff log");
    let res = app.form("staff_retry_job", "id=abc", "/staff/jobs", &[("origin", &origin), ("cookie", &staff)]).await;
    assert!(res.status().is_client_error() || location(&res).contains("__err"), "a lying id: refused, no 5xx");

    // The reminders' switch and timing on /staff/site.
    assert!(app.state.sites.by_id(1).unwrap().settings.confirm_reminders, "on by default");
    let (_, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    assert!(page.contains(r#"data-testid="form-lifecycle""#) && page.contains("Herinneringen om het e-mailadres te bevestigen"));
    assert!(page.contains(r#"name="confirm_second_hours""#) && page.contains("Tweede herinnering (uren na aanmelden)"));
    let timing = |first: i64, second: i64| {
        format!("confirm_first_hours={first}&confirm_second_hours={second}&win_back_first_days=5&win_back_second_days=21&discount_notice_hours=8&digest_after_hours=4&low_balance_after_hours=3")
    };
    let post = |body: String, cookie: String| {
        let (app, origin) = (&app, origin.clone());
        async move { app.form("staff_site_lifecycle", &body, "/staff/site", &[("origin", &origin), ("cookie", &cookie)]).await }
    };
    let res = post(format!("sign_in_link_hours=500&{}", timing(1, 24)), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_site_lifecycle");
    assert_eq!(error.args["setting"], "sign_in_link_hours", "at most a week");
    let res = post(format!("sign_in_link_hours=48&{}", timing(12, 6)), staff.clone()).await;
    let (error, _) = refusal(&res, "staff_site_lifecycle");
    assert_eq!(error.args["setting"], "confirm_second_hours", "the second reminder after the first");
    let res = post(format!("sign_in_link_hours=48&{}", timing(1, 24)).replace("digest_after_hours=4", "digest_after_hours=<b>"), staff.clone()).await;
    assert!(res.status().is_client_error() || location(&res).contains("__err"), "markup for a number: refused");
    let res = post("sign_in_link_hours=48".into(), staff.clone()).await;
    assert!(res.status().is_client_error() || location(&res).contains("__err"), "the timing left out: refused");
    assert!(app.state.sites.by_id(1).unwrap().settings.confirm_reminders, "refused: nothing changed");
    assert_eq!(app.state.sites.by_id(1).unwrap().settings.confirm_second_hours, 24);
    let res = post(format!("win_back=on&sign_in_link_hours=24&{}", timing(2, 30)), staff.clone()).await;
    assert_eq!(location(&res), "/staff/site?saved=lifecycle#lifecycle");
    let settings = app.state.sites.by_id(1).unwrap().settings.clone();
    assert!(!settings.confirm_reminders && settings.win_back && settings.sign_in_link_hours == 24);
    let timing = settings.lifecycle_timing();
    assert_eq!(timing.confirm_reminders_after_secs, [2 * 3600, 30 * 3600]);
    assert_eq!(timing.win_back_after_days, [5, 21]);
    assert_eq!((timing.discount_notice_secs, timing.digest_after_secs, timing.low_balance_after_secs), (8 * 3600, 4 * 3600, 3 * 3600));
    let res = post(format!("confirm_reminders=on&sign_in_link_hours=48&{}", timing_text()), anna.clone()).await;
    assert!(location(&res).contains("__err"), "members cannot");
    assert!(!app.state.sites.by_id(1).unwrap().settings.confirm_reminders);
}

fn timing_text() -> &'static str {
    "confirm_first_hours=1&confirm_second_hours=24&win_back_first_days=7&win_back_second_days=30&discount_notice_hours=6&digest_after_hours=6&low_balance_after_hours=2"
}

#[tokio::test]
async fn admins_read_every_mail_in_any_language_before_members_do() {
    let app = start().await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let mails_before = std::fs::read_dir(app.state.config.data_dir.join("mail")).map(|d| d.count()).unwrap_or(0);
    let (status, _, _) = app.get("/staff/mails", &[("cookie", &anna)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "members: no such page");
    let (status, _, page) = app.get("/staff/mails", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page.matches(r#"data-testid="mail-preview""#).count(), 16, "every link mail");
    assert!(page.contains("Bevestig je e-mailadres bij Vonk") && page.contains("Kom terug: 20% korting bij Vonk"));
    // The mail's HTML sits escaped in a sandboxed frame; its text part beside it.
    assert!(page.contains(r#"srcdoc="&lt;!DOCTYPE html&gt;"#) && page.contains(r#"sandbox="""#), "escaped, sandboxed");
    assert!(page.contains("BLIJF-4F2A") && page.contains("kind=win_back"));
    let (_, _, english) = app.get("/staff/mails?lang=en", &[("cookie", &staff)]).await;
    assert!(english.contains("Confirm your email address at Vonk"));
    assert!(english.contains(r#"href="/staff/mails?lang=en" aria-current="page""#), "the language shown is marked");
    let (status, _, odd) = app.get("/staff/mails?lang=%3Cscript%3E", &[("cookie", &staff)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!odd.contains("lang=<script>") && !odd.contains("<script>alert"), "markup in the query is not echoed");
    assert!(odd.contains("Bevestig je e-mailadres bij Vonk"), "an unknown language: the site's");
    let mails_after = std::fs::read_dir(app.state.config.data_dir.join("mail")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(mails_before, mails_after, "nothing sent");
}

#[tokio::test]
async fn finance_set_postback_urls_and_see_each_call_while_members_and_support_find_nothing() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let fin = ready_member(&app, "geld@example.nl", "male").await;
    grant_staff(&app, "geld@example.nl", domain::staff::StaffRole::Finance).await;
    let support = ready_member(&app, "help@example.nl", "male").await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    let page = "/staff/figures/postbacks";
    let (status, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Postbacks naar netwerken") && html.contains("{click_id}") && html.contains(r#"data-testid="postback-urls-none""#));
    for who in [&anna, &support] {
        let (status, _, _) = app.get(page, &[("cookie", who), ("accept", "text/html")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    // A URL with markup, or another scheme: refused with the form's values kept, nothing stored.
    let res = app.form("staff_postback_save", "network=adnet&event=signup&url=javascript%3Aalert(1)", page, &[("origin", &origin), ("cookie", &fin)]).await;
    let (error, back) = refusal(&res, "staff_postback_save");
    assert_eq!(error.code, domain::ErrorCode::BadRequest);
    assert!(back.contains("network=adnet"), "{back}");
    let res = app
        .form(
            "staff_postback_save",
            "network=adnet&event=signup&url=https%3A%2F%2Ft.example%2F%22%3E%3Cscript%3E",
            page,
            &[("origin", &origin), ("cookie", &fin)],
        )
        .await;
    assert!(location(&res).contains("__err"));
    // A good one, with markup in the network's name: stored, shown as text, logged.
    let url = "https%3A%2F%2Ft.example%2Fpb%3Fc%3D%7Bclick_id%7D%26e%3D%7Bevent%7D";
    let res = app
        .form("staff_postback_save", &format!("network=%3Cb%3Enet%3C%2Fb%3E&event=first_purchase&url={url}"), page, &[("origin", &origin), ("cookie", &fin)])
        .await;
    assert_eq!(location(&res), format!("{page}?saved=1"));
    let (_, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert!(html.contains("&lt;b&gt;net&lt;/b&gt;") && !html.contains("<b>net"), "the name as text");
    assert!(html.contains("https://t.example/pb?c={click_id}&amp;e={event}") && html.contains("Eerste aankoop"));
    // Members and support cannot set or delete one.
    let res = app.form("staff_postback_save", &format!("network=x&event=signup&url={url}"), page, &[("origin", &origin), ("cookie", &support)]).await;
    assert!(location(&res).contains("__err"));
    let (urls,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM postback_urls").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(urls, 1);
    let res = app.form("staff_postback_delete", "network=%3Cb%3Enet%3C%2Fb%3E&event=first_purchase", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert_eq!(location(&res), format!("{page}?saved=1"));
    let res = app.form("staff_postback_delete", "network=nobody&event=signup", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert!(location(&res).contains("__err"), "nothing to delete");
    let res = app.form("staff_postback_resend", "id=999", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert!(location(&res).contains("__err"), "no such failed call");
    let res = app.form("staff_postback_resend", "id=abc", page, &[("origin", &origin), ("cookie", &fin)]).await;
    assert!(!res.status().is_server_error());
    let (logged,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action IN ('postback_set', 'postback_deleted')").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(logged, 2);
    let (_, _, home) = app.get("/staff", &[("cookie", &fin)]).await;
    assert!(home.contains(&format!(r#"href="{page}""#)), "linked from the start page for finance");
}

#[tokio::test]
async fn admins_choose_first_or_last_touch_within_a_window() {
    let app = start().await;
    let origin = app.origin();
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let (_, _, page) = app.get("/staff/site", &[("cookie", &staff)]).await;
    assert!(page.contains(r#"data-testid="form-attribution""#) && page.contains("Herkomst van aanmeldingen"));
    let res = app.form("staff_site_attribution", "attribution_days=400", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    let (error, _) = refusal(&res, "staff_site_attribution");
    assert_eq!(error.args["setting"], "attribution_days");
    let res =
        app.form("staff_site_attribution", "attribution_first_touch=on&attribution_days=14", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=attribution#attribution");
    let settings = app.state.sites.by_id(1).unwrap().settings.clone();
    assert!(settings.attribution_first_touch && settings.attribution_days == 14);
}

#[tokio::test]
async fn finance_read_the_funnel_per_source_as_a_page_and_csv_while_members_and_support_find_nothing() {
    let app = start().await;
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let fin = ready_member(&app, "geld@example.nl", "male").await;
    grant_staff(&app, "geld@example.nl", domain::staff::StaffRole::Finance).await;
    let support = ready_member(&app, "help@example.nl", "male").await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    // A phone lands from a network whose name and sub id carry markup and a formula.
    let phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
    app.get("/landers/gallery/zomer?network=%3Cb%3Enet%3C%2Fb%3E&sub1=%3DSUM(A1)", &[("user-agent", phone)]).await;
    app.state.visits.settled().await;

    let page = "/staff/figures";
    let (status, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="figures-table""#) && html.contains(r#"data-testid="figures-chart""#), "table and chart");
    assert!(html.contains("&lt;b&gt;net&lt;/b&gt;") && !html.contains("<b>net"), "the network's name as text");
    assert!(html.contains("Bezoeken") && html.contains("Omzet per koper (ARPPU)"));
    // Within that network, by sub id, sorted by visits: the link keeps the query.
    let within = "/staff/figures?network=%3Cb%3Enet%3C%2Fb%3E&by=sub1&sort=visits&dir=asc&grain=week&chart=visits";
    let (status, _, html) = app.get(within, &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("=SUM(A1)") && html.contains(r#"aria-sort="ascending""#), "the sub id, sorted");
    assert!(html.contains("by=sub1") && html.contains("network=%3Cb%3Enet%3C%2Fb%3E"), "links keep the query");
    // Lying and hostile parameters: the page still answers, with its defaults.
    let (status, _, html) =
        app.get("/staff/figures?from=%3Cscript%3E&to=9999-99-99&by=%22%3E%3Cscript%3E&grain=year&sort=x&currency=%3Cb%3E", &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("<script>alert") && !html.contains("\"><script>"));
    // The CSV: the same figures, the formula defused, the export logged.
    let (status, headers, csv) = app.get("/staff/figures.csv?by=sub1&network=%3Cb%3Enet%3C%2Fb%3E", &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/csv"));
    assert!(csv.starts_with("sub1,visits,signups,") && csv.contains("\"'=SUM(A1)\",1,0,"), "{csv}");
    let (action, target): (String, String) =
        sqlx::query_as("SELECT action, target FROM staff_actions ORDER BY id DESC LIMIT 1").fetch_one(app.state.db.pool()).await.unwrap();
    assert!(action == "export" && target.starts_with("figures-sub1-"), "the export in the staff log: {action} {target}");
    // From a row to its members: the three signed up here came from `adnet` (the signup
    // helper's tracking); finance get their payments, not their files.
    let (_, _, html) = app.get(page, &[("cookie", &fin)]).await;
    assert!(html.contains("/staff/figures/members?") && html.contains("value=adnet"), "the row leads to its members");
    let (status, _, html) = app.get("/staff/figures/members?by=network&value=adnet", &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(html.matches(r#"data-testid="source-member""#).count(), 3, "{html}");
    assert!(html.contains("/staff/payments?member=") && !html.contains("/staff/members?q="), "payments, not files, for finance");
    let (status, _, html) =
        app.get("/staff/figures/members?by=sub1&network=%3Cb%3Enet%3C%2Fb%3E&value=%3Cscript%3Ealert(1)%3C%2Fscript%3E", &[("cookie", &fin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="source-members-none""#) && html.contains("&lt;script&gt;alert(1)") && !html.contains("<script>alert(1)"));
    // Members, support and visitors find no page and no file.
    for who in [anna.as_str(), support.as_str(), ""] {
        for path in [page, "/staff/figures.csv", "/staff/figures/members?value="] {
            let (status, _, _) = app.get(path, &[("cookie", who), ("accept", "text/html")]).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path} for {who:?}");
        }
    }
}

/// The member file's parts support open on purpose: complaints, conversations read only with a
/// reason (shown as text, logged), the GDPR export (a post, for support and admins only) and
/// deleting the account on request.
#[tokio::test]
async fn support_read_conversations_with_a_reason_export_and_delete_on_request() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    ready_member(&app, "bart@example.nl", "male").await;
    let help = ready_member(&app, "help@example.nl", "female").await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    let moderator = ready_member(&app, "mod@example.nl", "male").await;
    grant_staff(&app, "mod@example.nl", domain::staff::StaffRole::Moderator).await;
    let [anna_id, bart_id] = user_ids(&app, ["anna@example.nl", "bart@example.nl"]).await;
    let res = app
        .call(
            "send_message",
            &format!("member={bart_id}&client_id=file-send-000001&text=%3Cscript%3Ealert(1)%3C%2Fscript%3E+hoi"),
            &[("origin", &origin), ("cookie", &anna)],
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let (conversation,): (i64,) = sqlx::query_as("SELECT id FROM conversations").fetch_one(app.state.db.pool()).await.unwrap();

    let (_, _, file) = app.get(&format!("/staff/members?q=%23{anna_id}"), &[("cookie", &help)]).await;
    for part in ["member-complaints", "form-conversations", "form-export", "form-delete"] {
        assert!(file.contains(&format!(r#"data-testid="{part}""#)), "{part}");
    }
    assert!(file.contains("Geen klachten door of over dit lid."));

    // Without a reason: refused, nothing read or logged; with one, the thread as text.
    let page = "/staff/members/conversations";
    let (status, _, html) = app.get(&format!("{page}?member={anna_id}&reason=&c={conversation}"), &[("cookie", &help)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="conversations-refused""#) && !html.contains("alert(1)"));
    let logged = || async {
        let (n,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'conversation_read'").fetch_one(app.state.db.pool()).await.unwrap();
        n
    };
    assert_eq!(logged().await, 0);
    let reason = "klacht+%3Cb%3EK-1%3C%2Fb%3E";
    let (status, _, html) = app.get(&format!("{page}?member={anna_id}&reason={reason}&c={conversation}"), &[("cookie", &help)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"data-testid="staff-thread""#) && html.contains("&lt;script&gt;alert(1)&lt;/script&gt; hoi"), "{html}");
    assert!(html.contains("klacht &lt;b&gt;K-1&lt;/b&gt;") && !html.contains("<b>K-1</b>"));
    assert_eq!(logged().await, 1);
    // A member, a moderator, a visitor: the page is not there and reads nothing.
    for cookie in [anna.as_str(), moderator.as_str(), ""] {
        let (status, _, _) = app.get(&format!("{page}?member={anna_id}&reason=x&c={conversation}"), &[("cookie", cookie)]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    assert_eq!(logged().await, 1);

    // The export: a post with a reason, for support and admins; every other way finds nothing.
    let export = domain::staff::MEMBER_EXPORT_PATH;
    let body = format!("id={anna_id}&reason=inzageverzoek");
    for cookie in [anna.as_str(), moderator.as_str(), ""] {
        let res = app.post_form(export, &body, &[("origin", &origin), ("cookie", cookie)]).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
    let (status, _, _) = app.get(&format!("{export}?id={anna_id}&reason=x"), &[("cookie", &help)]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a link opens nothing");
    let res = app.post_form(export, &body, &[("origin", "https://evil.example"), ("cookie", &help)]).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let res = app.post_form(export, "id=abc&reason=x", &[("origin", &origin), ("cookie", &help)]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND, "a lying body");
    let res = app.post_form(export, &format!("id={anna_id}&reason=+"), &[("origin", &origin), ("cookie", &help)]).await;
    assert!(res.status().is_redirection() && location(&res).ends_with("export=reason#member-export"), "{}", res.status());
    let res = app.post_form(export, &body, &[("origin", &origin), ("cookie", &help)]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/zip");
    let zip = res.bytes().await.unwrap();
    assert!(zip.starts_with(b"PK"));
    let (exports,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'export' AND detail = 'inzageverzoek'").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(exports, 1);

    // Deleted on her request: the file says which account went, her session ends.
    let res = app
        .form(
            "staff_change_member",
            &format!("id={anna_id}&change=delete&reason=AVG-verzoek"),
            "/staff/members",
            &[("origin", &origin), ("cookie", &moderator)],
        )
        .await;
    assert!(location(&res).contains("__err"), "moderators do not delete");
    let res = app
        .form("staff_change_member", &format!("id={anna_id}&change=delete&reason=AVG-verzoek"), "/staff/members", &[("origin", &origin), ("cookie", &help)])
        .await;
    assert_eq!(location(&res), format!("/staff/members?deleted={anna_id}"));
    let (_, _, html) = app.get(&location(&res), &[("cookie", &help)]).await;
    assert!(html.contains(&format!("Account #{anna_id} is verwijderd.")));
    let (status, headers, _) = app.get("/settings", &[("cookie", &anna), ("accept", "text/html")]).await;
    assert!(status.is_redirection() && headers["location"].to_str().unwrap().starts_with("/login"), "{status}");
}

/// Profile texts over HTTP: a changed text waits (others see none), the member's editor says
/// so; a moderator's queue shows it as text; a bulk rejection without a reason is refused; the
/// rejection tells the member why; an approval shows it.
#[tokio::test]
async fn moderators_decide_on_changed_profile_texts() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let moderator = ready_member(&app, "mod@example.nl", "male").await;
    grant_staff(&app, "mod@example.nl", domain::staff::StaffRole::Moderator).await;
    let [anna_id, bart_id] = user_ids(&app, ["anna@example.nl", "bart@example.nl"]).await;

    let res = app.form("save_details", "about=Ik+hou+van+%3Cb%3Ewandelen%3C%2Fb%3E", "/profile", &[("origin", &origin), ("cookie", &anna)]).await;
    assert_eq!(location(&res), "/profile?saved=profile");
    let res = app.form("save_details", "about=Bel+me+0612345678", "/profile", &[("origin", &origin), ("cookie", &bart)]).await;
    assert_eq!(location(&res), "/profile?saved=profile");
    let (_, _, own) = app.get("/profile", &[("cookie", &anna)]).await;
    assert!(own.contains(r#"data-testid="text-waiting""#) && own.contains("&lt;b&gt;wandelen&lt;/b&gt;"));
    let (_, _, seen) = app.get(&format!("/members/{anna_id}"), &[("cookie", &bart)]).await;
    assert!(!seen.contains("wandelen"), "nobody sees a waiting text");

    let (status, _, queue) = app.get("/staff/texts", &[("cookie", &moderator)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(queue.contains("&lt;b&gt;wandelen&lt;/b&gt;") && !queue.contains("<b>wandelen</b>"), "the text as text");
    assert!(queue.contains(r#"accesskey="a""#) && queue.contains(&format!(r#"name="texts[{anna_id}]""#)));
    let at = |id: i64| {
        let marker = format!(r#"name="texts[{id}]" value=""#);
        let start = queue.find(&marker).unwrap() + marker.len();
        queue[start..start + queue[start..].find('"').unwrap()].to_string()
    };
    let (anna_at, bart_at) = (at(anna_id), at(bart_id));

    // A rejection without its reason, or nothing ticked: refused, nothing decided.
    let res = app
        .form(
            "staff_review_texts",
            &format!("texts[{bart_id}]={bart_at}&decision=reject&reason="),
            "/staff/texts",
            &[("origin", &origin), ("cookie", &moderator)],
        )
        .await;
    assert_eq!(refusal(&res, "staff_review_texts").0.code, domain::ErrorCode::ChoiceInvalid);
    let res = app.form("staff_review_texts", "decision=approve", "/staff/texts", &[("origin", &origin), ("cookie", &moderator)]).await;
    assert_eq!(refusal(&res, "staff_review_texts").0.code, domain::ErrorCode::Required);
    let res = app
        .form("staff_review_texts", &format!("texts[{anna_id}]={anna_at}&decision=approve"), "/staff/texts", &[("origin", &origin), ("cookie", &anna)])
        .await;
    assert!(location(&res).contains("__err"), "a member decides nothing");
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action LIKE 'text_%'").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(logged, 0);

    let res = app
        .form(
            "staff_review_texts",
            &format!("texts[{bart_id}]={bart_at}&decision=reject&reason=contact_details"),
            "/staff/texts",
            &[("origin", &origin), ("cookie", &moderator)],
        )
        .await;
    assert_eq!(location(&res), "/staff/texts?decided=1");
    let res = app
        .form(
            "staff_review_texts",
            &format!("texts[{anna_id}]={anna_at}&texts[{bart_id}]={bart_at}&decision=approve"),
            "/staff/texts",
            &[("origin", &origin), ("cookie", &moderator)],
        )
        .await;
    assert_eq!(location(&res), "/staff/texts?decided=1", "Bart's was decided already");
    let (_, _, page) = app.get("/staff/texts?decided=1", &[("cookie", &moderator)]).await;
    assert!(page.contains("1 tekst behandeld.") && page.contains(r#"data-testid="queue-empty""#));
    let (_, _, seen) = app.get(&format!("/members/{anna_id}"), &[("cookie", &bart)]).await;
    assert!(seen.contains("&lt;b&gt;wandelen&lt;/b&gt;"));
    let (_, _, own) = app.get("/profile", &[("cookie", &bart)]).await;
    assert!(own.contains(r#"data-testid="text-rejected""#) && own.contains("hij bevat contactgegevens"), "Bart is told why");
}

/// Chat photos in review over HTTP: the admin's setting (refused out of range), a photo that
/// waits hidden (the recipient's page says so, its bytes answer 404), the queue and the photo for
/// moderators only (404 to members, visitors and support, never kept by the browser), a decision
/// by the form, and the recipient seeing it after.
#[tokio::test]
async fn moderators_decide_on_chat_photos_the_site_holds_back() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let bart = ready_member(&app, "bart@example.nl", "male").await;
    let admin = ready_member(&app, "admin@example.nl", "male").await;
    let help = ready_member(&app, "help@example.nl", "male").await;
    grant_staff(&app, "admin@example.nl", domain::staff::StaffRole::Admin).await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    let [bart_id] = user_ids(&app, ["bart@example.nl"]).await;

    let res = app.form("staff_site_chat_photos", "chat_photo_review_percent=101", "/staff/site", &[("origin", &origin), ("cookie", &admin)]).await;
    assert_eq!(refusal(&res, "staff_site_chat_photos").0.args["setting"], "chat_photo_review_percent");
    let res = app
        .form("staff_site_chat_photos", "chat_photo_review_percent=100&chat_photo_hide_waiting=on", "/staff/site", &[("origin", &origin), ("cookie", &help)])
        .await;
    assert!(location(&res).contains("__err"), "support changes no site setting");
    let res = app
        .form("staff_site_chat_photos", "chat_photo_review_percent=100&chat_photo_hide_waiting=on", "/staff/site", &[("origin", &origin), ("cookie", &admin)])
        .await;
    assert_eq!(location(&res), "/staff/site?saved=chat-photos#chat-photos");

    let res = app.chat_photo(&anna, &[("client_id", "review-photo-000001".to_string()), ("member", bart_id.to_string())], &png(60, 40)).await;
    assert_eq!(res.status(), StatusCode::OK);
    let sent: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(sent["message"]["photo_review"], "hidden");
    let (id, conversation) = (sent["message"]["id"].as_i64().unwrap(), sent["message"]["conversation"].as_i64().unwrap());
    let (status, headers, _) = app.get(&format!("/media/chat/{id}"), &[("cookie", &anna)]).await;
    assert_eq!((status, headers["cache-control"].to_str().unwrap()), (StatusCode::OK, "no-store"), "hers, not kept while it may be turned down");
    assert_eq!(app.get(&format!("/media/chat/{id}"), &[("cookie", &bart)]).await.0, StatusCode::NOT_FOUND, "not his yet");
    let (_, _, page) = app.get(&format!("/chats/{conversation}"), &[("cookie", &bart)]).await;
    assert!(page.contains("Foto wordt eerst gecontroleerd") && !page.contains(&format!("/media/chat/{id}")), "his page says so, without the photo");

    // The queue and the photo: moderators and admins of the site; everyone else finds nothing.
    let staff_photo = format!("/staff/chat-photos/{id}");
    for (who, cookie) in [("visitor", ""), ("member", anna.as_str()), ("support", help.as_str())] {
        assert_eq!(app.get(&staff_photo, &[("cookie", cookie)]).await.0, StatusCode::NOT_FOUND, "{who}");
        assert_eq!(app.get("/staff/chat-photos", &[("cookie", cookie)]).await.0, StatusCode::NOT_FOUND, "{who}");
    }
    let (status, headers, _) = app.get(&staff_photo, &[("cookie", &admin)]).await;
    assert_eq!((status, headers["cache-control"].to_str().unwrap(), headers["content-type"].to_str().unwrap()), (StatusCode::OK, "no-store", "image/jpeg"));
    assert_eq!(app.get("/staff/chat-photos/abc", &[]).await.0, StatusCode::NOT_FOUND, "not a number: nothing there either");
    let (status, _, queue) = app.get("/staff/chat-photos", &[("cookie", &admin)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        queue.contains(&format!(r#"name="photos[{id}]""#))
            && queue.contains(&format!(r#"src="{staff_photo}""#))
            && queue.contains("Verborgen voor de ontvanger")
    );
    let (_, _, home) = app.get("/staff", &[("cookie", &admin)]).await;
    assert!(home.contains(r#"href="/staff/chat-photos""#));

    // A rejection without a reason and a member's decision change nothing; then the approval.
    let res = app
        .form("staff_review_chat_photos", &format!("photos[{id}]=on&decision=reject"), "/staff/chat-photos", &[("origin", &origin), ("cookie", &admin)])
        .await;
    assert_eq!(refusal(&res, "staff_review_chat_photos").0.code, domain::ErrorCode::ChoiceInvalid);
    let res = app
        .form("staff_review_chat_photos", &format!("photos[{id}]=on&decision=approve"), "/staff/chat-photos", &[("origin", &origin), ("cookie", &anna)])
        .await;
    assert!(location(&res).contains("__err"), "a member decides nothing");
    assert_eq!(app.get(&format!("/media/chat/{id}"), &[("cookie", &bart)]).await.0, StatusCode::NOT_FOUND);
    let res = app
        .form("staff_review_chat_photos", &format!("photos[{id}]=on&decision=approve"), "/staff/chat-photos", &[("origin", &origin), ("cookie", &admin)])
        .await;
    assert_eq!(location(&res), "/staff/chat-photos?decided=1");
    let (_, _, page) = app.get("/staff/chat-photos?decided=1", &[("cookie", &admin)]).await;
    assert!(page.contains("1 foto behandeld.") && page.contains(r#"data-testid="queue-empty""#));
    let (status, headers, _) = app.get(&format!("/media/chat/{id}"), &[("cookie", &bart)]).await;
    assert_eq!((status, headers["cache-control"].to_str().unwrap()), (StatusCode::OK, "private, max-age=86400"));
    assert_eq!(app.get(&staff_photo, &[("cookie", &admin)]).await.0, StatusCode::NOT_FOUND, "decided: the members' own again");
}

/// Payments held for review over HTTP: the admin's setting (refused out of range), a held
/// member's checkout refused as JSON with nothing stored, the list and the file for support,
/// allowing with a reason, and the checkout working after.
#[tokio::test]
async fn payments_above_the_review_score_wait_for_support() {
    let app = start().await;
    let origin = app.origin();
    let admin = ready_member(&app, "admin@example.nl", "male").await;
    grant_staff(&app, "admin@example.nl", domain::staff::StaffRole::Admin).await;
    let help = ready_member(&app, "help@example.nl", "female").await;
    grant_staff(&app, "help@example.nl", domain::staff::StaffRole::Support).await;
    let bram = ready_member(&app, "bram@mailinator.com", "male").await;
    let [bram_id] = user_ids(&app, ["bram@mailinator.com"]).await;

    let res = app.form("staff_site_fraud", "payment_review_score=101", "/staff/site", &[("origin", &origin), ("cookie", &admin)]).await;
    assert_eq!(refusal(&res, "staff_site_fraud").0.args["setting"], "payment_review_score");
    let res = app.form("staff_site_fraud", "payment_review_score=25", "/staff/site", &[("origin", &origin), ("cookie", &help)]).await;
    assert!(location(&res).contains("__err"), "support do not set it");
    let res = app.form("staff_site_fraud", "payment_review_score=25", "/staff/site", &[("origin", &origin), ("cookie", &admin)]).await;
    assert_eq!(location(&res), "/staff/site?saved=fraud#fraud");

    let (pack,): (i64,) =
        sqlx::query_as("SELECT id FROM credit_packs WHERE site_id = 1 AND credits = 60 AND country IS NULL").fetch_one(app.state.db.pool()).await.unwrap();
    let res = app.call("start_checkout", &format!("pack={pack}&method=ideal"), &[("origin", &origin), ("cookie", &bram)]).await;
    assert_eq!(json_code(res).await, (StatusCode::FORBIDDEN, "payment_review".into()));
    let (orders,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM payments").fetch_one(app.state.db.pool()).await.unwrap();
    assert_eq!(orders, 0);

    let (_, _, list) = app.get("/staff/members", &[("cookie", &help)]).await;
    assert!(list.contains(r#"data-testid="payment-waiting""#) && list.contains("bram@mailinator.com"));
    let (_, _, file) = app.get(&format!("/staff/members?q=%23{bram_id}"), &[("cookie", &help)]).await;
    assert!(file.contains(r#"data-testid="payment-review""#) && file.contains(r#"data-testid="form-allow-payments""#));
    let res = app.form("staff_allow_payments", &format!("id={bram_id}&reason="), "/staff/members", &[("origin", &origin), ("cookie", &help)]).await;
    assert_eq!(refusal(&res, "staff_allow_payments").0.code, domain::ErrorCode::ReasonRequired);
    let res = app.form("staff_allow_payments", &format!("id={bram_id}&reason=gebeld"), "/staff/members", &[("origin", &origin), ("cookie", &help)]).await;
    assert_eq!(location(&res), format!("/staff/members?q=%23{bram_id}&saved=1"));
    let (_, _, file) = app.get(&format!("/staff/members?q=%23{bram_id}"), &[("cookie", &help)]).await;
    assert!(file.contains(r#"data-testid="payments-allowed""#) && !file.contains(r#"data-testid="form-allow-payments""#));
    let res = app.call("start_checkout", &format!("pack={pack}&method=ideal"), &[("origin", &origin), ("cookie", &bram)]).await;
    assert_eq!(res.status(), StatusCode::OK);
}
