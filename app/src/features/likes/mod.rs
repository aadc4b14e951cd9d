//! Likes: `/likes` and `/likes/{type}` (received, matches, given). `/likes/m/{id}` leads to
//! that member's profile (an axum route in `server::http::like_routes`).

pub mod page;
pub mod server_fns;
