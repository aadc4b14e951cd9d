//! Staff's member administration: find, block and unblock with a reason, roles; only staff of
//! the member's site; every change in the staff log, once.

use crate::support;

use domain::staff::{StaffRole, StaffRoles};
use domain::ErrorCode;
use server::staff::{MemberChange, Staff};
use server::Db;
use support::world::{world, NOW};

fn refused<T>(r: Result<T, server::AppError>) -> Option<ErrorCode> {
    r.err().map(|e| e.code())
}

async fn searchable(db: &Db, id: i64) -> bool {
    let row = sqlx::query("SELECT searchable FROM profiles WHERE user_id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
    server::db::flag(&row, "searchable").unwrap()
}

on_both_databases!(staff_find_block_unblock_and_grant_and_every_change_is_logged_once, |db: Db| async move {
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let staff_admin = Staff::new(db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let boss = w.member("boss@example.nl", "male").await;
    assert_eq!(support::grant_staff(&w.db, &w.accounts, "boss@example.nl", StaffRole::Admin).await, 1);
    let boss = w.reload(boss.id).await;

    // Members cannot use any of it.
    assert_eq!(refused(staff_admin.find(&anna, site, "boss@example.nl", NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(staff_admin.change_member(&anna, site, boss.id, MemberChange::Block("x".into()), NOW).await), Some(ErrorCode::NotFound));

    // Found by email (any case), by id and by #id; unknown and other sites' ids are not.
    let found = staff_admin.find(&boss, site, " ANNA@example.nl ", NOW).await.unwrap().unwrap();
    assert_eq!((found.id, found.status.as_str(), found.roles), (anna.id, "active", StaffRoles::NONE));
    assert_eq!(staff_admin.find(&boss, site, &anna.id.to_string(), NOW).await.unwrap().map(|m| m.id), Some(anna.id));
    assert_eq!(staff_admin.find(&boss, site, &format!("#{}", anna.id), NOW).await.unwrap().map(|m| m.id), Some(anna.id));
    assert!(staff_admin.find(&boss, site, "nobody@example.nl", NOW).await.unwrap().is_none());
    let other_site: (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused(staff_admin.find(&boss, other_site.0, "anna@example.nl", NOW).await), Some(ErrorCode::NotFound));

    // A block needs a reason; it ends the member's sessions and takes them out of the search.
    assert_eq!(refused(staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("  ".into()), NOW).await), Some(ErrorCode::ReasonRequired));
    assert_eq!(refused(staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("x".repeat(501)), NOW).await), Some(ErrorCode::ReasonRequired));
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ('h-anna', $1, $2, $3)")
        .bind(anna.id)
        .bind(NOW)
        .bind(NOW + 3600)
        .execute(db.pool())
        .await
        .unwrap();
    assert!(searchable(&db, anna.id).await);
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("Scam messages, complaint K-ABCDEFGH".into()), NOW + 1).await.unwrap();
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("again".into()), NOW + 2).await.unwrap();
    let (sessions,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions WHERE user_id = $1").bind(anna.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(sessions, 0, "logged out everywhere");
    assert!(!searchable(&db, anna.id).await, "out of the search");
    assert_eq!(staff_admin.find(&boss, site, "anna@example.nl", NOW).await.unwrap().unwrap().status, "blocked");
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Unblock("Checked: not a scammer".into()), NOW + 3).await.unwrap();
    assert!(searchable(&db, anna.id).await, "findable again");

    // Roles; staff cannot block themselves or take their own admin role; a role given twice is
    // one change.
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Role(StaffRole::Operator, true), NOW + 4).await.unwrap();
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Role(StaffRole::Moderator, true), NOW + 5).await.unwrap();
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Role(StaffRole::Moderator, true), NOW + 6).await.unwrap();
    let anna_now = staff_admin.find(&boss, site, "anna@example.nl", NOW).await.unwrap().unwrap();
    assert_eq!(anna_now.roles, StaffRoles::of(&[StaffRole::Moderator, StaffRole::Operator]));
    assert!(!searchable(&db, anna.id).await, "staff are not found by members");
    assert_eq!(refused(staff_admin.change_member(&boss, site, boss.id, MemberChange::Block("me".into()), NOW).await), Some(ErrorCode::Forbidden));
    assert_eq!(refused(staff_admin.change_member(&boss, site, boss.id, MemberChange::Role(StaffRole::Admin, false), NOW).await), Some(ErrorCode::Forbidden));
    assert_eq!(refused(staff_admin.change_member(&boss, site, 999_999, MemberChange::Role(StaffRole::Operator, true), NOW).await), Some(ErrorCode::NotFound));
    // A moderator blocks, but grants no role.
    let anna = w.reload(anna.id).await;
    assert_eq!(refused(staff_admin.change_member(&anna, site, boss.id, MemberChange::Role(StaffRole::Finance, true), NOW).await), Some(ErrorCode::NotFound));

    let log = staff_admin.log(&boss, site, 40).await.unwrap();
    // Every member found is a view in the log; a search that finds nobody is not.
    let views = log.iter().filter(|a| a.action == "member_view").count();
    assert_eq!(views, 5, "each lookup that found Anna");
    let log: Vec<_> = log.into_iter().filter(|a| a.action != "member_view").collect();
    let lines: Vec<(&str, &str)> = log.iter().map(|a| (a.action.as_str(), a.detail.as_str())).collect();
    assert_eq!(
        lines,
        [
            ("role_granted", "moderator"),
            ("role_granted", "operator"),
            ("member_unblock", "Checked: not a scammer"),
            ("member_block", "Scam messages, complaint K-ABCDEFGH")
        ],
        "newest first, each change once"
    );
    assert!(log.iter().all(|a| a.target == format!("member #{}", anna.id) && a.staff_name.contains(&format!("#{}", boss.id))));
});

