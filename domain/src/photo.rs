//! Photos: the limits and states of SPEC §3 and §9, what a viewer may see of a photo, and the
//! error keys of a refused upload. Decoding lives on the server; the rules live here.

use serde::{Deserialize, Serialize};

/// SPEC §9: free members keep at most 3 photos, premium members 25.
pub const FREE_PHOTO_LIMIT: usize = 3;
pub const PREMIUM_PHOTO_LIMIT: usize = 25;
/// Default upload size limit (config `VONK_PHOTO_MAX_BYTES`).
pub const DEFAULT_MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;
/// An image larger than this many pixels, or wider or taller than [`MAX_SIDE`], is refused
/// before it is decoded (a small file can claim a gigantic picture).
pub const MAX_PIXELS: u64 = 40_000_000;
pub const MAX_SIDE: u32 = 12_000;
/// The stored rendition fits in this box; the thumbnail is a 3:4 crop of this size.
pub const FULL_SIDE: u32 = 1600;
pub const THUMB_WIDTH: u32 = 480;
pub const THUMB_HEIGHT: u32 = 640;

pub fn photo_limit(premium: bool) -> usize {
    if premium {
        PREMIUM_PHOTO_LIMIT
    } else {
        FREE_PHOTO_LIMIT
    }
}

/// SPEC §3: a photo is under inspection until staff approve (active) or reject (disabled) it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhotoStatus {
    UnderInspection,
    Active,
    Disabled,
}

impl PhotoStatus {
    pub fn code(self) -> &'static str {
        match self {
            PhotoStatus::UnderInspection => "under_inspection",
            PhotoStatus::Active => "active",
            PhotoStatus::Disabled => "disabled",
        }
    }

    pub fn parse(code: &str) -> Option<PhotoStatus> {
        [PhotoStatus::UnderInspection, PhotoStatus::Active, PhotoStatus::Disabled].into_iter().find(|s| s.code() == code)
    }
}

/// Why an upload was refused; each maps to a key in `locales/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UploadError {
    /// SPEC §8 'Foto-limiet bereikt'.
    LimitReached,
    TooLarge,
    NotAnImage,
    Unreadable,
    TooManyPixels,
    NoFile,
}

impl UploadError {
    pub fn code(self) -> crate::ErrorCode {
        use crate::ErrorCode;
        match self {
            UploadError::LimitReached => ErrorCode::PhotoLimitReached,
            UploadError::TooLarge => ErrorCode::PhotoTooLarge,
            UploadError::NotAnImage => ErrorCode::PhotoNotAnImage,
            UploadError::Unreadable => ErrorCode::PhotoUnreadable,
            UploadError::TooManyPixels => ErrorCode::PhotoTooManyPixels,
            UploadError::NoFile => ErrorCode::PhotoNoFile,
        }
    }
}

/// Checks an image's claimed size before anything is decoded.
pub fn check_dimensions(width: u32, height: u32) -> Result<(), UploadError> {
    if width == 0 || height == 0 {
        return Err(UploadError::Unreadable);
    }
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(UploadError::TooManyPixels);
    }
    Ok(())
}

/// What a viewer may see of one photo of another member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Open,
    /// Only logged-in members see photos (SPEC §6: photo viewing requires login).
    LoginRequired,
    /// Private photos open to premium members only (SPEC §6).
    PremiumRequired,
    Hidden,
}

/// The facts the access rule needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhotoFacts {
    pub status: PhotoStatus,
    pub private: bool,
    /// The owner's chosen main photo (shown on cards, to visitors too).
    pub is_main: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Visitor,
    Member { premium: bool },
    Owner,
    Staff,
}

/// The one rule for every photo request: owners and staff see everything; others see active
/// photos only, visitors only the public main photo, and private photos need premium.
pub fn access(viewer: Viewer, photo: PhotoFacts) -> Access {
    match viewer {
        Viewer::Owner | Viewer::Staff => Access::Open,
        _ if photo.status != PhotoStatus::Active => Access::Hidden,
        _ if photo.is_main && !photo.private => Access::Open,
        Viewer::Visitor => Access::LoginRequired,
        Viewer::Member { premium } if photo.private && !premium => Access::PremiumRequired,
        Viewer::Member { .. } => Access::Open,
    }
}

