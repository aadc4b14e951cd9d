use super::*;

fn member(id: i64) -> Member {
    Member {
        id,
        site_id: 1,
        email: format!("m{id}@example.nl"),
        name: format!("M{id}"),
        status: domain::account::UserStatus::Active,
        language: "nl".into(),
        credits: 0,
        paid_user: false,
        invisible: false,
        signup_date: 0,
        profile_status: domain::account::ProfileStatus::Active,
        basics_complete: true,
        alerts: Default::default(),
        roles: domain::staff::StaffRoles::NONE,
        two_step: false,
        main_photo_id: None,
        counters: Default::default(),
        country: None,
        session_country: None,
        age_verified: false,
        seeks: None,
    }
}

fn cache() -> MemberCache {
    let cache = MemberCache::postgres(Duration::from_secs(60));
    cache.heard(crate::db::Heard::MayHaveMissed);
    cache
}

/// A trigger's announcement on the members' channel.
fn told(payload: &str) -> crate::db::Heard {
    crate::db::Heard::Notification { channel: CHANNEL.into(), payload: payload.into() }
}

/// A cache keeping the sessions `a`, `b` and `c` of members 1, 2 and 3, and the ticket they were read under.
fn three_members() -> (MemberCache, Ticket) {
    let cache = cache();
    let ticket = cache.sync().unwrap();
    for (token, id) in [("a", 1), ("b", 2), ("c", 3)] {
        cache.put_session(ticket, token, session(id));
    }
    (cache, ticket)
}

fn session(id: i64) -> CachedSession {
    CachedSession { member: member(id), seen: 0, expires: i64::MAX }
}

#[test]
fn keeps_each_session_under_its_own_token() {
    let cache = cache();
    let ticket = cache.sync().unwrap();
    cache.put_session(ticket, "a", session(1));
    cache.put_session(ticket, "b", session(2));
    assert_eq!(cache.session("a").unwrap().member.id, 1);
    assert_eq!(cache.session("b").unwrap().member.id, 2);
    assert!(cache.session("c").is_none());
}

#[test]
fn a_change_drops_the_member_and_only_them() {
    let cache = cache();
    let ticket = cache.sync().unwrap();
    cache.put_session(ticket, "a", session(1));
    cache.put_session(ticket, "a2", session(1));
    cache.put_session(ticket, "b", session(2));
    cache.put_blocks_and_likes(ticket, 1, Default::default(), Default::default());
    cache.heard(told("1"));
    assert!(cache.session("a").is_none() && cache.session("a2").is_none());
    assert!(cache.blocks_and_likes(1).is_none());
    assert!(cache.session("b").is_some());
}

#[test]
fn a_chat_send_drops_its_sender_and_recipient_and_other_chat_signals_drop_no_one() {
    use crate::chat::bus::{payload, Signal, CHANNEL as CHAT};
    let (cache, ticket) = three_members();
    let chat = |signals: &[Signal]| crate::db::Heard::Notification { channel: CHAT.into(), payload: payload(signals) };
    cache.heard(chat(&[Signal::Typing { conversation: 5, from: 1, to: 2 }, Signal::Queue { site: 1 }]));
    assert!(cache.session("a").is_some() && cache.session("b").is_some(), "typing changes no one's row");
    cache.heard(chat(&[Signal::Message { id: 9, conversation: 5, sender: 1, recipient: 2 }, Signal::Queue { site: 1 }]));
    assert!(cache.session("a").is_none(), "the sender's balance changed");
    assert!(cache.session("b").is_none(), "the recipient's unread count changed");
    assert!(cache.session("c").is_some());
    // A read under way while the send committed is not kept.
    cache.put_session(ticket, "a", session(1));
    assert!(cache.session("a").is_none());
    // A chat payload this node cannot read: nothing kept can be trusted.
    cache.heard(crate::db::Heard::Notification { channel: CHAT.into(), payload: "m,1".into() });
    assert!(cache.session("c").is_none());
}

/// A text message from member 1 to member 2.
fn own_row(id: i64) -> crate::chat::store::MessageRow {
    own_message(id, false)
}

fn own_message(id: i64, held: bool) -> crate::chat::store::MessageRow {
    crate::chat::store::MessageRow {
        id,
        conversation_id: 5,
        sender_id: 1,
        recipient_id: 2,
        kind: domain::chat::MessageKind::Text,
        body: "hoi".into(),
        gift: None,
        has_photo: false,
        photo_review: None,
        client_id: "abcdefgh".into(),
        held,
        created_at: 1,
    }
}

