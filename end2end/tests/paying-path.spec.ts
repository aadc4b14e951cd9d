import { expect, type Page } from '@playwright/test';
import { test } from './helpers';
import { acceptEntry, activate, axeClean, chatLive as live, member, otherMember } from './helpers';

// The paying member's path in one go, at 375 px (mobile) and 1280 px (desktop): a chat open in
// one tab while the member buys in another, with the provider's webhook held back
// (VONK_TEST_WEBHOOK_DELAY_SECS in the Playwright config), the method chosen by keyboard, the
// receipt downloaded, and four messages whose costs the chat footer shows. Any failed request
// or error response on the way fails the test, and no page of it may scroll sideways.

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

/** Collects every request that failed and every response of 400 or more on `page`. A request
 *  the browser itself cancelled because the page moved on (`net::ERR_ABORTED`: an image or a
 *  module still loading when the member clicked) is not the site failing. */
function watchRequests(page: Page, problems: string[]) {
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? 'failed';
    if (error !== 'net::ERR_ABORTED') problems.push(`${error} ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
}

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${page.url()} is ${scroll} px wide in a ${client} px window`).toBeLessThanOrEqual(client);
}

test("the paying member's path: chat open, buy by keyboard with the webhook held back, receipt, chat costs live", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const project = testInfo.project.name;
  const carlaEmail = `carla-pad-${project}@example.nl`;
  const carla = await otherMember(browser, baseURL!, carlaEmail, { name: 'Carlijn', gender: 'Vrouw' });
  await activate(carla, carlaEmail);
  await carla.context().close();

  const problems: string[] = [];
  watchRequests(page, problems);
  const email = `dirk-pad-${project}@example.nl`;
  await member(page, email, { name: 'Dirk', gender: 'Man' });
  await activate(page, email);

  // A second tab: the chat with Carlijn, on a slow line (the wasm waits until Dirk typed).
  const chat = await page.context().newPage();
  watchRequests(chat, problems);
  await chat.goto('/members?gender=female');
  await chat.getByTestId('results').locator('.member-card__link').filter({ hasText: 'Carlijn' }).first().click();
  const chatHref = await chat.getByTestId('send-message').getAttribute('href');
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await chat.route(/\.wasm(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await chat.goto(chatHref!, { waitUntil: 'domcontentloaded' });
  await chat.locator('#chat-text').fill('Hoi Carlijn');
  release();
  await live(chat);
  const box = chat.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' });
  await expect(box).toHaveValue('Hoi Carlijn');
  const balance = chat.getByTestId('chat-balance');
  const freeLeft = chat.getByTestId('chat-free-left');
  await expect(balance).toHaveText('Saldo: 20 credits');
  await expect(freeLeft).toHaveText('Gratis berichten over: 3');
  await noSidewaysScroll(chat);

  // Buying in the first tab: the bundles, then the methods, looked at and chosen by keyboard.
  await page.bringToFront();
  await page.goto('/credits');
  await noSidewaysScroll(page);
  await page.getByTestId('packs').getByTestId('pack').filter({ hasText: '60 credits' }).click();
  await expect(page).toHaveURL(/\/credits\/\d+$/);
  const methods = page.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
  await expect(methods).toBeVisible({ timeout: 15_000 });
  await noSidewaysScroll(page);
  const bundlePage = page.url();
  const ideal = methods.getByRole('radio', { name: 'iDEAL', exact: true });
  await ideal.focus();
  await page.keyboard.press('ArrowRight');
  await expect(ideal).not.toBeFocused();
  await expect(
    methods
      .getByRole('radio')
      .filter({ has: page.locator(':focus') })
      .or(methods.locator('[role=radio]:focus')),
  ).toHaveCount(1);
  await page.keyboard.press('ArrowLeft');
  await expect(ideal).toBeFocused();
  expect(page.url(), 'arrows only look').toBe(bundlePage);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout\/test\/tst_/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Testbetaling' })).toBeVisible();
  await noSidewaysScroll(page);
  await page.getByRole('button', { name: 'Betaald', exact: true }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);

  // The webhook has not come: the page booked the payment itself, and says one balance.
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('paid-body')).toHaveText('60 credits zijn toegevoegd. Je saldo is nu 80 credits.');
  await expect(page.getByTestId('credits')).toContainText('80 credits');
  await expect(page.getByTestId('now-premium')).toHaveText('Je bent nu premium lid.');
  await noSidewaysScroll(page);
  await axeClean(page);
  const receipt = await page.getByTestId('receipt-pdf').getAttribute('href');
  const pdf = await page.request.get(receipt!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await page.goto('/transactions');
  await expect(page.getByTestId('transactions').locator('tbody tr')).toHaveCount(1);
  await noSidewaysScroll(page);

  // The open chat heard of the purchase without a reload; four messages: the free ones first.
  await chat.bringToFront();
  await expect(balance).toHaveText('Saldo: 80 credits');
  const after = [
    ['Saldo: 80 credits', 'Gratis berichten over: 2'],
    ['Saldo: 80 credits', 'Gratis berichten over: 1'],
    ['Saldo: 80 credits', null],
    ['Saldo: 70 credits', null],
  ] as const;
  for (let i = 1; i <= 4; i++) {
    if (i > 1) await box.fill(`Bericht nummer ${i}`);
    await box.press('Enter');
    await expect(chat.getByTestId('chat-log')).toContainText(i === 1 ? 'Hoi Carlijn' : `Bericht nummer ${i}`);
    const [credits, free] = after[i - 1];
    await expect(balance).toHaveText(credits);
    if (free) await expect(freeLeft).toHaveText(free);
    else await expect(freeLeft).toHaveCount(0);
  }
  await noSidewaysScroll(chat);
  await axeClean(chat);

  expect(problems, 'no request failed and no response was an error').toEqual([]);
});
