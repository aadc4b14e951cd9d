//! Members as others see them: profiles and where they live. Search, photos and blocking.

pub mod avatars;
pub mod basics;
pub mod demo;
pub mod photo_decode;
pub mod photos;
pub mod search;
pub mod search_cache;
mod service;

pub use basics::ProfileBasics;
pub use service::Members;
