/**
 * Sends a widget event out to the page. Bound to the mount element by `mount`: it dispatches a
 * bubbling `CustomEvent(name, { detail })` on that element. Stories and tests pass a spy instead.
 */
export type Dispatch = (name: string, detail: unknown) => void;

/** What every widget receives: its JSON props plus `dispatch`. */
export type WidgetProps<P> = P & { dispatch: Dispatch };