/// A send's chat signal with its row and figures.
fn signal(row: crate::chat::store::MessageRow, figures: crate::chat::bus::Figures) -> crate::db::Heard {
    use crate::chat::bus::{message_with_row, Signal, CHANNEL as CHAT};
    crate::db::Heard::Notification {
        channel: CHAT.into(),
        payload: format!("{};{}", Signal::Queue { site: 1 }.encode(), message_with_row(&row, figures).unwrap()),
    }
}

#[test]
fn a_send_that_tells_its_figures_patches_its_members_instead() {
    use crate::chat::bus::Figures;
    let (cache, ticket) = three_members();
    cache.put_blocks_and_likes(ticket, 1, Default::default(), Default::default());
    let (row, heard) = (own_message, signal);
    cache.heard(heard(row(9, false), Figures { sender_credits: Some(95), recipient_unread: Some(4) }));
    assert_eq!(cache.session("a").unwrap().member.credits, 95, "the sender's balance, as the database told it");
    assert_eq!(cache.session("b").unwrap().member.counters.unread_messages, 4, "the recipient's unread total");
    assert!(cache.blocks_and_likes(1).is_some(), "a send changes no one's blocks or likes");
    assert!(cache.session("c").is_some());
    // A read under way while the send committed is still not kept.
    cache.put_session(ticket, "a2", session(1));
    assert!(cache.session("a2").is_none());
    // Held: the sender is patched, the recipient (not told) dropped.
    cache.heard(heard(row(10, true), Figures { sender_credits: Some(90), recipient_unread: None }));
    assert_eq!(cache.session("a").unwrap().member.credits, 90);
    assert!(cache.session("b").is_none());
    // Not told at all (a send stored statement by statement): both dropped.
    cache.heard(heard(row(11, false), Figures::default()));
    assert!(cache.session("a").is_none());
}

#[test]
fn a_members_own_send_keeps_their_sessions_with_the_new_balance_unless_something_came_between() {
    use crate::chat::bus::Figures;
    let cache = cache();
    let ticket = cache.sync().unwrap();
    let mut rich = session(1);
    rich.member.credits = 100;
    cache.put_session(ticket, "a", rich.clone());
    let send = cache.send_ticket();
    assert!(cache.sent(send, 1, 7, 95));
    assert_eq!(cache.session("a").unwrap().member.credits, 95);
    // A parallel send with a ticket from before that patch is not current: the caller drops.
    assert!(!cache.sent(send, 1, 8, 90));
    // A change heard between the ticket and the send's end: not current, the caller drops.
    let send = cache.send_ticket();
    cache.heard(told("1"));
    assert!(!cache.sent(send, 1, 9, 90));
    // The send's own signal heard before the send's answer: what is kept is its, and current.
    cache.put_session(cache.sync().unwrap(), "a", rich.clone());
    let send = cache.send_ticket();
    cache.heard(signal(own_row(10), Figures { sender_credits: Some(80), recipient_unread: Some(1) }));
    assert!(cache.sent(send, 1, 10, 80));
    assert_eq!(cache.session("a").unwrap().member.credits, 80);
    // ... unless something else of theirs was heard after it.
    let send = cache.send_ticket();
    cache.heard(signal(own_row(11), Figures { sender_credits: Some(75), recipient_unread: Some(2) }));
    cache.heard(told("1"));
    assert!(!cache.sent(send, 1, 11, 75));
    // Off, or on SQLite's change log: never kept this way.
    assert!(!MemberCache::off().sent(send, 1, 11, 75));
}

#[test]
fn a_read_that_raced_with_a_change_is_not_kept() {
    let cache = cache();
    let ticket = cache.sync().unwrap();
    // The change arrives while the read is under way.
    cache.heard(told("1"));
    cache.put_session(ticket, "a", session(1));
    assert!(cache.session("a").is_none());
    // Another member's read under the same ticket is still current.
    cache.put_session(ticket, "b", session(2));
    assert!(cache.session("b").is_some());
    // A read started after the change is kept.
    cache.put_session(cache.sync().unwrap(), "a", session(1));
    assert!(cache.session("a").is_some());
}

