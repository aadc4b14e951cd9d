import { expect, type BrowserContext, type Page } from '@playwright/test';
import { test } from './helpers';
import { acceptEntry, activate, axeClean, chatLive as live, member, onServerDatabase, grantStaff } from './helpers';

// Two browsers talk: these flows run once, on the desktop project.
test.skip(({ isMobile }) => isMobile, 'two-browser chat flows run on the desktop project');

async function newMember(browser: import('@playwright/test').Browser, baseURL: string, email: string, who: { name: string; gender: 'Vrouw' | 'Man' }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await acceptEntry(context, baseURL);
  const page = await context.newPage();
  await member(page, email, who);
  await activate(page, email);
  return { context, page };
}

async function say(page: Page, text: string) {
  const box = page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' });
  await box.fill(text);
  await box.press('Enter');
}

/** Waits until the server has taken every message this page sent (none shows 'sending'): leaving
 *  the page sooner ends a send still on its way, and another browser would not see it yet. */
async function stored(page: Page) {
  await expect(page.getByTestId('chat-log').locator('[data-status="sending"]')).toHaveCount(0);
}

/** Opens the profile of the newest woman called `name` and the chat with her. */
async function chatWith(page: Page, gender: 'female' | 'male', name: string) {
  await page.goto(`/members?gender=${gender}`);
  await page.getByTestId('results').locator('.member-card__link').filter({ hasText: name }).first().click();
  await page.getByTestId('send-message').click();
  await expect(page).toHaveURL(/\/members\/\d+\/chat$/);
  await live(page);
}

