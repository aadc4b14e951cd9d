//! Landing pages (SPEC §2): the designs and their routes, slugs, and which lander a path is
//! for the bounce figures (SPEC §9 `lb`).

/// The lander designs of `/landers/{name}`; each is a React widget of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Design {
    AloneTonight,
    Collage,
    Gallery,
    Icons,
    Map,
    SocialNetwork,
    TransitionsVideo,
    Video,
    TinderSwipe,
}

impl Design {
    pub const ALL: [Design; 9] = [
        Design::AloneTonight,
        Design::Collage,
        Design::Gallery,
        Design::Icons,
        Design::Map,
        Design::SocialNetwork,
        Design::TransitionsVideo,
        Design::Video,
        Design::TinderSwipe,
    ];

    /// The name in the address (`/landers/{route}`), also the key of its texts.
    pub fn route(self) -> &'static str {
        match self {
            Design::AloneTonight => "alonetonight",
            Design::Collage => "collagelanding",
            Design::Gallery => "gallery",
            Design::Icons => "iconslanding",
            Design::Map => "maplanding",
            Design::SocialNetwork => "socialnetwork",
            Design::TransitionsVideo => "transitionsvideolanding",
            Design::Video => "video",
            Design::TinderSwipe => "tinderswipe",
        }
    }

    pub fn from_route(route: &str) -> Option<Design> {
        Design::ALL.into_iter().find(|d| d.route() == route)
    }

    /// The widget's name in the bundle's registry.
    pub fn widget(self) -> &'static str {
        match self {
            Design::AloneTonight => "AloneTonight",
            Design::Collage => "CollageLanding",
            Design::Gallery => "GalleryLanding",
            Design::Icons => "IconsLanding",
            Design::Map => "MapLanding",
            Design::SocialNetwork => "SocialNetwork",
            Design::TransitionsVideo => "TransitionsVideo",
            Design::Video => "VideoLanding",
            Design::TinderSwipe => "TinderSwipe",
        }
    }

    /// Every design but the swipe stack may carry a slug (SPEC §2).
    pub fn takes_slug(self) -> bool {
        self != Design::TinderSwipe
    }

    /// The designs that play the looping clip.
    pub fn plays_clip(self) -> bool {
        matches!(self, Design::TransitionsVideo | Design::Video)
    }

    /// The design of `/members/{id}/landing2` and `landing3` (one profile up front).
    pub fn for_profile_lander(kind: &str) -> Option<Design> {
        match kind {
            "landing2" => Some(Design::Gallery),
            "landing3" => Some(Design::SocialNetwork),
            _ => None,
        }
    }
}

/// A member counts as online on the landers when last active this recently (seconds).
pub const ONLINE_SECS: i64 = 3_600;

/// The longest slug we answer to.
pub const SLUG_MAX_CHARS: usize = 60;

/// A slug is lower-case letters, digits and single dashes, at most [`SLUG_MAX_CHARS`].
pub fn valid_slug(slug: &str) -> bool {
    !slug.is_empty() && slug.len() <= SLUG_MAX_CHARS && slug.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') && !slug.contains("--")
}

/// The lander and slug of a page path: `/landers/{name}/{slug}`, `/members/{id}/landing2/{slug}`
/// (the profile's id is not part of the lander), `/` as `home`; any other page by its path.
/// Both are cut to 60 characters.
pub fn from_path(path: &str) -> (String, String) {
    let cut = |s: &str| s.chars().take(60).collect::<String>();
    let parts: Vec<&str> = path.split('?').next().unwrap_or("").split('/').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [] => ("home".into(), String::new()),
        ["landers", name] => (cut(name), String::new()),
        ["landers", name, slug, ..] => (cut(name), cut(slug)),
        ["members", id, kind] if id.bytes().all(|b| b.is_ascii_digit()) && kind.starts_with("landing") => (cut(kind), String::new()),
        ["members", id, kind, slug, ..] if id.bytes().all(|b| b.is_ascii_digit()) && kind.starts_with("landing") => (cut(kind), cut(slug)),
        _ => (cut(&format!("/{}", parts.join("/"))), String::new()),
    }
}

