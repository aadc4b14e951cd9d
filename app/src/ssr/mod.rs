//! The server's assembly, apart from the pages it serves: [`page_context`] (a request's site,
//! language and member), [`router`] (every route and layer), [`body_guard`] (server functions'
//! bodies checked before Leptos reads them), [`serve`] (the accept loop and shutdown) and
//! [`cli`] (the binary's other commands). Pages never import this; what server functions share
//! is [`crate::call`].

pub mod body_guard;
pub mod cli;
pub mod page_context;
pub mod router;
pub mod serve;

pub use cli::{backup, check, restore, reverse_direct_debit, set_staff, test_provider_event};
pub use page_context::{page_ctx, page_links, PageLinks};
pub use router::{leptos_options, page_paths, router, router_with_page_cache, server_fn_status, ServerState, PANIC_PAGE};
pub use serve::{no_delay, serve, serve_connections, serve_connections_then};
