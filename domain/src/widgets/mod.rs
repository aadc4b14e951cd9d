//! Props and events of the React widgets. Written once here; TypeScript types are generated
//! from these (`make types`) into `react-widgets/src/generated/`, and a test fails when those
//! files are stale.

mod chat;
mod counted;
mod lander;
mod payment;
mod swipe;
#[cfg(test)]
mod tests;

pub use chat::*;
pub use counted::*;
pub use lander::*;
pub use payment::*;
pub use swipe::*;
