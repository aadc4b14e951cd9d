import type { Counted } from './generated/Counted';

/** Fills `{name}` placeholders; unknown ones stay as they are. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}

const rules = new Map<string, Intl.PluralRules>();

/**
 * The counted text for `count` in its language's form (CLDR rules through `Intl.PluralRules`,
 * as `domain::plural` picks them on the server), `{count}` and `values` filled. A form the
 * language lacks falls back to `other`, then to the last form given.
 */
export function counted(text: Counted, count: number, values: Record<string, string | number> = {}): string {
  let pick = rules.get(text.lang);
  if (!pick) {
    pick = new Intl.PluralRules(text.lang);
    rules.set(text.lang, pick);
  }
  const forms = text.forms;
  const form = forms[pick.select(count)] ?? forms.other ?? Object.values(forms).at(-1) ?? '';
  return fill(form, { ...values, count });
}
