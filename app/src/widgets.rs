//! The React bridge. A widget is mounted into a `<div>` after hydration by the widget bundle
//! (`/assets/{hash}/widgets/vonk-widgets.js` as the page's `data-widgets` names it, loaded on first use with a dynamic import so pages without
//! widgets never download React). Props go in as JSON; the widget reports user actions as DOM
//! CustomEvents dispatched on the mount element, which arrive here as JSON `detail` strings.
//! Calls for one element run in order: an update that comes while the bundle is still loading
//! waits for the mount instead of getting lost.

use leptos::prelude::*;

#[component]
pub fn ReactWidget(
    /// Widget name as the bundle's `mount` knows it, e.g. "PaymentMethodBlocks".
    name: &'static str,
    /// Props as JSON; when the signal changes the widget is re-rendered with the new props.
    #[prop(into)]
    props: Signal<String>,
    /// The DOM event to listen for, and what to do with its JSON detail.
    #[prop(optional)]
    event: Option<&'static str>,
    #[prop(optional)] on_event: Option<Callback<String>>,
    #[prop(optional)] class: &'static str,
) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    #[cfg(feature = "hydrate")]
    bridge::attach(node, name, props, event, on_event);
    #[cfg(not(feature = "hydrate"))]
    let _ = (props, event, on_event);
    view! { <div class=format!("widget {class}") data-widget=name node_ref=node></div> }
}

#[cfg(feature = "hydrate")]
mod bridge {
    use leptos::prelude::*;
    use send_wrapper::SendWrapper;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen(inline_js = "
        const load = () => import(document.documentElement.dataset.widgets || '/widgets/vonk-widgets.js');
        const queue = new WeakMap();
        const after = (el, f) => { const p = (queue.get(el) || Promise.resolve()).then(load).then(f); queue.set(el, p.catch(() => {})); return p; };
        export function vonk_mount(el, name, props) { return after(el, m => m.mount(el, name, props)); }
        export function vonk_update(el, props) { return after(el, m => m.update(el, props)); }
        export function vonk_unmount(el) { return after(el, m => m.unmount(el)); }
    ")]
    extern "C" {
        fn vonk_mount(el: &web_sys::Element, name: &str, props: &str) -> js_sys::Promise;
        fn vonk_update(el: &web_sys::Element, props: &str) -> js_sys::Promise;
        fn vonk_unmount(el: &web_sys::Element) -> js_sys::Promise;
    }

    type Listener = Closure<dyn Fn(web_sys::Event)>;

    pub fn attach(
        node: NodeRef<leptos::html::Div>,
        name: &'static str,
        props: Signal<String>,
        event: Option<&'static str>,
        on_event: Option<Callback<String>>,
    ) {
        // Mount once the element exists; unmount (and drop the listener) when the view goes away.
        Effect::new(move |_| {
            let Some(div) = node.get() else { return };
            let el: web_sys::Element = div.unchecked_into();
            let _ = vonk_mount(&el, name, &props.get_untracked());
            let listener: Option<(&'static str, Listener)> = event.zip(on_event).map(|(event, callback)| {
                let closure = Listener::new(move |e: web_sys::Event| {
                    let detail = e
                        .dyn_ref::<web_sys::CustomEvent>()
                        .and_then(|ce| js_sys::JSON::stringify(&ce.detail()).ok())
                        .and_then(|s| s.as_string())
                        .unwrap_or_default();
                    callback.run(detail);
                });
                let _ = el.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
                (event, closure)
            });
            let held = SendWrapper::new((el, listener));
            on_cleanup(move || {
                let (el, listener) = held.take();
                if let Some((event, closure)) = listener {
                    let _ = el.remove_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
                }
                let _ = vonk_unmount(&el);
            });
        });
        // Re-render with new props whenever they change after the first mount.
        Effect::new(move |seen: Option<()>| {
            let json = props.get();
            if seen.is_some() {
                if let Some(div) = node.get_untracked() {
                    let el: web_sys::Element = div.unchecked_into();
                    let _ = vonk_update(&el, &json);
                }
            }
        });
    }
}
