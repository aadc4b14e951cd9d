//! Staff roles: every staff area of the services answered only for the roles that open it (to
//! anyone else it does not exist), and staff and operators are not members others see.

use crate::support;

use std::sync::Arc;

use domain::staff::{StaffArea, StaffRole, StaffRoles};
use domain::ErrorCode;
use server::accounts::Member;
use server::chat::bus::Bus;
use server::chat::Chat;
use server::complaints::{Complaints, Status};
use server::staff::{MemberChange, Staff};
use server::Db;
use support::world::{world, World, NOW};

/// What the service behind `area` of `site` answers `who`: the refusal's code, or `None` when it
/// answered. The start page and the invitations have no refusal of their own (`None`).
async fn answer(services: &Services, who: &Member, site: i64, area: StaffArea, subject: i64) -> Option<ErrorCode> {
    let code = |e: server::AppError| e.code();
    match area {
        StaffArea::Complaints => services.complaints.list(who, site, Status::Open, 10).await.err().map(code),
        StaffArea::Members => services.staff.find(who, site, "nobody@example.nl", NOW).await.err().map(code),
        StaffArea::Roles => services.staff.change_member(who, site, subject, MemberChange::Role(StaffRole::Support, false), NOW).await.err().map(code),
        StaffArea::Photos => services.photos.queue(who, site, 10).await.err().map(code),
        StaffArea::Held => services.chat.held_for_review(who, site).await.err().map(code),
        StaffArea::Console => services.chat.operator_threads(who, site, NOW).await.err().map(code),
        StaffArea::OperatorFigures => services.chat.operator_figures(who, site, NOW - 86_400).await.err().map(code),
        StaffArea::Payments => services.payments.staff_find(who, site, &Default::default()).await.err().map(code),
        StaffArea::Refunds => services.payments.lift_payment_block(who, site, subject, NOW).await.err().map(code),
        // A correction of zero: refused by its rule when the role opens the area.
        StaffArea::Credits => services.staff.correct_credits(who, site, subject, "0", "x", "matrix-key-0000000", NOW).await.err().map(code),
        StaffArea::Pricing => services.staff.packs(who, site).await.err().map(code),
        StaffArea::Site => services.staff.company_shared_with(who, site).await.err().map(code),
        StaffArea::Log => services.staff.log(who, site, 10).await.err().map(code),
        StaffArea::Jobs => services.jobs.failed(who, site).await.err().map(code),
        StaffArea::Figures => services.postbacks.calls(who, site, 10).await.err().map(code),
        StaffArea::Home | StaffArea::Invitations => None,
    }
}

/// Whether `area` does not exist for `who`.
async fn refused(w: &World, services: &Services, who: &Member, area: StaffArea, subject: i64) -> bool {
    match area {
        // The start page has no service of its own: its parts are the areas below.
        StaffArea::Home => !who.may(StaffArea::Home),
        // Every invitation, or only one's own: a view, not a refusal. Only the maker's
        // invitation exists: staff who see every one see it.
        StaffArea::Invitations => w.accounts.invitations(w.site.settings.id, who).await.unwrap().is_empty(),
        _ => answer(services, who, w.site.settings.id, area, subject).await == Some(ErrorCode::NotFound),
    }
}

struct Services {
    staff: Staff,
    complaints: Complaints,
    photos: server::members::photos::Photos,
    chat: Chat,
    payments: server::payments::Payments,
    jobs: server::jobs::Jobs,
    postbacks: server::postbacks::Postbacks,
    _sms: tempfile::TempDir,
}

