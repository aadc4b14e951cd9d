//! UI pieces that pages share and that know no feature: the icons, what every form shares
//! (refusals, the escaping textarea, return paths), the pager, a name's initial. Nothing here
//! imports a page.

pub mod forms;
pub mod icons;
pub mod money;
pub mod pager;

/// The first letter of a name in capitals: what a member without a photo shows instead.
pub fn initial(name: &str) -> String {
    name.chars().next().map(|c| c.to_uppercase().to_string()).unwrap_or_default()
}
