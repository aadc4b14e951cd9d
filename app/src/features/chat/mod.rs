//! Chat (SPEC §1, §2, §4): `/chats`, `/chats/{id}`, `/members/{id}/chat` in the chat layout,
//! hosted by an island around the React `ChatPanel` widget, and the operator console
//! (`/staff/chats`) where operators answer as fictional profiles.

pub mod console;
pub mod island;
pub mod page;
pub mod queue;
pub mod server_fns;

/// A fresh id for one send: a retried post of the same form is then stored once.
#[cfg(feature = "ssr")]
pub fn new_client_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh id for one send (in the browser).
#[cfg(not(feature = "ssr"))]
pub fn new_client_id() -> String {
    let part = || format!("{:08x}", (js_sys::Math::random() * 4_294_967_295.0) as u32);
    format!("{}{}{}{}", part(), part(), part(), part())
}