test('two members chat live: messages, read marks, typing, a gap while offline', async ({ page, browser, baseURL }, testInfo) => {
  await page.close();
  const anna = await newMember(browser, baseURL!, 'anna-chat@example.nl', { name: 'Annelot', gender: 'Vrouw' });
  const bram = await newMember(browser, baseURL!, 'bram-chat@example.nl', { name: 'Bram', gender: 'Man' });

  await chatWith(bram.page, 'female', 'Annelot');
  await expect(bram.page.getByTestId('chat-empty')).toBeVisible();
  await say(bram.page, 'Hoi Annelot, zin in koffie?');
  await expect(bram.page.getByTestId('chat-log')).toContainText('Hoi Annelot, zin in koffie?');
  await expect(bram.page).toHaveURL(/\/chats\/\d+$/);

  // Anna's list has it, with an unread pill; opening it shows the message.
  await anna.page.goto('/chats');
  await live(anna.page);
  const item = anna.page.getByTestId('chat-list').getByRole('link', { name: /Bram/ });
  await expect(item.getByTestId('chat-unread')).toBeVisible();
  await item.click();
  await expect(anna.page.getByTestId('chat-log')).toContainText('Hoi Annelot, zin in koffie?');

  // Bram's read mark reaches him once she has it on screen.
  await expect(bram.page.locator('[data-status="read"]').first()).toBeVisible({ timeout: 5_000 });

  // Anna answers: Bram sees it without a reload within 2 s.
  await say(anna.page, 'Graag! Morgen om tien uur?');
  await expect(bram.page.getByTestId('chat-log')).toContainText('Graag! Morgen om tien uur?', { timeout: 2_000 });

  // Typing shows on the other side.
  await anna.page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' }).pressSequentially('Of liever', { delay: 30 });
  await expect(bram.page.getByTestId('chat-typing')).toBeVisible({ timeout: 3_000 });
  await bram.page.screenshot({ path: testInfo.outputPath('chat-desktop.png') });
  await axeClean(bram.page);
  await anna.page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' }).fill('');

  // Bram's socket goes away; Anna sends three; he comes back and sees each once, in order.
  await bram.context.setOffline(true);
  await expect(bram.page.getByTestId('chat-connection')).toHaveClass(/--(reconnecting|offline)/, { timeout: 10_000 });
  for (const text of ['Eén', 'Twee', 'Drie']) await say(anna.page, `Bericht ${text}`);
  await expect(anna.page.getByTestId('chat-log')).toContainText('Bericht Drie');
  // All three stored while he is away (they go out one after the other).
  await stored(anna.page);
  await bram.context.setOffline(false);
  const log = bram.page.getByTestId('chat-log');
  for (const text of ['Eén', 'Twee', 'Drie']) await expect(log).toContainText(`Bericht ${text}`, { timeout: 20_000 });
  const rows = await log.getByTestId('chat-row').allInnerTexts();
  const order = ['Bericht Eén', 'Bericht Twee', 'Bericht Drie'].map((t) => rows.findIndex((r) => r.includes(t)));
  expect(order.every((i) => i >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  for (const t of ['Bericht Eén', 'Bericht Twee', 'Bericht Drie']) expect(rows.filter((r) => r.includes(t))).toHaveLength(1);

  await anna.context.close();
  await bram.context.close();
});

test('text typed into the chat before its script has loaded is kept', async ({ page, browser, baseURL }) => {
  await page.close();
  const dirk = await newMember(browser, baseURL!, 'dirk-draft@example.nl', { name: 'Dirk', gender: 'Man' });
  await dirk.page.goto('/members?gender=female');
  await dirk.page.getByTestId('results').locator('.member-card__link').first().click();
  const chat = await dirk.page.getByTestId('send-message').getAttribute('href');
  // A slow line: the app's wasm arrives only once the member has typed.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await dirk.page.route(/\.wasm(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await dirk.page.goto(chat!, { waitUntil: 'domcontentloaded' });
  await dirk.page.locator('#chat-text').fill('Hoi, ik was al aan het typen');
  release();
  await live(dirk.page);
  const box = dirk.page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' });
  await expect(box).toHaveValue('Hoi, ik was al aan het typen');
  await box.press('Enter');
  await expect(dirk.page.getByTestId('chat-log')).toContainText('Hoi, ik was al aan het typen');
  await dirk.context.close();
});

test('credits run out, free members start two conversations, and a block ends it', async ({ page, browser, baseURL }) => {
  await page.close();
  const carla = await newMember(browser, baseURL!, 'carla-chat@example.nl', { name: 'Carlijn', gender: 'Vrouw' });
  const dirk = await newMember(browser, baseURL!, 'dirk-chat@example.nl', { name: 'Dirk', gender: 'Man' });

  // 3 free messages and 20 signup credits at 10 a message: the footer counts down, says so
  // before the sixth, and the sixth is refused.
  await chatWith(dirk.page, 'female', 'Carlijn');
  const balance = dirk.page.getByTestId('chat-balance');
  const freeLeft = dirk.page.getByTestId('chat-free-left');
  await expect(balance).toHaveText('Saldo: 20 credits');
  await expect(freeLeft).toHaveText('Gratis berichten over: 3');
  const after = [
    ['Saldo: 20 credits', 'Gratis berichten over: 2'],
    ['Saldo: 20 credits', 'Gratis berichten over: 1'],
    ['Saldo: 20 credits', null],
    ['Saldo: 10 credits', null],
    ['Saldo: 0 credits', null],
  ] as const;
  for (let i = 1; i <= 5; i++) {
    await say(dirk.page, `Bericht nummer ${i}`);
    await expect(dirk.page.getByTestId('chat-log')).toContainText(`Bericht nummer ${i}`);
    const [credits, free] = after[i - 1];
    await expect(balance).toHaveText(credits);
    if (free) await expect(freeLeft).toHaveText(free);
    else await expect(freeLeft).toHaveCount(0);
  }
  await expect(dirk.page.getByTestId('chat-short')).toContainText('Je saldo is te laag voor een bericht.');
  await expect(dirk.page.getByTestId('chat-short').getByRole('link', { name: 'Credits kopen' })).toHaveAttribute('href', '/premium');
  await say(dirk.page, 'Nummer zes');
  const alert = dirk.page.getByTestId('chat-alert');
  await expect(alert).toContainText('Je hebt onvoldoende credits om dit bericht te versturen');
  await expect(alert.getByRole('link')).toHaveAttribute('href', '/credits');

  // A second conversation starts (with an operator-run profile), a third asks for premium.
  await dirk.page.goto('/members?gender=female');
  const cards = dirk.page.getByTestId('results').locator('.member-card__link').filter({ hasNotText: 'Carlijn' });
  const hrefs = await cards.evaluateAll((els) => els.slice(0, 2).map((e) => (e.closest('a') ?? e.querySelector('a'))!.getAttribute('href')!));
  await dirk.page.goto(`${hrefs[0]}/chat`);
  await live(dirk.page);
  await dirk.page.getByTestId('chat-icebreakers').click();
  await dirk.page
    .getByRole('dialog')
    .getByText(/Je profiel sprong er echt uit/)
    .click();
  await expect(dirk.page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' })).not.toHaveValue('');
  // No credits left: the start is refused for credits, not for the limit.
  await dirk.page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' }).press('Enter');
  await expect(dirk.page.getByTestId('chat-alert')).toHaveAttribute('data-code', /insufficient_credits|premium_only/);

  // Carla blocks Dirk: his conversation goes, and writing to her says why.
  await carla.page.goto('/chats');
  await live(carla.page);
  await carla.page.getByTestId('chat-list').getByRole('link', { name: /Dirk/ }).click();
  await carla.page.getByRole('button', { name: 'Blokkeren' }).first().click();
  await carla.page.getByRole('dialog').getByRole('button', { name: 'Blokkeren' }).click();
  await expect(carla.page).toHaveURL(/\/members\/\d+\?blocked=1$/);
  await dirk.page.goto('/chats');
  await live(dirk.page);
  await expect(dirk.page.getByTestId('chat-list').getByRole('link', { name: /Carlijn/ })).toHaveCount(0);
  await dirk.context.close();
  await carla.context.close();
});

test("the premium-only alert on a free member's third conversation", async ({ page, browser, baseURL }) => {
  await page.close();
  const eva = await newMember(browser, baseURL!, 'eva-chat@example.nl', { name: 'Evelien', gender: 'Vrouw' });
  await eva.page.goto('/members?gender=male');
  const hrefs = await eva.page
    .getByTestId('results')
    .locator('.member-card__link')
    .evaluateAll((els) => els.slice(0, 3).map((e) => (e.closest('a') ?? e.querySelector('a'))!.getAttribute('href')!));
  for (const [i, href] of hrefs.entries()) {
    await eva.page.goto(`${href}/chat`);
    await live(eva.page);
    await say(eva.page, `Hallo nummer ${i + 1}`);
    if (i < 2) {
      await expect(eva.page.getByTestId('chat-log')).toContainText(`Hallo nummer ${i + 1}`);
      await stored(eva.page);
    }
  }
  const alert = eva.page.getByTestId('chat-alert');
  await expect(alert).toContainText('Deze functie is alleen beschikbaar voor premium leden.');
  await expect(alert.getByRole('link')).toHaveAttribute('href', '/premium');
  await eva.context.close();
});

test('operators: the queue, one claim for two operators, shared notes, an answer as the fictional profile', async ({ page, browser, baseURL }, testInfo) => {
  // Three members in three browsers, two of them made operators: the longest flow.
  test.setTimeout(90_000);
  await page.close();
  const fenna = await newMember(browser, baseURL!, 'fenna-chat@example.nl', { name: 'Fenna', gender: 'Vrouw' });
  // Demo members are fictional (their cards carry the site's mark).
  await fenna.page.goto('/members?gender=male');
  const href = await fenna.page
    .getByTestId('results')
    .locator('.member-card__link')
    .filter({ has: fenna.page.locator('.member-card__fictional') })
    .first()
    .evaluate((e) => (e.closest('a') ?? e.querySelector('a'))!.getAttribute('href')!);
  await fenna.page.goto(`${href}/chat`);
  await live(fenna.page);
  await say(fenna.page, 'Hoi, ben je echt?');
  await expect(fenna.page.getByTestId('chat-log')).toContainText('Hoi, ben je echt?');
  await stored(fenna.page);

  const opEmail = 'operator-chat@example.nl';
  const op = await newMember(browser, baseURL!, opEmail, { name: 'Olga', gender: 'Vrouw' });
  await grantStaff(op.page, opEmail, 'operator');
  // A second operator in another browser.
  const secondEmail = 'operator-two@example.nl';
  const second = await newMember(browser, baseURL!, secondEmail, { name: 'Pieter', gender: 'Man' });
  await grantStaff(second.page, secondEmail, 'operator');

  // Pieter has the queue open; it listens for changes.
  const listening = second.page.waitForResponse((r) => r.url().includes('/staff/chats/events'));
  await second.page.goto('/staff/chats');
  await listening;
  await expect(second.page.getByTestId('console-thread').filter({ hasText: 'Fenna' }).getByTestId('console-claimed')).toHaveCount(0);

  // Fenna's conversation waits at the top of the queue; Olga opens it and holds it.
  await op.page.goto('/staff/chats');
  const thread = op.page.getByTestId('console-thread').first();
  await expect(thread).toContainText('Fenna');
  await expect(thread.getByTestId('console-waited')).toBeVisible();
  await thread.click();
  await expect(op.page.getByTestId('console-mine')).toBeVisible();

  // Pieter's queue shows who is answering without a reload; in the conversation he has no answer box.
  await expect(second.page.getByTestId('console-thread').filter({ hasText: 'Fenna' }).getByTestId('console-claimed')).toContainText('Olga', { timeout: 5_000 });
  await second.page.getByTestId('console-thread').filter({ hasText: 'Fenna' }).click();
  await expect(second.page.getByTestId('console-taken')).toContainText('Dit gesprek wordt nu beantwoord door Olga.');
  await expect(second.page.getByTestId('console-text')).toHaveCount(0);
  await axeClean(second.page);

  // Olga keeps a note every operator sees, and answers.
  await op.page.getByTestId('console-note').fill('Verteld: woont in Zwolle, werkt bij een bakker.');
  await op.page.getByTestId('console-note-save').click();
  await expect(op.page.getByTestId('console-note')).toHaveValue('Verteld: woont in Zwolle, werkt bij een bakker.');
  await op.page.getByTestId('console-text').pressSequentially('Hoi Fenna! Leuk dat je schrijft.', { delay: 5 });
  await op.page.screenshot({ path: testInfo.outputPath('operator-console.png') });
  await axeClean(op.page);
  await op.page.getByTestId('console-send').click();
  await expect(fenna.page.getByTestId('chat-log')).toContainText('Hoi Fenna! Leuk dat je schrijft.', { timeout: 5_000 });
  await expect(fenna.page.getByTestId('chat-fictional-warning')).toBeVisible();
  await second.page.reload();
  await expect(second.page.getByTestId('console-note')).toHaveValue('Verteld: woont in Zwolle, werkt bij een bakker.');
  await expect(second.page.getByTestId('console-text')).toHaveCount(0);

  // Olga stops typing: two idle minutes later (the test moves her claim's time on rather than
  // waiting them out) her claim has lapsed and Pieter, opening the conversation, can answer.
  await second.page.reload();
  await expect(second.page.getByTestId('console-text')).toHaveCount(0);
  onServerDatabase('UPDATE operator_claims SET expires_at = expires_at - 120');
  await second.page.reload();
  await expect(second.page.getByTestId('console-mine')).toBeVisible();
  await expect(second.page.getByTestId('console-text')).toBeVisible();
  await second.context.close();
  await op.context.close();
  await fenna.context.close();
});

test('on a phone the list and the conversation are two screens', async ({ browser, baseURL }, testInfo) => {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  await acceptEntry(context, baseURL!);
  const page = await context.newPage();
  await member(page, 'gijs-chat@example.nl', { name: 'Gijs', gender: 'Man' });
  await activate(page, 'gijs-chat@example.nl');
  await page.goto('/members?gender=female');
  await page.getByTestId('results').locator('.member-card__link').first().click();
  await page.getByTestId('send-message').click();
  await live(page);
  await say(page, 'Hoi vanaf mijn telefoon');
  await expect(page.getByTestId('chat-log')).toContainText('Hoi vanaf mijn telefoon');
  await page.screenshot({ path: testInfo.outputPath('chat-phone-conversation.png') });
  await page.getByRole('button', { name: 'Terug' }).click();
  await expect(page.getByTestId('chat-list')).toBeVisible();
  await expect(page.getByTestId('chat-conversation')).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('chat-phone-list.png') });
  await axeClean(page);
  await page.getByTestId('chat-list').getByRole('link').first().click();
  await expect(page.getByTestId('chat-log')).toContainText('Hoi vanaf mijn telefoon');
  await context.close();
});

test('contact details: hidden for the recipient, refused or held for review once staff say so (member at 375 px)', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  await page.close();
  const staffEmail = 'staff-contact@example.nl';
  const staff = await newMember(browser, baseURL!, staffEmail, { name: 'Sofie', gender: 'Vrouw' });
  await grantStaff(staff.page, staffEmail);
  const setPhoneRule = async (label: string) => {
    await staff.page.goto('/staff/site#contact');
    const form = staff.page.getByTestId('form-contact');
    await form.getByRole('group', { name: 'Telefoonnummers' }).getByLabel(label).check();
    await form.getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff.page).toHaveURL(/saved=contact/);
  };

  const context: BrowserContext = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  await acceptEntry(context, baseURL!);
  const phone = await context.newPage();
  await member(phone, 'hidde-contact@example.nl', { name: 'Hidde', gender: 'Man' });
  await activate(phone, 'hidde-contact@example.nl');
  await phone.goto('/members?gender=female');
  await phone.getByTestId('results').locator('.member-card__link').first().click();
  await phone.getByTestId('send-message').click();
  await live(phone);

  // Masked (the site's default): the log shows •••, and Hidde is told why.
  await say(phone, 'Bel me: 06-1234 5678');
  await expect(phone.getByTestId('chat-log')).toContainText('Bel me: •••');
  await expect(phone.getByTestId('chat-log')).not.toContainText('1234');
  const alert = phone.getByTestId('chat-alert');
  await expect(alert).toContainText('Contactgegevens in je bericht zijn verborgen');
  await phone.screenshot({ path: testInfo.outputPath('chat-contact-masked-phone.png') });
  await axeClean(phone);

  // Refused: checked before sending; the text stays in the box and nothing is sent.
  await setPhoneRule('Bericht weigeren');
  await staff.page.locator('#contact').screenshot({ path: testInfo.outputPath('staff-contact-rules.png') });
  await axeClean(staff.page);
  await phone.reload();
  await live(phone);
  await expect(phone.getByTestId('chat-log')).toContainText('Bel me: •••');
  const before = await phone.getByTestId('chat-row').count();
  await say(phone, 'app me op nul zes 12 34 56 78');
  await expect(phone.getByTestId('chat-alert')).toContainText('Contactgegevens (een telefoonnummer');
  await expect(phone.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' })).toHaveValue('app me op nul zes 12 34 56 78');
  await expect(phone.getByTestId('chat-row')).toHaveCount(before);
  await phone.screenshot({ path: testInfo.outputPath('chat-contact-refused-phone.png') });

  // Held for review: sent as written, but it waits for staff; Hidde is told so.
  await setPhoneRule('Eerst laten controleren');
  await phone.reload();
  await live(phone);
  await say(phone, 'mijn nummer is 06 8765 4321');
  await expect(phone.getByTestId('chat-alert')).toContainText('wordt eerst door ons bekeken');
  await expect(phone.getByTestId('chat-log')).toContainText('06 8765 4321');
  await phone.screenshot({ path: testInfo.outputPath('chat-contact-held-phone.png') });
  await axeClean(phone);
  // Staff read it in the held list and see the week's figures per kind.
  await staff.page.goto('/staff/held');
  await expect(staff.page.getByText('mijn nummer is 06 8765 4321')).toBeVisible();
  const weeks = staff.page.getByTestId('contact-weeks');
  await expect(weeks.getByRole('row', { name: /Telefoonnummers/ }).first()).toBeVisible();
  await axeClean(staff.page);

  await setPhoneRule('Verbergen (•••)');
  await context.close();
  await staff.context.close();
});

