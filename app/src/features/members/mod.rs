//! Members: search (`/members`), profile pages (`/members/{id}`) and the visitor entry through one profile (`/members/{id}/landing`, `/members/{id}/signup`).

pub mod card;
pub mod landing;
pub mod profile;
pub mod search;
pub mod server_fns;