/// One photo in the member's own list (`/profile`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnPhoto {
    pub id: i64,
    pub status: PhotoStatus,
    pub private: bool,
    pub is_main: bool,
}

/// One photo on someone's profile page: `locked` ones come without an address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GalleryPhoto {
    pub id: i64,
    pub locked: bool,
}

/// The address of a stored photo behind the access check.
pub fn photo_url(id: i64, thumb: bool) -> String {
    if thumb {
        format!("/media/photos/{id}/thumb")
    } else {
        format!("/media/photos/{id}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn facts(status: PhotoStatus, private: bool, is_main: bool) -> PhotoFacts {
        PhotoFacts { status, private, is_main }
    }

    #[test]
    fn limits_follow_the_spec() {
        assert_eq!(photo_limit(false), 3);
        assert_eq!(photo_limit(true), 25);
    }

    #[test]
    fn pixel_bombs_are_refused() {
        assert_eq!(check_dimensions(60_000, 60_000), Err(UploadError::TooManyPixels));
        assert_eq!(check_dimensions(12_000, 4_000), Err(UploadError::TooManyPixels));
        assert_eq!(check_dimensions(12_001, 10), Err(UploadError::TooManyPixels));
        assert_eq!(check_dimensions(0, 10), Err(UploadError::Unreadable));
        assert_eq!(check_dimensions(4000, 3000), Ok(()));
    }

    #[test]
    fn private_photos_need_premium() {
        let private = facts(PhotoStatus::Active, true, false);
        assert_eq!(access(Viewer::Member { premium: false }, private), Access::PremiumRequired);
        assert_eq!(access(Viewer::Member { premium: true }, private), Access::Open);
        assert_eq!(access(Viewer::Visitor, private), Access::LoginRequired);
        assert_eq!(access(Viewer::Owner, private), Access::Open);
    }

    #[test]
    fn visitors_see_the_main_photo_only() {
        assert_eq!(access(Viewer::Visitor, facts(PhotoStatus::Active, false, true)), Access::Open);
        assert_eq!(access(Viewer::Visitor, facts(PhotoStatus::Active, false, false)), Access::LoginRequired);
    }

    #[test]
    fn statuses_round_trip() {
        for s in [PhotoStatus::UnderInspection, PhotoStatus::Active, PhotoStatus::Disabled] {
            assert_eq!(PhotoStatus::parse(s.code()), Some(s));
        }
        assert_eq!(PhotoStatus::parse("nope"), None);
    }

    fn any_status() -> impl Strategy<Value = PhotoStatus> {
        prop_oneof![Just(PhotoStatus::UnderInspection), Just(PhotoStatus::Active), Just(PhotoStatus::Disabled)]
    }

    proptest! {
        /// Nobody but the owner and staff ever sees a photo that is not active.
        #[test]
        fn inactive_photos_stay_hidden(status in any_status(), private in any::<bool>(), main in any::<bool>(), premium in any::<bool>(), visitor in any::<bool>()) {
            let viewer = if visitor { Viewer::Visitor } else { Viewer::Member { premium } };
            let got = access(viewer, facts(status, private, main));
            if status != PhotoStatus::Active {
                prop_assert_eq!(got, Access::Hidden);
            }
            prop_assert_eq!(access(Viewer::Owner, facts(status, private, main)), Access::Open);
            prop_assert_eq!(access(Viewer::Staff, facts(status, private, main)), Access::Open);
        }

        /// A private photo never opens to a free member or a visitor.
        #[test]
        fn private_never_opens_for_free(status in any_status(), main in any::<bool>()) {
            prop_assert_ne!(access(Viewer::Member { premium: false }, facts(status, true, main)), Access::Open);
            prop_assert_ne!(access(Viewer::Visitor, facts(status, true, main)), Access::Open);
        }

        #[test]
        fn dimension_check_matches_pixel_budget(w in 1u32..20_000, h in 1u32..20_000) {
            let ok = check_dimensions(w, h).is_ok();
            prop_assert_eq!(ok, w <= MAX_SIDE && h <= MAX_SIDE && u64::from(w) * u64::from(h) <= MAX_PIXELS);
        }
    }
}

/// A profile photo waiting for staff's review (`/staff/photos`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedPhoto {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub created_at: i64,
    pub private: bool,
    /// A classifier's view, when one scored it (`domain::moderation`).
    pub verdict: Option<crate::moderation::Verdict>,
}
