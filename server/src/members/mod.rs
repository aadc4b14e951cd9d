//! Members as others see them: profiles and where they live. (Search, photos and blocking grow
//! here with the members feature.)

pub mod basics;

pub use basics::{Members, ProfileBasics};
