//! The landers (`/landers/{name}`).

use serde::{Deserialize, Serialize};

use super::Counted;

/// One member shown on a lander.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderProfile {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub place: String,
    /// Photo address (a thumbnail), or none (the tile shows the initial).
    pub photo: Option<String>,
    /// The same photo larger, for the designs that show one member big.
    pub large: Option<String>,
    pub online: bool,
    /// Where the tile leads: signup about this member.
    pub href: String,
}

/// The looping clip of the video landers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderClip {
    pub src: String,
    pub poster: Option<String>,
}

/// Texts of the landers, already translated by the page (`headline` and `intro` per design).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderLabels {
    pub headline: String,
    pub intro: String,
    pub cta: String,
    pub have_account: String,
    pub login: String,
    pub free: String,
    pub online: String,
    /// Counted: "{count} leden nu online".
    pub members_online: Counted,
    pub nearby: String,
    pub live: String,
    pub live_now: String,
    /// Counted: "{count} kijken mee".
    pub watching: Counted,
    /// "{name} vindt jou leuk!"
    pub liked_you: String,
    pub view_profile: String,
    pub close: String,
    pub point_discreet: String,
    pub point_discreet_body: String,
    pub point_match: String,
    pub point_match_body: String,
    pub point_chat: String,
    pub point_chat_body: String,
    pub react_like: String,
    pub react_message: String,
    pub swipe_stack: String,
    pub swipe_like: String,
    pub swipe_pass: String,
    pub swipe_done: String,
}

/// Props of every lander widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderProps {
    pub profiles: Vec<LanderProfile>,
    /// The member of `/members/{id}/landing2|3`.
    pub featured: Option<LanderProfile>,
    pub clip: Option<LanderClip>,
    /// Members of the site seen in the last quarter of an hour.
    pub online_count: u32,
    pub signup_href: String,
    pub login_href: String,
    /// `?t=N`: the like popup after N seconds.
    pub like_after: Option<u32>,
    pub labels: LanderLabels,
}