/// Whether a query string asks for bounce logging (`lb`, with or without a value).
pub fn wants_bounce_log(query: &str) -> bool {
    query.trim_start_matches('?').split('&').any(|p| p == "lb" || p.starts_with("lb="))
}

/// What a visitor was about to do on a member's profile when signup came between
/// (`/members/{id}/signup?then=like`): it travels through signup and is done (the like) or
/// made ready (the chat open, its gift picker at hand) when the new member comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::AsRefStr)]
#[strum(serialize_all = "snake_case")]
pub enum EntryAction {
    Like,
    Message,
    Gift,
}

impl EntryAction {
    /// The action a `then` parameter names; anything else is none.
    pub fn parse(value: &str) -> Option<EntryAction> {
        value.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn entry_actions_read_from_the_address_and_nothing_else() {
        assert_eq!(EntryAction::parse("like"), Some(EntryAction::Like));
        assert_eq!(EntryAction::parse("message").map(|a| a.as_ref().to_string()), Some("message".into()));
        assert_eq!(EntryAction::parse("gift"), Some(EntryAction::Gift));
        for bad in ["", "Like", "unlike", "<b>", "like "] {
            assert_eq!(EntryAction::parse(bad), None, "{bad:?}");
        }
    }

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn designs_and_slugs() {
        for d in Design::ALL {
            assert_eq!(Design::from_route(d.route()), Some(d));
        }
        assert_eq!(Design::from_route("nope"), None);
        assert!(!Design::TinderSwipe.takes_slug() && Design::Video.takes_slug());
        assert!(Design::Video.plays_clip() && Design::TransitionsVideo.plays_clip() && !Design::Gallery.plays_clip());
        assert_eq!(Design::for_profile_lander("landing2"), Some(Design::Gallery));
        assert_eq!(Design::for_profile_lander("landing4"), None);
        assert!(valid_slug("milf-amsterdam") && valid_slug("she") && valid_slug("2024"));
        assert!(!valid_slug("") && !valid_slug("Amsterdam") && !valid_slug("a--b") && !valid_slug("a b") && !valid_slug(&"a".repeat(61)));
    }

    #[test]
    fn landers_from_paths() {
        let l = |p: &str| from_path(p);
        assert_eq!(l("/landers/gallery"), ("gallery".into(), "".into()));
        assert_eq!(l("/landers/gallery/milf-amsterdam?lb=1"), ("gallery".into(), "milf-amsterdam".into()));
        assert_eq!(l("/members/42/landing2/she-utrecht"), ("landing2".into(), "she-utrecht".into()));
        assert_eq!(l("/members/42/landing"), ("landing".into(), "".into()));
        assert_eq!(l("/"), ("home".into(), "".into()));
        assert_eq!(l("/members"), ("/members".into(), "".into()));
        assert!(wants_bounce_log("?network=x&lb") && wants_bounce_log("lb=1") && !wants_bounce_log("club=1&lbs=2"));
    }

    proptest! {
        #[test]
        fn canonical_slugs_of_valid_slugs_are_valid(niche in 1u8..=7, slug in "[a-z0-9]{1,10}(-[a-z0-9]{1,10}){0,3}") {
            prop_assert!(valid_slug(&slug));
            let canonical = crate::site::Niche::new(niche).unwrap().canonical_slug(&slug);
            prop_assert!(canonical.is_empty() || valid_slug(&canonical), "{}", canonical);
        }

        #[test]
        fn any_path_gives_a_short_lander(path in ".{0,300}") {
            let (lander, slug) = from_path(&path);
            prop_assert!(lander.chars().count() <= 60 && slug.chars().count() <= 60);
            prop_assert!(!lander.is_empty());
        }
    }
}
