//! Landing pages: which lander a path is, for bounce figures (SPEC §9 `lb`).

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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
        fn any_path_gives_a_short_lander(path in ".{0,300}") {
            let (lander, slug) = from_path(&path);
            prop_assert!(lander.chars().count() <= 60 && slug.chars().count() <= 60);
            prop_assert!(!lander.is_empty());
        }
    }
}
