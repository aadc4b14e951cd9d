//! Staff pages (a role beyond SPEC §6, granted with `vonk staff grant <email>`): photo review.
//! Everyone else gets the not-found page, so the pages do not announce themselves.

pub mod photos;
