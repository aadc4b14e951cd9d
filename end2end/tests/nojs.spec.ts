// A member without JavaScript: every write is a server function that a plain form post reaches,
// and every refusal comes back to the page with its translated text.
import { expect } from '@playwright/test';
import { fillBasics, test } from './helpers';

test('signup, complete-signup, search, like, chat, block, settings and buying credits work with JavaScript off', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `zonder-js-${testInfo.project.name}@example.nl`;

  // Signup: a refusal first (the server's check, the browser does not check without JS).
  await page.goto('/signup');
  const signup = page.locator('form[action="/api/fn/signup"]');
  await signup.getByLabel('E-mailadres').fill('geen-adres');
  await signup.getByLabel('Profielnaam').fill('Otto');
  await signup.getByLabel('Wachtwoord').fill('zonder script gaat het ook');
  await signup.getByLabel('Geboortedatum').fill('1982-04-11');
  await signup.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/signup\?/);
  await expect(page.getByTestId('form-error')).toHaveText('Ongeldige e-mail');
  await page.locator('form[action="/api/fn/signup"]').getByLabel('E-mailadres').fill(email);
  await page.locator('form[action="/api/fn/signup"]').getByLabel('Profielnaam').fill('Otto');
  await page.locator('form[action="/api/fn/signup"]').getByLabel('Wachtwoord').fill('zonder script gaat het ook');
  await page.locator('form[action="/api/fn/signup"]').getByLabel('Geboortedatum').fill('1982-04-11');
  await page.locator('form[action="/api/fn/signup"]').getByRole('button', { name: 'Gratis aanmelden' }).click();

  // Step 2 is on the page as it arrives.
  await expect(page).toHaveURL(/\/complete-signup$/);
  await fillBasics(page, 'Man');
  await expect(page).toHaveURL(/\/signup-matches$/);
  await page.getByTestId('finder-skip').click();
  await expect(page).toHaveURL(/\/profile\?saved=welcome$/);

  // Search, and like a profile from its page.
  await page.goto('/members?gender=female&country=NL');
  const card = page.getByTestId('results').locator('.member-card__link').first();
  const name = (await card.locator('.member-card__name').textContent())!.split(',')[0];
  await card.click();
  await expect(page.getByTestId('member-profile')).toBeVisible();
  await page.getByTestId('like-toggle').click();
  await expect(page.getByTestId('saved')).toHaveText(`Je vindt ${name} leuk. We laten het weten!`);
  await expect(page.getByTestId('like-toggle')).toContainText('Like intrekken');

  // Chat through the plain form: the message is stored and waits for Otto's confirmation.
  const profile = page.url();
  await page.getByTestId('send-message').click();
  await expect(page).toHaveURL(/\/members\/\d+\/chat$/);
  const form = page.locator('form[action="/api/fn/send_message"]');
  await form.getByLabel('Bericht').fill('Hallo zonder JavaScript!');
  await form.getByRole('button', { name: 'Versturen' }).click();
  await expect(page).toHaveURL(/\/chats\/\d+/);
  const message = page.getByTestId('chat-fallback').locator('.chat-fallback__message', { hasText: 'Hallo zonder JavaScript!' });
  await expect(message).toHaveCount(1);
  await expect(message).toContainText('Wacht op bevestiging');
  await expect(page.getByTestId('chat-fallback').getByRole('link', { name: new RegExp(name) })).toBeVisible();
  await page.goto(profile);

  // Block: the page says so and offers to unblock.
  await page.getByTestId('block-toggle').click();
  await expect(page.getByTestId('saved')).toContainText(`Je hebt ${name} geblokkeerd`);
  await expect(page.getByTestId('block-toggle')).toHaveText('Deblokkeren');

  // Settings: a refusal with its text, then a change that sticks.
  await page.goto('/settings');
  const password = page.locator('form[action="/api/fn/change_password"]');
  await password.getByLabel('Huidig wachtwoord').fill('niet mijn wachtwoord');
  await password.getByLabel('Nieuw wachtwoord', { exact: true }).fill('een heel nieuw wachtwoord');
  await password.getByLabel('Herhaal nieuw wachtwoord').fill('een heel nieuw wachtwoord');
  await password.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Controleer je oude wachtwoord.');
  await page.getByLabel('Onzichtbaar zijn').check();
  await page.locator('form[action="/api/fn/set_invisible"]').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toHaveText('Je instellingen zijn opgeslagen.');
  await expect(page.getByLabel('Onzichtbaar zijn')).toBeChecked();

  // Buying credits: a bundle, a method button (the blocks need JavaScript), the test provider.
  await page.goto('/credits');
  await page.getByTestId('pack').filter({ hasText: '60 credits' }).click();
  await page.getByRole('button', { name: 'Betalen met iDEAL' }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/tst_/);
  await page.getByRole('button', { name: 'Betaald', exact: true }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'paid');
});
