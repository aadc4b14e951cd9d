//! Account pages: signup, login, activation results.

pub mod activate;
pub mod age_check;
pub mod basics;
pub mod invitation;
pub mod leaving;
pub mod location;
pub mod login;
pub mod photos;
pub mod profile;
pub mod reset;
pub mod security;
pub mod server_fns;
pub mod settings;
pub mod sign_in_link;
pub mod signup;
pub mod sister_sites;
pub mod unsubscribe;

/// For member-only pages: the member, or `None` after sending the visitor to the login page,
/// which brings them back to `path`.
pub fn member_or_login(path: &str) -> Option<crate::context::MemberView> {
    let member = crate::context::use_page_ctx().member.clone();
    if member.is_none() {
        #[cfg(feature = "ssr")]
        crate::call::redirect(&crate::paths::login_then(path));
        #[cfg(not(feature = "ssr"))]
        let _ = path;
    }
    member
}
