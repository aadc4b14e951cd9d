//! Likes: `/likes` and `/likes/{type}` (received, matches, given), and the swipe game (`/swipe-game`). `/likes/m/{id}` leads to
//! that member's profile (an axum route in `server::http::like_routes`).

pub mod finder;
pub mod match_dialog;
pub mod page;
pub mod popup;
pub mod server_fns;
pub mod swipe;
