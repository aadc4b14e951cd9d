import { expect } from '@playwright/test';
import { test, acceptEntry, axeClean, grantStaff, otherMember } from './helpers';

// `cdn_prefix`: the site's files from a second origin. Here that is the same server under
// `localhost` while pages are opened at 127.0.0.1 — to the browser another origin, as a CDN is.
test('with a CDN address set, the page loads its styles, script and portraits from there and still works', async ({ browser, baseURL }, testInfo) => {
  const run = `${Date.now()}${testInfo.project.name === 'mobile' ? 'm' : 'd'}`;
  const staffEmail = `cdn-staff-${run}@example.nl`;
  const staff = await otherMember(browser, baseURL!, staffEmail, { name: 'Cas', gender: 'Man' });
  await grantStaff(staff, staffEmail);
  await expect.poll(async () => (await staff.request.get('/staff/members')).status()).toBe(200);
  const cdn = `http://localhost:${new URL(baseURL!).port}`;
  const setCdn = async (value: string) => {
    await staff.goto('/staff/site#delivery');
    await staff.getByTestId('form-delivery').getByLabel('Adres van het CDN (leeg: deze site)').fill(value);
    await staff.getByTestId('form-delivery').getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff).toHaveURL(/saved=delivery/);
  };
  await setCdn(cdn);
  try {
    await axeClean(staff);
    const mobile = testInfo.project.name === 'mobile';
    const context = await browser.newContext(
      mobile ? { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 800 } },
    );
    await acceptEntry(context, baseURL!);
    const page = await context.newPage();
    const fromCdn: string[] = [];
    page.on('requestfinished', (r) => {
      if (r.url().startsWith(cdn)) fromCdn.push(r.url());
    });
    await page.goto('/members');
    // Portraits from the CDN, drawn.
    const portrait = page.locator('img.portrait').first();
    await expect(portrait).toHaveAttribute('src', new RegExp(`^${cdn}/media/`));
    await expect.poll(() => portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    // The stylesheet applies and the page's script ran (hydrated), both from the CDN.
    await page.waitForFunction(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true, undefined, { timeout: 15_000 });
    expect(fromCdn.some((u) => u.includes('/pkg/') && u.endsWith('.css'))).toBe(true);
    expect(fromCdn.some((u) => u.endsWith('.js'))).toBe(true);
    expect(fromCdn.some((u) => u.endsWith('.wasm'))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toBe('');
    await axeClean(page);
    await context.close();
  } finally {
    await setCdn('');
    await staff.context().close();
  }
});
