//! The swipe game (`SwipeGame`).

use serde::{Deserialize, Serialize};

use super::Counted;

/// One profile in the swipe game's stack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeCard {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub place: String,
    /// Photo address, or none (the card shows the initial).
    pub photo: Option<String>,
    /// The profile page.
    pub href: String,
}

/// Texts of the swipe game, already translated by the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeGameLabels {
    /// Accessible name of the card stack.
    pub title: String,
    pub like: String,
    pub pass: String,
    pub view_profile: String,
    /// How to play with the keyboard.
    pub keys: String,
    /// Counted: likes left today.
    pub remaining: Counted,
    /// The 'come back' state's heading.
    pub used_up: String,
    /// With `{time}` (hours and minutes): when the next like is possible.
    pub come_back: String,
    /// No more profiles to show.
    pub empty: String,
    pub search: String,
    /// The match overlay ('New like!') and its one button.
    pub match_title: String,
    /// With `{name}`.
    pub match_body: String,
    pub match_close: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeGameProps {
    pub cards: Vec<SwipeCard>,
    /// Likes left today; `None` without a limit (premium).
    pub remaining: Option<u32>,
    /// Once none remain: when the next like is possible (unix seconds).
    #[cfg_attr(test, ts(type = "number | null"))]
    pub next_at: Option<i64>,
    /// The profile just matched, for the match overlay.
    pub matched: Option<SwipeCard>,
    pub labels: SwipeGameLabels,
}

/// Detail of the `vonk:swipe` event: a like (right) or a pass (left) on one card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeDecision {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub like: bool,
}

/// Name of the DOM event for a swipe.
pub const SWIPE_EVENT: &str = "vonk:swipe";
