//! Members: search (`/members`) and profile pages (`/members/{id}`).

pub mod card;
pub mod profile;
pub mod search;
pub mod server_fns;
