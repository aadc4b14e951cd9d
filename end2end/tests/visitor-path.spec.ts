// The paid visitor's path: from a profile reached through a network's link to the first
// message, without a dead end, at 1280 px (the signup modal) and at 375 px (the signup page).
import { expect, type Page } from '@playwright/test';
import { acceptEntry, axeClean, chatLive, fillBasics, signupFormReady, test } from './helpers';

/** A profile a lander shows (its tiles lead to `/members/{id}/signup`). */
async function landerProfile(page: Page): Promise<string> {
  await page.goto('/landers/gallery');
  const tile = page.locator('[data-testid="lander-profile"]:visible').first();
  return (await tile.getAttribute('href'))!.split('/')[2];
}

/** Signs up through a visitor's action on a profile (`message`, `like`, `gift`): the modal at
 * 1280 px, the page on a phone; the form carries the action. */
async function signUpThrough(page: Page, isMobile: boolean, action: string, who: { email: string; name: string; born: string }) {
  await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  await page.getByTestId('visitor-actions').getByTestId(`visitor-${action}`).click();
  if (isMobile) await signupFormReady(page);
  const form = isMobile ? page.locator('form[data-ready="true"]') : page.getByTestId('signup-modal').locator('form[data-ready="true"]');
  await expect(form.locator('input[name="then"]')).toHaveValue(action);
  await form.getByLabel('E-mailadres').fill(who.email);
  await form.getByLabel('Profielnaam').fill(who.name);
  await form.getByLabel('Wachtwoord').fill('zoeken naar de vonk');
  await form.getByLabel('Geboortedatum').fill(who.born);
  await form.getByRole('button', { name: 'Gratis aanmelden' }).click();
}

test('a visitor on a profile finds a member’s actions; signing up from one brings them back to send the first message', async ({
  page,
  context,
  baseURL,
  isMobile,
}, testInfo) => {
  await acceptEntry(context, baseURL!);
  const id = await landerProfile(page);
  await page.goto(`/members/${id}?network=path-net&sub1=s1`);

  // Every width: the top bar offers signup, and the profile the actions a member has.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Gratis aanmelden' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: /Naar de startpagina/ })).toHaveAttribute('href', '/');
  const actions = page.getByTestId('visitor-actions');
  await expect(actions).toBeVisible();
  for (const action of ['message', 'like', 'gift']) {
    await expect(actions.getByTestId(`visitor-${action}`)).toHaveAttribute('href', `/members/${id}/signup?then=${action}&network=path-net&sub1=s1`);
  }
  await axeClean(page);

  const email = `pad-${testInfo.project.name}-${Date.now()}@example.nl`;
  await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  await actions.getByTestId('visitor-message').click();
  let form;
  if (isMobile) {
    // A phone opens the signup page, the member and the traffic source remembered.
    await expect(page).toHaveURL(new RegExp(`/members/${id}/signup\\?then=message&network=path-net&sub1=s1$`));
    await expect(page.getByTestId('signup-teaser')).toBeVisible();
    await signupFormReady(page);
    form = page.locator('form[data-ready="true"]');
  } else {
    const modal = page.getByTestId('signup-modal');
    await expect(modal).toBeVisible();
    form = modal.locator('form[data-ready="true"]');
    await expect(form).toBeVisible();
  }
  await expect(form.locator('input[name="profile"]')).toHaveValue(id);
  await expect(form.locator('input[name="then"]')).toHaveValue('message');
  await expect(form.locator('input[name="network"]')).toHaveValue('path-net');
  await expect(form.locator('input[name="sub1"]')).toHaveValue('s1');
  await form.getByLabel('E-mailadres').fill(email);
  await form.getByLabel('Profielnaam').fill('Pim');
  await form.getByLabel('Wachtwoord').fill('zoeken naar de vonk');
  await form.getByLabel('Geboortedatum').fill('1986-02-11');
  await form.getByRole('button', { name: 'Gratis aanmelden' }).click();

  // The basics, then straight into the chat with the member the visitor wanted to write to.
  await expect(page).toHaveURL(new RegExp(`/complete-signup\\?profile=${id}&then=message$`));
  await fillBasics(page, 'Man');
  await expect(page).toHaveURL(new RegExp(`/members/${id}/chat$`));
  await chatLive(page);
  const box = page.getByTestId('chat-panel').getByRole('textbox', { name: 'Bericht' });
  await box.fill('Hoi! Ik zag je profiel en wilde je meteen schrijven.');
  await box.press('Enter');
  await expect(page.getByTestId('chat-log')).toContainText('Ik zag je profiel en wilde je meteen schrijven.');
});

