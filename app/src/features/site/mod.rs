//! The site shell's own pages: home, language choice, error pages.

pub mod bounce;
pub mod error_page;
pub mod home;
pub mod lang_config;
