import type { BrowserContext } from '@playwright/test';

/** Marks the adult-content warning as accepted, as a returning visitor would have it. */
export async function acceptEntry(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL }]);
}