test('a visitor who likes a profile signs up and comes back to it with the like given', async ({ page, context, baseURL, isMobile }, testInfo) => {
  await acceptEntry(context, baseURL!);
  // The search results' hearts lead the same way, the traffic source kept.
  await page.goto('/members?network=like-net');
  await expect(page.getByTestId('card-like').first()).toHaveAttribute('href', /^\/members\/\d+\/signup\?then=like&network=like-net$/);
  const id = await landerProfile(page);
  await page.goto(`/members/${id}?network=like-net`);
  await signUpThrough(page, isMobile, 'like', { email: `hart-${testInfo.project.name}-${Date.now()}@example.nl`, name: 'Hein', born: '1984-07-21' });
  await expect(page).toHaveURL(new RegExp(`/complete-signup\\?profile=${id}&then=like$`));
  await fillBasics(page, 'Man');
  // Back on the profile: the like is given (the button now takes it back).
  await expect(page).toHaveURL(new RegExp(`/members/${id}\\?welcome=1$`));
  await expect(page.getByTestId('like-status')).toBeVisible();
  await expect(page.getByTestId('like-toggle')).toHaveText(/Like intrekken/);
  // A member's logo leads to the members (a visitor's to the home page).
  await expect(page.getByRole('banner').getByRole('link', { name: /Naar de leden/ })).toHaveAttribute('href', '/members');
  await axeClean(page);
});

test('a visitor who wants to send a gift signs up and lands in the chat with the gift picker open', async ({ page, context, baseURL, isMobile }, testInfo) => {
  await acceptEntry(context, baseURL!);
  const id = await landerProfile(page);
  await page.goto(`/members/${id}`);
  await signUpThrough(page, isMobile, 'gift', { email: `cadeau-${testInfo.project.name}-${Date.now()}@example.nl`, name: 'Gijs', born: '1982-03-14' });
  await fillBasics(page, 'Man');
  await expect(page).toHaveURL(new RegExp(`/members/${id}/chat\\?gift=1$`));
  await chatLive(page);
  const picker = page.getByRole('dialog', { name: 'Kies een cadeautje' });
  await expect(picker).toBeVisible();
  // Axe reads colours once the picker has finished rising in (it fades in over 0.2 s).
  await picker.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await axeClean(page);
  // A gift costs credits as in any chat: a new member without them is told so, with the way to buy.
  await picker.getByRole('button', { name: 'Roos' }).click();
  await expect(page.getByTestId('chat-alert')).toHaveAttribute('data-code', /insufficient_credits|premium_only/);
});

test('keyboard only: a visitor tabs to a profile’s message action and reaches the signup form', async ({ page, context, baseURL, isMobile }) => {
  await acceptEntry(context, baseURL!);
  const id = await landerProfile(page);
  await page.goto(`/members/${id}`);
  await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  // Tab from the top of the page until the message action has the focus, which shows.
  const action = page.getByTestId('visitor-actions').getByTestId('visitor-message');
  let reached = false;
  for (let i = 0; i < 80 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await action.evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  const outline = await action.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  if (isMobile) {
    await expect(page).toHaveURL(new RegExp(`/members/${id}/signup\\?then=message$`));
    await signupFormReady(page);
  } else {
    // The modal takes the focus; Escape closes it (nothing typed yet) and gives it back.
    const modal = page.getByTestId('signup-modal');
    await expect(modal).toBeVisible();
    await expect.poll(() => modal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect.poll(() => action.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(modal).toBeVisible();
  }
  // The form's fields in order with Tab, typed into, and sent with Enter.
  const form = isMobile ? page.locator('form[data-ready="true"]') : page.getByTestId('signup-modal').locator('form[data-ready="true"]');
  await form.getByLabel('E-mailadres').focus();
  await page.keyboard.type(`toets-${isMobile ? 'm' : 'd'}-${Date.now()}@example.nl`);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Profielnaam')).toBeFocused();
  await page.keyboard.type('Toets');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Wachtwoord')).toBeFocused();
  await page.keyboard.type('zoeken naar de vonk');
  await form.getByLabel('Geboortedatum').fill('1986-02-11');
  await form.getByLabel('Geboortedatum').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/complete-signup\\?profile=${id}&then=message$`));
});
