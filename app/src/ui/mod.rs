//! UI pieces that pages share and that know no feature: the icons, what every form shares
//! (refusals, the escaping textarea, return paths), the pager. Nothing here imports a page.

pub mod forms;
pub mod icons;
pub mod pager;
