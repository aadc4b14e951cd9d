//! Credits: the pricing page and its server functions (payments come with the credits feature).

pub mod pricing;
pub mod server_fns;
