//! Members as others see them: profiles and where they live. (Search, photos and blocking grow
//! here with the members feature.)

pub mod avatars;
pub mod basics;
pub mod demo;
pub mod search;

pub use basics::{Members, ProfileBasics};