test('spam held back: the same first message to many waits for staff, who release it (staff at 1280 px)', async ({ page, browser, baseURL }, testInfo) => {
  await page.close();
  const staffEmail = 'staff-spam@example.nl';
  const staff = await newMember(browser, baseURL!, staffEmail, { name: 'Stijn', gender: 'Man' });
  await grantStaff(staff.page, staffEmail);
  const setThreshold = async (recipients: string) => {
    await staff.page.goto('/staff/site#spam');
    const form = staff.page.getByTestId('form-spam');
    await form.getByLabel('Aantal leden dat hetzelfde eerste bericht mag krijgen (0 = uit)').fill(recipients);
    await form.getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff.page).toHaveURL(/saved=spam/);
  };
  await setThreshold('1');
  await staff.page.locator('#spam').screenshot({ path: testInfo.outputPath('staff-spam-rules.png') });

  const sam = await newMember(browser, baseURL!, 'sam-spam@example.nl', { name: 'Sam', gender: 'Man' });
  const text = 'Hoi schat, ik ben Sam en ik zoek een leuke vrouw voor vanavond. Kijk op mijn profiel!';
  for (const n of [0, 1]) {
    await sam.page.goto('/members?gender=female');
    await sam.page.getByTestId('results').locator('.member-card__link').nth(n).click();
    await sam.page.getByTestId('send-message').click();
    await live(sam.page);
    await say(sam.page, text);
    await expect(sam.page.getByTestId('chat-log')).toContainText('Kijk op mijn profiel!');
    await stored(sam.page);
  }

  // Staff see who sent what to how many, and release it.
  await staff.page.goto('/staff/held');
  const item = staff.page.getByTestId('held-item').filter({ hasText: 'Sam' });
  await expect(item).toContainText(text);
  await expect(item).toContainText('1 bericht aan 1 lid');
  await staff.page.screenshot({ path: testInfo.outputPath('staff-held.png'), fullPage: true });
  await axeClean(staff.page);
  await item.getByTestId('release').click();
  await expect(staff.page.getByTestId('saved')).toContainText('1 bericht vrijgegeven en bezorgd.');
  await expect(staff.page.getByTestId('held-item').filter({ hasText: 'Sam' })).toHaveCount(0);

  await setThreshold('5');
  await sam.context.close();
  await staff.context.close();
});