on_both_databases!(each_staff_area_answers_its_roles_only_and_is_not_found_for_everyone_else, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let services = Services {
        staff: Staff::new(db.clone()),
        complaints: Complaints::new(db.clone(), server::mail::Outbox::files(w.mail.path().to_path_buf()), Arc::new(server::locales::Catalog::embedded())),
        photos: server::members::photos::Photos::new(
            db.clone(),
            Arc::new(server::media::LocalStore::new(w.media.path())),
            server::members::photo_decode::PhotoDecoder::new(1 << 20, 2),
        ),
        chat: Chat::new(w.members.clone(), Bus::start(db.clone(), "sqlite://unused")),
        payments: support::shop::payments(&w, sms.path()),
        jobs: server::jobs::Jobs::new(db.clone(), server::clock::Clock::fixed(NOW), "test"),
        postbacks: server::postbacks::Postbacks::new(db.clone(), server::clock::Clock::fixed(NOW)),
        _sms: sms,
    };
    // The subject of role changes and lifted blocks; an invitation made by someone else, so that
    // "every invitation" differs from "one's own".
    let subject = w.member("subject@example.nl", "female").await;
    let maker = w.member("maker@example.nl", "male").await;
    let admin_maker = {
        support::grant_staff(&db, &w.accounts, "maker@example.nl", StaffRole::Admin).await;
        w.reload(maker.id).await
    };
    w.accounts.invite(&w.site.settings, &admin_maker, "for the matrix").await.unwrap();

    let member = w.member("member@example.nl", "male").await;
    let mut checked = 0;
    for role in StaffRole::ALL {
        let email = format!("{}@example.nl", role.as_str());
        let account = w.member(&email, "male").await;
        assert_eq!(w.accounts.set_staff_role(&email, role, true).await.unwrap(), 1);
        // With the role but not yet two-step login: told to switch it on, for each of its areas.
        let without = w.reload(account.id).await;
        for area in StaffArea::ALL.into_iter().filter(|a| a.roles().contains(&role) && *a != StaffArea::Home && *a != StaffArea::Invitations) {
            assert_eq!(answer(&services, &without, w.site.settings.id, area, subject.id).await, Some(ErrorCode::TwoStepRequired), "{role:?} in {area:?}");
        }
        support::grant_staff(&db, &w.accounts, &email, role).await;
        let staff = w.reload(account.id).await;
        assert_eq!((staff.roles, staff.two_step), (StaffRoles::of(&[role]), true));
        for area in StaffArea::ALL {
            let open = area.roles().contains(&role);
            assert_eq!(refused(&w, &services, &staff, area, subject.id).await, !open, "{role:?} in {area:?}");
            checked += 1;
        }
    }
    for area in StaffArea::ALL {
        assert!(refused(&w, &services, &member, area, subject.id).await, "a member in {area:?}");
    }
    assert_eq!(checked, 5 * StaffArea::ALL.len());

    // Staff cannot switch two-step login off while they hold a role.
    let refused_off = w.accounts.two_step_disable(admin_maker.id, "rode kater op het dak", &Default::default()).await;
    assert_eq!(refused_off.unwrap_err().code(), ErrorCode::TwoStepRequired);
    assert!(w.reload(admin_maker.id).await.two_step);

    // Staff of another site are nobody here, whatever their roles.
    let other_site: (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(w.site.settings.id).fetch_one(db.pool()).await.unwrap();
    let mut elsewhere = w.reload(admin_maker.id).await;
    elsewhere.site_id = other_site.0;
    assert!(refused(&w, &services, &elsewhere, StaffArea::Log, subject.id).await);
});

on_both_databases!(staff_and_operators_are_not_members_others_find, |db: Db| async move {
    let w = world(db.clone()).await;
    let anna = w.member("anna@example.nl", "female").await;
    let olga = w.member("olga@example.nl", "male").await;
    let searchable = |id: i64| {
        let db = db.clone();
        async move {
            let row = sqlx::query("SELECT searchable FROM profiles WHERE user_id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
            server::db::flag(&row, "searchable").unwrap()
        }
    };
    assert!(searchable(olga.id).await);
    w.accounts.set_staff_role("olga@example.nl", StaffRole::Operator, true).await.unwrap();
    assert!(!searchable(olga.id).await, "an operator leaves the search");
    let today = domain::account::Ymd { year: 2026, month: 11, day: 22 };
    let filters = domain::search::SearchFilters {
        gender: Some(domain::profile::Gender::Male),
        country: Some("NL".into()),
        region: None,
        min_age: 18,
        max_age: 99,
        page: 1,
    };
    let found = w.members.search(&w.site.settings, Some(anna.id), &filters, today).await.unwrap();
    assert!(found.results.iter().chain(&found.similar).all(|c| c.id != olga.id), "not among the cards");
    assert!(w.members.profile(&w.site.settings, Some(anna.id), olga.id, today).await.unwrap().is_none(), "no profile page");
    w.accounts.set_staff_role("olga@example.nl", StaffRole::Moderator, true).await.unwrap();
    w.accounts.set_staff_role("olga@example.nl", StaffRole::Operator, false).await.unwrap();
    assert!(!searchable(olga.id).await, "a moderator is staff too");
    w.accounts.set_staff_role("olga@example.nl", StaffRole::Moderator, false).await.unwrap();
    assert!(searchable(olga.id).await, "a member again without any role");

    // An admin granting a role takes the account out of the search in the same transaction.
    let boss = w.member("boss@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "boss@example.nl", StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    Staff::new(db.clone()).change_member(&boss, w.site.settings.id, anna.id, MemberChange::Role(StaffRole::Finance, true), NOW).await.unwrap();
    assert!(!searchable(anna.id).await);
    let anna = w.reload(anna.id).await;
    assert!(anna.roles.may(StaffArea::Payments) && !anna.may(StaffArea::Payments), "the role, usable once two-step login is on");
});
