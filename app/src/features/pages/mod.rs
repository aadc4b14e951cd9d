//! Informational pages: terms, privacy, cookies, ban notice, return policy, FAQ, service, complaints.

pub mod info;
