//! Pages grouped by feature; each folder keeps its pages, components and server functions.

pub mod account;
pub mod chat;
pub mod complaints;
pub mod credits;
pub mod landers;
pub mod likes;
pub mod members;
pub mod notifications;
pub mod pages;
pub mod site;
pub mod staff;