#[test]
fn everyone_is_dropped_when_findability_changes_or_announcements_were_missed() {
    let cache = cache();
    let ticket = cache.sync().unwrap();
    cache.put_session(ticket, "a", session(1));
    cache.heard(told("0"));
    assert!(cache.session("a").is_none());
    cache.put_session(ticket, "a", session(1));
    assert!(cache.session("a").is_none(), "a read from before the change is not kept");
    let ticket = cache.sync().unwrap();
    cache.put_session(ticket, "a", session(1));
    cache.heard(crate::db::Heard::MayHaveMissed);
    assert!(cache.session("a").is_none());
}

#[test]
fn nothing_is_served_before_announcements_are_heard_or_when_off() {
    let cache = MemberCache::postgres(Duration::from_secs(60));
    assert!(cache.sync().is_none());
    assert!(MemberCache::off().sync().is_none());
    assert!(MemberCache::postgres(Duration::ZERO).sync().is_none());
}

#[test]
fn a_kept_last_opened_card_goes_when_its_profile_changes() {
    let cache = cache();
    let ticket = cache.sync().unwrap();
    let today = Ymd { year: 2026, month: 11, day: 28 };
    let card = MemberCard { id: 7, name: "Eva".into(), age: 30, city: String::new(), region: String::new(), thumb: None, fictional: false };
    cache.put_last_opened(ticket, 1, today, Some((card, 5)));
    assert_eq!(cache.last_opened(1, today).unwrap().unwrap().0.id, 7);
    assert!(cache.last_opened(1, Ymd { day: 29, ..today }).is_none(), "another day: the age may differ");
    cache.heard(told("7"));
    assert!(cache.last_opened(1, today).is_none());
}

#[test]
fn a_kept_page_goes_when_its_member_or_anyone_it_shows_changes() {
    let cache = cache();
    let list = Arc::new(vec![7_i64, 8]);
    cache.put_page(cache.sync().unwrap(), 1, "likes/1".into(), &[7, 8], list.clone());
    cache.put_page(cache.sync().unwrap(), 2, "likes/1".into(), &[9], Arc::new(vec![9_i64]));
    assert_eq!(cache.page::<Arc<Vec<i64>>>(1, "likes/1"), Some(list.clone()));
    assert_eq!(cache.page::<Arc<Vec<i64>>>(1, "likes/2"), None, "another page");
    assert_eq!(cache.page::<Arc<Vec<u8>>>(1, "likes/1"), None, "another type");
    // A member the page shows changed: it goes; the other member's page stays.
    cache.heard(told("8"));
    assert_eq!(cache.page::<Arc<Vec<i64>>>(1, "likes/1"), None);
    assert!(cache.page::<Arc<Vec<i64>>>(2, "likes/1").is_some());
    // The member themselves changed.
    cache.heard(told("2"));
    assert!(cache.page::<Arc<Vec<i64>>>(2, "likes/1").is_none());
    // A read that raced with a change of someone it shows is not kept.
    let ticket = cache.sync().unwrap();
    cache.heard(told("7"));
    cache.put_page(ticket, 1, "likes/1".into(), &[7, 8], list.clone());
    assert!(cache.page::<Arc<Vec<i64>>>(1, "likes/1").is_none());
    // A member keeps their newest few pages.
    for n in 0..=MAX_PAGES_PER_MEMBER {
        cache.put_page(cache.sync().unwrap(), 1, format!("likes/{n}"), &[], n);
    }
    assert_eq!(cache.page::<usize>(1, "likes/0"), None);
    assert_eq!(cache.page::<usize>(1, &format!("likes/{MAX_PAGES_PER_MEMBER}")), Some(MAX_PAGES_PER_MEMBER));
    // Findability changed somewhere: everything goes.
    cache.heard(told("0"));
    assert!(cache.page::<usize>(1, "likes/1").is_none());
}

#[test]
fn entries_older_than_the_age_limit_are_not_served() {
    let cache = MemberCache::postgres(Duration::from_millis(30));
    cache.heard(crate::db::Heard::MayHaveMissed);
    cache.put_session(cache.sync().unwrap(), "a", session(1));
    assert!(cache.session("a").is_some());
    std::thread::sleep(Duration::from_millis(40));
    assert!(cache.session("a").is_none());
    cache.prune();
    assert_eq!(cache.sessions_kept(), 0);
}