#[test]
fn every_staff_action_has_a_label_in_every_language() {
    let catalog = server::locales::Catalog::embedded();
    let actions = [
        "photo_approve",
        "photo_reject",
        "complaint_handled",
        "complaint_open",
        "member_block",
        "member_unblock",
        "member_role",
        "member_operator",
        "role_granted",
        "role_taken",
        "export",
        "member_view",
        "credits_corrected",
        "site_texts",
        "site_credits",
        "site_invitations",
        "site_delivery",
        "invitation_created",
        "invitation_withdrawn",
        "site_countries",
        "site_theme",
        "site_gifts",
        "pack_add",
        "pack_change",
        "discount_add",
        "discount_on",
        "discount_off",
        "site_rules",
        "site_message_costs",
        "site_company",
        "site_logo",
        "site_logo_removed",
        "site_created",
    ];
    for locale in domain::Locale::ALL {
        for a in actions {
            assert!(catalog.texts(locale).contains_key(&format!("staff.action.{a}")), "{locale:?} {a}");
        }
        for s in domain::staff::settings() {
            assert!(catalog.texts(locale).contains_key(&format!("staff.setting.{s}")), "{locale:?} {s}");
        }
    }
}

on_both_databases!(staff_set_the_sites_settings_bundles_and_codes_and_each_change_is_logged, |db: Db| async move {
    use domain::staff::{CountrySettings, CreditSettings, DiscountEdit, PackEdit, SiteTexts};
    use server::staff::SiteChange;
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let admin = Staff::new(db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let boss = w.member("boss@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "boss@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let cache = server::sites::SiteCache::load(db.clone()).await.unwrap();
    let settings = || cache.for_host(Some(&w.site.settings.domain)).unwrap();
    let s = settings();
    let credits = CreditSettings::from(&s.settings);

    // Members are told it does not exist; nothing changes.
    let change = SiteChange::Credits(CreditSettings { message_credits: 12, direct_debit_monthly_limit: 200, ..credits });
    assert_eq!(refused(admin.change_site(&anna, site, change.clone(), NOW).await), Some(ErrorCode::NotFound));
    let other_site: (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused(admin.change_site(&boss, other_site.0, change.clone(), NOW).await), Some(ErrorCode::NotFound));
    // Out of range: refused, naming the setting, nothing written.
    let bad = admin.change_site(&boss, site, SiteChange::Credits(CreditSettings { gift_credits: 5000, ..credits }), NOW).await.unwrap_err();
    assert_eq!(bad.code(), ErrorCode::OutOfRange);
    cache.reload().await.unwrap();
    assert_eq!(settings().gift_credits, s.gift_credits);

    // A change is written, logged with old and new, and the settings follow after a reload.
    assert!(admin.change_site(&boss, site, change.clone(), NOW + 1).await.unwrap());
    assert!(!admin.change_site(&boss, site, change, NOW + 2).await.unwrap(), "the same values again: nothing to do");
    cache.reload().await.unwrap();
    assert_eq!((settings().message_credits, settings().direct_debit_monthly_limit), (12, 20_000));
    let texts = SiteTexts {
        name: "Vonk Zuid".into(),
        index_title: s.index_title.clone(),
        description: "Daten in het zuiden.".into(),
        support_email: "Hulp@Vonk.nl".into(),
        support_phone: "+31 40-123 45 67".into(),
        mail_name: s.mail_name.clone(),
        fictional_singular: s.fictional_singular.clone(),
        fictional_plural: s.fictional_plural.clone(),
        fictional_warning: s.fictional_warning,
    };
    admin.change_site(&boss, site, SiteChange::Texts(texts), NOW + 3).await.unwrap();
    admin
        .change_site(
            &boss,
            site,
            SiteChange::Countries(CountrySettings {
                countries: vec!["BE".into(), "NL".into()],
                geoip_country: "NL".into(),
                geoip_selected_country: None,
                min_age: 21,
            }),
            NOW + 4,
        )
        .await
        .unwrap();
    admin
        .change_site(
            &boss,
            site,
            SiteChange::Theme(domain::site::Theme { primary: "#123".into(), secondary: "#224466".into(), accent: "#FFAA00".into() }),
            NOW + 5,
        )
        .await
        .unwrap();
    admin.change_site(&boss, site, SiteChange::Gifts(vec!["rose".into(), "kiss".into()]), NOW + 6).await.unwrap();
    assert_eq!(refused(admin.change_site(&boss, site, SiteChange::Gifts(vec![]), NOW).await), Some(ErrorCode::Required));
    cache.reload().await.unwrap();
    let now = settings();
    assert_eq!((now.name.as_str(), now.support_email.as_str(), now.support_phone_clean().as_str()), ("Vonk Zuid", "hulp@vonk.nl", "+31401234567"));
    assert_eq!((now.countries.clone(), now.geoip_country.as_str(), now.min_age), (vec!["NL".to_string(), "BE".to_string()], "NL", 21));
    assert_eq!((now.theme.primary.as_str(), now.theme.accent.as_str()), ("#112233", "#ffaa00"));
    assert_eq!(now.offered_gifts(), vec![domain::chat::Gift::Rose, domain::chat::Gift::Kiss]);
    // All gifts chosen: stored as "all", so gifts added later are offered too.
    admin.change_site(&boss, site, SiteChange::Gifts(domain::chat::Gift::ALL.iter().map(|g| g.code().to_string()).collect()), NOW + 7).await.unwrap();
    cache.reload().await.unwrap();
    assert!(settings().gifts.is_empty());

    // Bundles: added, changed, switched off (never deleted); only the site's own.
    let before = server::sites::credit_packs(&db, site).await.unwrap().len();
    let pack = PackEdit { id: None, credits: 500, price_minor: 14995, currency: "eur".into(), highlighted: false, sort_order: 9, active: true };
    let id = admin.save_pack(&boss, site, pack.clone(), NOW + 8).await.unwrap();
    assert_eq!(server::sites::credit_packs(&db, site).await.unwrap().len(), before + 1);
    assert_eq!(refused(admin.save_pack(&boss, site, PackEdit { price_minor: 0, ..pack.clone() }, NOW).await), Some(ErrorCode::OutOfRange));
    assert_eq!(refused(admin.save_pack(&anna, site, pack.clone(), NOW).await), Some(ErrorCode::NotFound));
    let foreign: (i64,) = sqlx::query_as("INSERT INTO credit_packs (site_id, credits, price_minor, currency) VALUES ($1, 10, 100, 'EUR') RETURNING id")
        .bind(other_site.0)
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(refused(admin.save_pack(&boss, site, PackEdit { id: Some(foreign.0), ..pack.clone() }, NOW).await), Some(ErrorCode::NotFound));
    admin.save_pack(&boss, site, PackEdit { id: Some(id), price_minor: 12995, active: false, ..pack.clone() }, NOW + 9).await.unwrap();
    admin.save_pack(&boss, site, PackEdit { id: Some(id), price_minor: 12995, active: false, ..pack.clone() }, NOW + 10).await.unwrap();
    assert_eq!(server::sites::credit_packs(&db, site).await.unwrap().len(), before, "switched off: not on offer");
    let mine = admin.packs(&boss, site).await.unwrap();
    let saved = mine.iter().find(|p| p.id == id).unwrap();
    assert_eq!((saved.price_minor, saved.currency.as_str(), saved.active, saved.sold), (12995, "EUR", false, 0));
    assert!(!mine.iter().any(|p| p.id == foreign.0));

    // Discount codes: unique per site, switched on and off.
    let code = DiscountEdit { code: "zomer25".into(), percentage: 25, minimum_order: 1000, country: Some("nl".into()), expires_at: Some(NOW + 86_400) };
    let did = admin.add_discount(&boss, site, code.clone(), NOW + 11).await.unwrap();
    assert_eq!(refused(admin.add_discount(&boss, site, code.clone(), NOW + 12).await), Some(ErrorCode::CodeTaken));
    assert_eq!(refused(admin.add_discount(&boss, site, DiscountEdit { code: "x y".into(), ..code.clone() }, NOW).await), Some(ErrorCode::CodeInvalid));
    admin.add_discount(&boss, other_site.0, code.clone(), NOW).await.map(|_| ()).unwrap_err();
    admin.set_discount_active(&boss, site, did, false, NOW + 13).await.unwrap();
    admin.set_discount_active(&boss, site, did, false, NOW + 14).await.unwrap();
    let codes = admin.discounts(&boss, site).await.unwrap();
    assert_eq!((codes[0].code.as_str(), codes[0].percentage, codes[0].country.as_deref(), codes[0].active), ("ZOMER25", 25, Some("NL"), false));

    let log = admin.log(&boss, site, 50).await.unwrap();
    let actions: Vec<&str> = log.iter().map(|a| a.action.as_str()).collect();
    assert_eq!(
        actions,
        ["discount_off", "discount_add", "pack_change", "pack_add", "site_gifts", "site_gifts", "site_theme", "site_countries", "site_texts", "site_credits"],
        "newest first, each change once"
    );
    let credits_line = log.iter().find(|a| a.action == "site_credits").unwrap();
    assert_eq!(
        credits_line.detail,
        format!("message_credits: {} → 12; direct_debit_monthly_limit: {} → 20000", s.message_credits, s.direct_debit_monthly_limit)
    );
    assert!(log.iter().find(|a| a.action == "pack_change").unwrap().detail.contains("149.95 EUR"));
});

on_both_databases!(staff_set_rules_costs_company_and_logo_and_start_a_new_site, |db: Db| async move {
    use domain::site::MessageCost;
    use domain::staff::{CompanyDetails, NewSite, SiteRules};
    use server::staff::SiteChange;
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let admin = Staff::new(db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let boss = w.member("boss@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "boss@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let cache = server::sites::SiteCache::load(db.clone()).await.unwrap();
    let settings = || cache.for_host(Some(&w.site.settings.domain)).unwrap();
    let s = settings();

    // Niche, who may join, what visitors see, first language, profile fields.
    let rules = SiteRules {
        niche: 6,
        signups: "traffic_source_only".into(),
        logged_out_search: false,
        logged_out_search_trafficsource: true,
        enable_site_entry_popup: false,
        domain_language: "nl-be".into(),
        visible_profile_fields: vec!["tattoos".into(), "hair_colour".into()],
        visible_profile_notes: false,
        auto_likes: 5,
        auto_like_gap_minutes: 30,
        search_fields: vec!["age".into(), "country".into()],
    };
    assert_eq!(refused(admin.change_site(&anna, site, SiteChange::Rules(rules.clone()), NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(admin.change_site(&boss, site, SiteChange::Rules(SiteRules { niche: 9, ..rules.clone() }), NOW).await), Some(ErrorCode::OutOfRange));
    assert!(admin.change_site(&boss, site, SiteChange::Rules(rules.clone()), NOW + 1).await.unwrap());
    cache.reload().await.unwrap();
    let now = settings();
    assert_eq!(
        (now.niche.number(), now.signups, now.logged_out_search, now.logged_out_search_trafficsource, now.enable_site_entry_popup),
        (6, domain::site::SignupPolicy::TrafficSourceOnly, false, true, false)
    );
    assert_eq!(
        (now.domain_language.as_str(), now.visible_profile_fields.clone(), now.visible_profile_notes),
        ("nl-BE", vec!["hair_colour".to_string(), "tattoos".to_string()], false)
    );
    assert_eq!(now.niche.canonical_slug("amsterdam"), "milf-amsterdam");
    assert_eq!((now.auto_like.count, now.auto_like.gap_secs), (5, 1800));
    assert_eq!(now.search_fields, vec!["country".to_string(), "age".to_string()]);

    // Minimum message costs: only for countries served.
    let cost = |c: &str, costs: i64| MessageCost { country: c.into(), costs, currency: "EUR".into() };
    assert_eq!(refused(admin.change_site(&boss, site, SiteChange::MessageCosts(vec![cost("US", 99)]), NOW).await), Some(ErrorCode::ChoiceInvalid));
    admin.change_site(&boss, site, SiteChange::MessageCosts(vec![cost("BE", 119), cost("NL", 99)]), NOW + 2).await.unwrap();
    cache.reload().await.unwrap();
    assert_eq!(settings().minimum_message_costs, vec![cost("NL", 99), cost("BE", 119)]);

    // Company details: shown on every site of the company, logged on each.
    let mut details = CompanyDetails::from(&s.company);
    details.name = "Vonk Holding B.V.".into();
    details.tradenames = domain::staff::split_list("Vonk, Vonk Zuid");
    assert_eq!(refused(admin.change_company(&anna, site, details.clone(), NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(admin.change_company(&boss, site, CompanyDetails { kvk: " ".into(), ..details.clone() }, NOW).await), Some(ErrorCode::Required));
    assert!(admin.change_company(&boss, site, details.clone(), NOW + 3).await.unwrap());
    assert!(!admin.change_company(&boss, site, details.clone(), NOW + 4).await.unwrap());
    cache.reload().await.unwrap();
    assert_eq!(
        (settings().company.name.as_str(), settings().company.tradenames.clone()),
        ("Vonk Holding B.V.", vec!["Vonk".to_string(), "Vonk Zuid".to_string()])
    );
    let shared = admin.company_shared_with(&boss, site).await.unwrap();
    for domain in &shared {
        assert_eq!(cache.for_host(Some(domain)).unwrap().company.name, "Vonk Holding B.V.", "{domain} names the same company");
    }

    // A logo: decoded, scaled to fit 480 x 160, kept as PNG with its version; taken down again.
    let big = image::RgbaImage::from_fn(1200, 300, |x, _| image::Rgba([(x % 255) as u8, 20, 40, if x < 600 { 255 } else { 0 }]));
    let mut upload = Vec::new();
    image::DynamicImage::ImageRgba8(big).write_to(&mut std::io::Cursor::new(&mut upload), image::ImageFormat::Png).unwrap();
    assert_eq!(refused(admin.set_logo(&anna, site, Some(upload.clone()), NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(admin.set_logo(&boss, site, Some(b"<svg onload=alert(1)>".to_vec()), NOW).await), Some(ErrorCode::PhotoNotAnImage));
    admin.set_logo(&boss, site, Some(upload), NOW + 5).await.unwrap();
    cache.reload().await.unwrap();
    let with_logo = settings();
    let logo = with_logo.logo.clone().expect("a logo");
    assert_eq!((logo.width, logo.height, logo.version.len()), (480, 120, 16));
    let png = image::load_from_memory(with_logo.logo_png.as_deref().unwrap()).unwrap();
    assert_eq!((png.width(), png.height(), png.color().has_alpha()), (480, 120, true));
    admin.set_logo(&boss, site, None, NOW + 6).await.unwrap();
    admin.set_logo(&boss, site, None, NOW + 7).await.unwrap();
    cache.reload().await.unwrap();
    assert!(settings().logo.is_none() && settings().logo_png.is_none());

    // A new site: its own domain, this site's settings and bundles, the staff member's account.
    let new = NewSite { domain: "https://www.Vonk-Zuid.nl/".into(), name: "Vonk Zuid".into(), domain_language: "nl-NL".into() };
    assert_eq!(refused(admin.create_site(&anna, site, new.clone(), NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(admin.create_site(&boss, site, NewSite { domain: "WWW.vonk.de".into(), ..new.clone() }, NOW).await), Some(ErrorCode::DomainTaken));
    assert_eq!(refused(admin.create_site(&boss, site, NewSite { domain: "vonk zuid".into(), ..new.clone() }, NOW).await), Some(ErrorCode::DomainInvalid));
    let id = admin.create_site(&boss, site, new.clone(), NOW + 8).await.unwrap();
    assert_eq!(refused(admin.create_site(&boss, site, new.clone(), NOW + 9).await), Some(ErrorCode::DomainTaken));
    cache.reload().await.unwrap();
    let created = cache.for_host(Some("vonk-zuid.nl")).unwrap();
    assert_eq!((created.settings.id, created.name.as_str(), created.is_default, created.niche.number()), (id, "Vonk Zuid", false, 6));
    assert_eq!(
        (created.message_credits, created.company.name.as_str(), created.minimum_message_costs.len()),
        (settings().message_credits, "Vonk Holding B.V.", 2)
    );
    assert_eq!(server::sites::credit_packs(&db, id).await.unwrap().len(), server::sites::credit_packs(&db, site).await.unwrap().len());
    let login = w.accounts.login(id, "boss@example.nl", "rode kater op het dak", None, &Default::default()).await.unwrap();
    assert!(matches!(login, server::accounts::LoginOutcome::SecondStep(_)), "the staff member logs in on the new site, with the same two-step login");
    let (roles, invisible, searchable): (i64, i64, i64) = sqlx::query_as("SELECT u.staff_roles, CASE WHEN u.invisible THEN 1 ELSE 0 END, CASE WHEN p.searchable THEN 1 ELSE 0 END FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1")
        .bind(id)
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!((StaffRoles::from_bits(roles), invisible, searchable), (StaffRoles::of(&[StaffRole::Admin]), 1, 0), "an admin there, not a member");
    assert!(w.accounts.login(id, "anna@example.nl", "rode kater op het dak", None, &Default::default()).await.is_err(), "members are not copied");

    let log = admin.log(&boss, site, 50).await.unwrap();
    let actions: Vec<&str> = log.iter().map(|a| a.action.as_str()).collect();
    assert_eq!(actions, ["site_created", "site_logo_removed", "site_logo", "site_company", "site_message_costs", "site_rules"]);
    assert!(log[3].detail.starts_with("name: ") && log[3].detail.contains("→ \"Vonk Holding B.V.\"; tradenames: "), "{}", log[3].detail);
    let theirs = admin.log(&w.reload(boss.id).await, site, 1).await.unwrap();
    assert_eq!(theirs[0].target, "vonk-zuid.nl");
});

on_both_databases!(a_credit_correction_is_booked_once_in_the_ledger_with_its_reason, |db: Db| async move {
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let staff = Staff::new(db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "bram@example.nl", StaffRole::Support).await;
    let bram = w.reload(bram.id).await;
    let before = anna.credits;
    let key = "0123456789abcdef0123";

    // Bad input changes nothing.
    for (amount, reason, code) in [
        ("0", "x", ErrorCode::CreditCorrectionInvalid),
        ("1.5", "x", ErrorCode::CreditCorrectionInvalid),
        ("100001", "x", ErrorCode::CreditCorrectionInvalid),
        ("5", " ", ErrorCode::ReasonRequired),
    ] {
        assert_eq!(refused(staff.correct_credits(&bram, site, anna.id, amount, reason, key, NOW).await), Some(code), "{amount}");
    }
    assert_eq!(refused(staff.correct_credits(&bram, site, anna.id, "5", "x", "short", NOW).await), Some(ErrorCode::BadRequest));
    assert_eq!(
        refused(staff.correct_credits(&bram, site, anna.id, &format!("-{}", before + 1), "too much", key, NOW).await),
        Some(ErrorCode::InsufficientCredits)
    );
    assert_eq!(refused(staff.correct_credits(&anna, site, anna.id, "50", "mine", key, NOW).await), Some(ErrorCode::NotFound), "a member");
    assert_eq!(w.reload(anna.id).await.credits, before);

    // The same form twice, and at once: one booking.
    let (a, b) = tokio::join!(
        staff.correct_credits(&bram, site, anna.id, "50", "Goodwill: a message that did not arrive", key, NOW + 1),
        staff.correct_credits(&bram, site, anna.id, "50", "Goodwill: a message that did not arrive", key, NOW + 1),
    );
    assert_eq!((a.unwrap(), b.unwrap()), (before + 50, before + 50));
    assert_eq!(staff.correct_credits(&bram, site, anna.id, "50", "Goodwill: a message that did not arrive", key, NOW + 2).await.unwrap(), before + 50);
    assert_eq!(staff.correct_credits(&bram, site, anna.id, "\u{2212}20", "Double gift", "another-key-000000001", NOW + 3).await.unwrap(), before + 30);
    assert_eq!(w.reload(anna.id).await.credits, before + 30);
    let (rows,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE user_id = $1 AND reason = 'adjustment'").bind(anna.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows, 2);
    assert!(server::credits::reconcile(&db).await.unwrap().is_empty(), "the ledger explains the balance");

    // In the staff log with the amount and the reason, once each (an admin reads it).
    support::grant_staff(&db, &w.accounts, "bram@example.nl", StaffRole::Admin).await;
    let bram = w.reload(bram.id).await;
    let log = staff.log(&bram, site, 20).await.unwrap();
    let corrections: Vec<&str> = log.iter().filter(|a| a.action == "credits_corrected").map(|a| a.detail.as_str()).collect();
    assert_eq!(corrections, ["-20 · Double gift", "+50 · Goodwill: a message that did not arrive"]);
});

on_both_databases!(staff_find_members_by_name_address_part_ip_range_payment_and_phone, |db: Db| async move {
    use domain::checkout::PaymentStatus;
    use domain::payment::PaymentMethod;
    use domain::staff::search::MatchKind;
    let (w, _sms, payments) = support::shop::shop(db.clone()).await;
    let site = w.site.settings.id;
    let staff = Staff::new(db.clone());
    let boss = w.member("boss@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "boss@example.nl", StaffRole::Support).await;
    let boss = w.reload(boss.id).await;
    let sanne = w.sign_up_with("sanne.devries@voorbeeld.nl", "Sanne", Default::default(), Default::default()).await;
    let susanne = w.sign_up_with("s.jansen@example.nl", "Susanne", Default::default(), Default::default()).await;
    let bart = w.member("bart@voorbeeld.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    let gone = w.sign_up_with("sanneweg@voorbeeld.nl", "Sanne", Default::default(), Default::default()).await;
    sqlx::query("UPDATE users SET status = 'deleted' WHERE id = $1").bind(gone).execute(db.pool()).await.unwrap();
    let ids = |found: &[server::staff::Found]| found.iter().map(|f| f.member.id).collect::<Vec<_>>();
    let search = |q: &str| {
        let (staff, boss) = (staff.clone(), boss.clone());
        let q = q.to_string();
        async move { staff.search(&boss, site, &q, NOW).await.unwrap() }
    };

    // Members cannot search.
    assert_eq!(refused(staff.search(&w.reload(carl.id).await, site, "sanne", NOW).await), Some(ErrorCode::NotFound));

    // A part of a name finds both names and addresses, newest first, and says so; deleted
    // accounts are not found; LIKE's wildcards are taken literally; two letters are too few.
    let found = search("SANNE").await;
    assert_eq!(ids(&found), vec![susanne, sanne]);
    assert_eq!(found[1].matched, vec![MatchKind::Name, MatchKind::EmailPart]);
    assert_eq!(found[0].matched, vec![MatchKind::Name]);
    assert_eq!(ids(&search("@voorbeeld.nl").await), vec![bart.id, sanne]);
    assert_eq!(ids(&search("sanne.devries@voorbeeld.nl").await), vec![sanne]);
    assert_eq!(search("sanne.devries@voorbeeld.nl").await[0].matched, vec![MatchKind::Email, MatchKind::EmailPart]);
    assert!(search("a%_").await.is_empty());
    assert!(search("%%%").await.is_empty());
    assert!(search("sa").await.is_empty());
    assert_eq!(ids(&search(&format!("#{}", bart.id)).await), vec![bart.id]);

    // A payment's number (the receipt's order number) and its provider reference.
    let carl = w.reload(carl.id).await;
    let paid = support::shop::buy(&db, &payments, &w, &carl, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW).await;
    let by_order = search(&paid.to_string()).await;
    assert!(by_order.iter().any(|f| f.member.id == carl.id && f.matched == vec![MatchKind::Payment]), "{by_order:?}");
    let reference = support::shop::provider_id(&db, paid).await;
    assert_eq!(ids(&search(&reference).await), vec![carl.id]);

    // A direct-debit phone number however it is typed.
    let phone = domain::checkout::normalize_phone("06 1234 5678", "NL").unwrap();
    let pack = support::shop::pack_id(&w, &payments, 60).await;
    sqlx::query(
        "INSERT INTO direct_debits (user_id, pack_id, iban, phone, code_hash, created_at, expires_at) VALUES ($1, $2, 'NL91ABNA0417164300', $3, 'x', $4, $4)",
    )
    .bind(bart.id)
    .bind(pack)
    .bind(&phone)
    .bind(NOW)
    .execute(db.pool())
    .await
    .unwrap();
    for typed in ["06-1234 5678", "+31 6 1234 5678", "0031612345678", "(06) 12.34.56.78"] {
        let found = search(typed).await;
        assert_eq!(found.iter().filter(|f| f.matched.contains(&MatchKind::Phone)).map(|f| f.member.id).collect::<Vec<_>>(), vec![bart.id], "{typed}");
    }
    assert!(search("06-1234 5679").await.iter().all(|f| !f.matched.contains(&MatchKind::Phone)));

    // IP addresses and ranges, from the security events.
    for (user, ip) in [(carl.id, "203.0.113.7"), (bart.id, "203.0.114.9"), (sanne, "2001:db8::5"), (susanne, "198.51.100.1")] {
        sqlx::query("INSERT INTO security_events (user_id, kind, ip, created_at) VALUES ($1, 'login', $2, $3)")
            .bind(user)
            .bind(ip)
            .bind(NOW)
            .execute(db.pool())
            .await
            .unwrap();
    }
    assert_eq!(ids(&search("203.0.113.7").await), vec![carl.id]);
    assert_eq!(ids(&search("203.0.113.0/24").await), vec![carl.id]);
    let mut wide = ids(&search("203.0.112.0/22").await);
    wide.sort();
    let mut want = vec![carl.id, bart.id];
    want.sort();
    assert_eq!(wide, want);
    assert_eq!(ids(&search("2001:db8::/32").await), vec![sanne]);
    assert!(search("203.0.0.0/7").await.is_empty(), "wider than a /8");

    // Another site's staff find none of them; every search is in the staff log.
    let (other,): (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused(staff.search(&boss, other, "sanne", NOW).await), Some(ErrorCode::NotFound));
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'member_search'").fetch_one(db.pool()).await.unwrap();
    assert!(logged >= 20, "{logged}");
});

on_both_databases!(staff_leave_notes_on_a_member_file_that_only_staff_of_the_site_read, |db: Db| async move {
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let staff = Staff::new(db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let helper = w.member("help@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "help@example.nl", StaffRole::Support).await;
    let helper = w.reload(helper.id).await;
    let finance = w.member("geld@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "geld@example.nl", StaffRole::Finance).await;
    let finance = w.reload(finance.id).await;

    // Refused: a member, a role without the member file, an empty or too long note, a member
    // of another site or none; nothing stored.
    assert_eq!(refused(staff.add_note(&anna, site, anna.id, "x", NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(staff.add_note(&finance, site, anna.id, "x", NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(staff.notes(&finance, site, anna.id).await), Some(ErrorCode::NotFound));
    assert_eq!(refused(staff.add_note(&helper, site, anna.id, "  \n ", NOW).await), Some(ErrorCode::Required));
    assert_eq!(refused(staff.add_note(&helper, site, anna.id, &"x".repeat(2001), NOW).await), Some(ErrorCode::TextTooLong));
    assert_eq!(refused(staff.add_note(&helper, site, 999_999, "x", NOW).await), Some(ErrorCode::NotFound));
    let (other,): (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused(staff.add_note(&helper, other, anna.id, "x", NOW).await), Some(ErrorCode::NotFound));
    assert!(staff.notes(&helper, site, anna.id).await.unwrap().is_empty());

    // Kept as typed (markup is text to the page), newest first, with who wrote it; logged.
    staff.add_note(&helper, site, anna.id, " Belde over een dubbele afschrijving. ", NOW).await.unwrap();
    staff.add_note(&helper, site, anna.id, "<b>Terugbetaald</b>", NOW + 60).await.unwrap();
    let notes = staff.notes(&helper, site, anna.id).await.unwrap();
    let bodies: Vec<&str> = notes.iter().map(|n| n.body.as_str()).collect();
    assert_eq!(bodies, vec!["<b>Terugbetaald</b>", "Belde over een dubbele afschrijving."]);
    assert_eq!(notes[0].staff_name, helper.name);
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'member_note' AND target = $1")
        .bind(format!("member #{}", anna.id))
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(logged, 2);
});

on_both_databases!(the_member_file_shows_fraud_signals_from_what_the_site_knows, |db: Db| async move {
    use domain::checkout::PaymentStatus;
    use domain::fraud::Signal;
    use domain::payment::PaymentMethod;
    let (w, _sms, payments) = support::shop::shop(db.clone()).await;
    let site = w.site.settings.id;
    let helper = w.member("help@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "help@example.nl", StaffRole::Support).await;
    let helper = w.reload(helper.id).await;
    let report = |id: i64| {
        let (db, helper) = (db.clone(), helper.clone());
        async move { server::fraud::report(&db, &helper, site, id, NOW + 600).await.unwrap() }
    };
    let plain = w.member("gewoon@example.nl", "female").await;
    assert_eq!(report(plain.id).await.signals, vec![]);
    assert_eq!(report(plain.id).await.score, 0);
    let anna = w.member("anna@mailinator.com", "female").await;
    assert!(server::fraud::is_disposable("x@eu.mailinator.com") && !server::fraud::is_disposable("anna@example.nl"));

    // One IP shared with three other accounts; a login abroad; an IBAN another account had
    // charged back; five checkouts in a day.
    let mut others = Vec::new();
    for i in 0..3 {
        others.push(w.member(&format!("buur{i}@example.nl"), "male").await.id);
    }
    let event = |user: i64, ip: &'static str, country: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query("INSERT INTO security_events (user_id, kind, ip, country, created_at) VALUES ($1, 'login', $2, $3, $4)")
                .bind(user)
                .bind(ip)
                .bind(country)
                .bind(NOW)
                .execute(db.pool())
                .await
                .unwrap();
        }
    };
    event(anna.id, "198.51.100.7", "NL").await;
    event(anna.id, "203.0.113.9", "NG").await;
    for other in &others {
        event(*other, "198.51.100.7", "NL").await;
    }
    let anna = w.reload(anna.id).await;
    for _ in 0..5 {
        support::shop::buy(&db, &payments, &w, &anna, 25, PaymentMethod::Ideal, PaymentStatus::Failed, NOW).await;
    }
    let pack = support::shop::pack_id(&w, &payments, 25).await;
    let cheat = w.reload(others[0]).await;
    let charged = support::shop::buy(&db, &payments, &w, &cheat, 25, PaymentMethod::Ideal, PaymentStatus::Paid, NOW).await;
    sqlx::query("UPDATE payments SET status = 'charged_back', updated_at = $2 WHERE id = $1").bind(charged).bind(NOW).execute(db.pool()).await.unwrap();
    for (user, payment) in [(anna.id, None), (cheat.id, Some(charged))] {
        sqlx::query("INSERT INTO direct_debits (user_id, pack_id, iban, phone, code_hash, created_at, expires_at, payment_id) VALUES ($1, $2, 'NL91ABNA0417164300', '+31612345678', 'x', $3, $3, $4)")
            .bind(user)
            .bind(pack)
            .bind(NOW)
            .bind(payment)
            .execute(db.pool())
            .await
            .unwrap();
    }
    let anna_report = report(anna.id).await;
    assert_eq!(
        anna_report.signals,
        vec![
            Signal::DisposableAddress,
            Signal::SharedIp,
            Signal::SharedPaymentMethod,
            Signal::PaymentVelocity,
            Signal::CountryMismatch,
            Signal::DebitAfterChargeback
        ]
    );
    assert_eq!(anna_report.score, 100);
    // The neighbour shares the IP with anna and two others (three), and the IBAN.
    let cheat_report = report(cheat.id).await;
    assert_eq!(cheat_report.signals, vec![Signal::SharedIp, Signal::SharedPaymentMethod]);
    assert_eq!(cheat_report.score, 50);
    assert_eq!(report(plain.id).await.signals, vec![], "the others' doings are not hers");

    // Only staff with the member file, only for the site's members.
    let refused_for = |r: Result<server::fraud::FraudReport, server::AppError>| r.err().map(|e| e.code());
    assert_eq!(refused_for(server::fraud::report(&db, &anna, site, plain.id, NOW).await), Some(ErrorCode::NotFound));
    let (other_site,): (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused_for(server::fraud::report(&db, &helper, other_site, plain.id, NOW).await), Some(ErrorCode::NotFound));
    assert_eq!(refused_for(server::fraud::report(&db, &helper, site, 999_999, NOW).await), Some(ErrorCode::NotFound));
});
