import { expect, type Page } from '@playwright/test';
import { test } from './helpers';
import { activate, mailLink, signupFormReady } from './helpers';

/** Logs out through the account menu (My profile, Settings, Logout). */
async function logOut(page: Page) {
  await page.getByLabel('Accountmenu').click();
  await page.getByRole('button', { name: 'Uitloggen' }).click();
  await expect(page.getByRole('link', { name: 'Inloggen' })).toBeVisible();
}

/** Signs up through the form once its live checks are active. */
async function signUp(page: Page, email: string, name: string, password: string, dateOfBirth: string) {
  await page.goto('/signup');
  await signupFormReady(page);
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Profielnaam').fill(name);
  await page.getByLabel('Wachtwoord').fill(password);
  await page.getByLabel('Geboortedatum').fill(dateOfBirth);
  await page.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await expect(page.getByTestId('credits')).toBeVisible();
}

test('a visitor signs up, completes the profile with the geolocation button, confirms the email, logs out and logs in again', async ({
  page,
  context,
}, testInfo) => {
  const email = `anna-${testInfo.project.name}@example.nl`;
  await page.goto('/signup');
  // The entry warning does not block the signup form once accepted.
  const warning = page.getByRole('dialog', { name: 'Alleen voor volwassenen' });
  if (await warning.isVisible()) await warning.getByRole('button', { name: 'Ik ben 18 of ouder, ga verder' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maak je gratis profiel');
  await signupFormReady(page);

  // Live checks with the spec's texts, before anything is sent.
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Profielnaam').fill('@anna');
  await page.getByLabel('Profielnaam').blur();
  await expect(page.locator('[data-field="name"]')).toHaveText('Je profielnaam mag niet beginnen met een @');
  await page.getByLabel('Profielnaam').fill('Anna');
  await expect(page.locator('[data-field="name"]')).toBeEmpty();
  await page.getByLabel('Wachtwoord').fill('rode kater op het dak');
  await page.getByLabel('Geboortedatum').fill('2015-01-01');
  await page.getByLabel('Geboortedatum').blur();
  await expect(page.locator('[data-field="date_of_birth"]')).toHaveText('Vul uw geboortedatum in (18+ jaar)');
  await page.getByLabel('Geboortedatum').fill('1990-05-17');
  await expect(page.locator('[data-field="date_of_birth"]')).toBeEmpty();
  await page.getByRole('button', { name: 'Gratis aanmelden' }).click();

  // Logged in, unconfirmed, with the signup credits in the top bar; step 2 asks the basics.
  await expect(page).toHaveURL(/\/complete-signup$/);
  await expect(page.getByTestId('credits')).toHaveText('20 credits');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maak je profiel af');
  await expect(page.getByTestId('activation-reminder')).toHaveCount(0);
  await page.getByLabel('Vrouw').check();
  await page.getByLabel('Hetero').check();
  // The browser's position (Amsterdam) becomes one of our regions, no outside service involved.
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ latitude: 52.37, longitude: 4.9 });
  await expect(page.locator('[data-testid="location-fields"][data-ready="true"]')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('use-my-location').click();
  await expect(page.getByTestId('location-status')).toContainText('Gevonden: Noord-Holland');
  await expect(page.locator('select[name="country"]')).toHaveValue('NL');
  await expect(page.locator('select[name="region"]')).toHaveValue('NL-NH');
  await page.getByLabel('Woonplaats').fill('Amsterdam');
  await page.getByRole('button', { name: 'Opslaan en verder' }).click();
  // Signup's last step offers members who fit; skipping leads on to the profile.
  await expect(page).toHaveURL(/\/signup-matches$/);
  await page.getByTestId('finder-skip').click();
  await expect(page).toHaveURL(/\/profile\?saved=welcome$/);
  await expect(page.getByTestId('saved')).toHaveText('Welkom bij Vonk! Je profiel is klaar.');
  await expect(page.getByTestId('profile-place')).toHaveText('Amsterdam, Noord-Holland');
  await expect(page.getByTestId('activation-reminder')).toContainText(email);

  await activate(page, email);
  await expect(page).toHaveURL(/\/activate\/done$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Je e-mailadres is bevestigd');
  await expect(page.getByTestId('activation-reminder')).toHaveCount(0);

  // Settings (from the account menu): invisible mode sticks.
  await page.getByLabel('Accountmenu').click();
  await page.getByRole('link', { name: 'Instellingen' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the member pages do not scroll sideways').toBeLessThanOrEqual(0);
  await page.getByLabel('Onzichtbaar zijn').check();
  await page.locator('form[action="/api/fn/set_invisible"]').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toHaveText('Je instellingen zijn opgeslagen.');
  await expect(page.getByLabel('Onzichtbaar zijn')).toBeChecked();

  await logOut(page);
  await expect(page.getByTestId('credits')).toHaveCount(0);

  await page.goto('/login');
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord').fill('verkeerd wachtwoord');
  await page.getByRole('button', { name: 'Inloggen' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Login mislukt, probeer opnieuw');
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord').fill('rode kater op het dak');
  await page.getByRole('button', { name: 'Inloggen' }).click();
  await expect(page.getByTestId('credits')).toHaveText('20 credits');
});

test('the signup form stops an invalid submit in the browser', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  await page.goto('/signup');
  await signupFormReady(page);
  await page.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.locator('[data-field="email"]')).toHaveText('Ongeldige e-mail');
  await expect(page.locator('[data-field="date_of_birth"]')).toHaveText('Vul uw geboortedatum in (18+ jaar)');
});

test('what a visitor typed before the page script loaded counts when it sends', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `vroeg-${testInfo.project.name}@example.nl`;
  // A slow network: the browser bundle arrives only after the visitor has typed everything.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/pkg/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/signup', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Profielnaam').fill('Vera');
  await page.getByLabel('Wachtwoord').fill('snel getypt en goed');
  await page.getByLabel('Geboortedatum').fill('1991-09-30');
  await expect(page.locator('form[data-ready="true"]')).toHaveCount(0);
  release();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible({ timeout: 15_000 });
  // Nothing typed is judged empty once the script runs, and the form sends.
  for (const field of ['email', 'name', 'password', 'date_of_birth']) {
    await expect(page.locator(`[data-field="${field}"]`)).toHaveText('');
  }
  await page.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await expect(page.getByTestId('credits')).toBeVisible();
});

test('the signup page takes the form with live checks in place, keeping what was typed and the caret', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  // The form's own module (and the chunks it shares) is held back; the page's first module is not.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(/\/pkg\/(split_page_form|chunk_)[^/]*\.wasm/, async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.goto('/signup');
  await page.waitForFunction(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true);
  await page.getByLabel('E-mailadres').click();
  await page.keyboard.type('vera@');
  await expect.poll(() => asked).toBe(true);
  await expect(page.locator('form[data-ready="true"]')).toHaveCount(0);
  release();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible({ timeout: 15_000 });
  // One form, the same field focused with its text; typing goes on where it was.
  await expect(page.locator('form[action$="/signup"]')).toHaveCount(1);
  await expect(page.getByLabel('E-mailadres')).toBeFocused();
  await page.keyboard.type('example.nl');
  await expect(page.getByLabel('E-mailadres')).toHaveValue('vera@example.nl');
  // Its checks are live: a wrong name is refused in place.
  await page.getByLabel('Profielnaam').fill('@vera');
  await page.getByLabel('Wachtwoord').focus();
  await expect(page.locator('[data-field="name"]')).not.toHaveText('');
});

test('the signup page loads its form with live checks only when the visitor steps in, and nothing moves', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (/\/pkg\/(split_page_form|chunk_)/.test(request.url())) fetched.push(request.url());
  });
  await page.goto('/signup');
  await page.waitForFunction(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true);
  await page.waitForLoadState('networkidle');
  // A visitor who only looks fetches nothing more.
  expect(fetched).toEqual([]);
  const boxes = () =>
    page.evaluate(() =>
      ['email', 'name', 'password', 'date_of_birth'].map((name) => {
        const r = document.querySelector(`form [name="${name}"]`)!.getBoundingClientRect();
        return [r.x, r.y, r.width, r.height].map(Math.round);
      }),
    );
  const before = await boxes();
  await page.getByLabel('Profielnaam').focus();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible({ timeout: 15_000 });
  expect(fetched.length).toBeGreaterThan(0);
  await expect(page.locator('form[action$="/signup"]')).toHaveCount(1);
  await expect(page.getByLabel('Profielnaam')).toBeFocused();
  // The same boxes, to the pixel.
  expect(await boxes()).toEqual(before);
});

test('what a new member chose on the second signup step before its script loaded is kept', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  await page.goto('/signup');
  await signupFormReady(page);
  await page.getByLabel('E-mailadres').fill(`stap2-${testInfo.project.name}@example.nl`);
  await page.getByLabel('Profielnaam').fill('Ilse');
  await page.getByLabel('Wachtwoord').fill('snel gekozen en goed');
  await page.getByLabel('Geboortedatum').fill('1989-02-11');
  // A slow network: the location fields' own module arrives only after everything was chosen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(/\/pkg\/(split_|chunk_)[^/]*\.wasm/, async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await page.getByLabel('Vrouw', { exact: true }).check();
  await page.getByLabel('Hetero').check();
  await page.locator('select[name="country"]').selectOption('NL');
  await page.locator('select[name="region"]').selectOption('NL-UT');
  await page.getByLabel('Woonplaats').fill('Utrecht');
  await expect.poll(() => asked).toBe(true);
  await expect(page.getByTestId('location-fields')).not.toHaveAttribute('data-ready', 'true');
  release();
  await expect(page.getByTestId('location-fields')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  // The island took the choices as they were; the region list follows the chosen country.
  await expect(page.locator('select[name="country"]')).toHaveValue('NL');
  await expect(page.locator('select[name="region"]')).toHaveValue('NL-UT');
  await expect(page.locator('select[name="region"] optgroup:not([hidden])')).toHaveCount(1);
  await page.getByRole('button', { name: 'Opslaan en verder' }).click();
  await expect(page).toHaveURL(/\/signup-matches$/);
});

test('a member who forgot the password gets a link and chooses a new one', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `reset-${testInfo.project.name}@example.nl`;
  await signUp(page, email, 'Bram', 'oude sleutel onder de mat', '1985-03-02');
  await logOut(page);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Wachtwoord vergeten?' }).click();
  // An address without an account is answered as one with an account (no one learns who is
  // registered here); only the account's owner gets a mail.
  await page.getByLabel('E-mailadres').fill('niemand@example.nl');
  await page.getByRole('button', { name: 'Stuur mij een link' }).click();
  await expect(page.getByTestId('reset-sent')).toHaveText('Als dit e-mailadres een account heeft, hebben we je een mail gestuurd. De link is twee uur geldig.');
  await page.goto('/reset-password');
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByRole('button', { name: 'Stuur mij een link' }).click();
  await expect(page.getByTestId('reset-sent')).toBeVisible();

  // The mail goes out just after the answer.
  await expect
    .poll(() => {
      try {
        return mailLink(email, '/reset-password/do?token');
      } catch {
        return '';
      }
    })
    .not.toBe('');
  await page.goto(mailLink(email, '/reset-password/do?token'));
  await page.locator('input[name="password"]').fill('nieuwe sleutel in de pot');
  await page.getByLabel('Herhaal nieuw wachtwoord').fill('andere sleutel in de pot');
  await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('De opgegeven wachtwoorden zijn niet gelijk.');
  await page.locator('input[name="password"]').fill('nieuwe sleutel in de pot');
  await page.getByLabel('Herhaal nieuw wachtwoord').fill('nieuwe sleutel in de pot');
  await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('credits')).toBeVisible();
});

test('a member deletes the account and brings it back with the mailed link', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `weg-${testInfo.project.name}@example.nl`;
  await signUp(page, email, 'Cas', 'tot ziens en bedankt', '1979-12-24');

  await page.goto('/settings');
  const form = page.locator('form[action="/api/fn/delete_account"]');
  await form.getByLabel('Wachtwoord').fill('tot ziens en bedankt');
  await form.getByLabel('Ik begrijp het, verwijder mijn account').check();
  await form.getByRole('button', { name: 'Account verwijderen' }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByRole('link', { name: 'Inloggen' })).toBeVisible();

  await page.goto(mailLink(email, '/account-deleted?token'));
  await page.getByRole('button', { name: 'Herstel mijn account' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welkom terug! Je account is hersteld. Log in om verder te gaan.');
  await page.goto('/login');
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord').fill('tot ziens en bedankt');
  await page.getByRole('button', { name: 'Inloggen' }).click();
  await expect(page.getByTestId('credits')).toBeVisible();
});

test('signup opens as a modal on desktop and as a page on phones', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  await page.goto('/');
  const modal = page.getByTestId('signup-modal');
  // Wait until the modal's island is live.
  await expect(modal).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  await page.getByRole('link', { name: 'Meld je gratis aan' }).first().click();
  if (testInfo.project.name === 'mobile') {
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maak je gratis profiel');
    return;
  }
  await expect(modal).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // Untouched, Esc closes it.
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  // Once signup is in progress, neither Esc nor the backdrop closes it.
  await page.getByRole('link', { name: 'Meld je gratis aan' }).first().click();
  await expect(modal).toBeVisible();
  await expect(modal.locator('form[data-ready="true"]')).toBeAttached();
  await modal.getByLabel('E-mailadres').fill('bezig@example.nl');
  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Sluiten' }).click();
  await expect(modal).toBeHidden();
});

test('a member chooses notification mails, unsubscribes from a mail and turns them back on', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `meldingen-${testInfo.project.name}@example.nl`;
  await signUp(page, email, 'Dewi', 'stille post in de tuin', '1992-07-09');

  await page.goto('/settings');
  await page.getByLabel('Likes en matches').uncheck();
  await page.getByTestId('notification-prefs').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toHaveText('Je meldingsvoorkeuren zijn opgeslagen.');
  await expect(page.getByLabel('Likes en matches')).not.toBeChecked();
  await expect(page.getByLabel('Nieuwe berichten')).toBeChecked();

  // The unsubscribe link in the mail's footer: the page asks first, the button unsubscribes.
  await page.goto(mailLink(email, '/unsubscribe?token'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Afmelden voor e-mailmeldingen');
  await page.getByRole('button', { name: 'Afmelden' }).click();
  await expect(page.getByTestId('unsubscribed')).toBeVisible();

  // The disabled-notifications alert shows on the next page, with a way back.
  await page.goto('/pricing');
  const alert = page.getByTestId('notifications-alert');
  await expect(alert).toContainText('Je hebt je afgemeld voor e-mailmeldingen.');
  await expect(page.getByTestId('activation-reminder')).toHaveCount(0);
  await alert.getByRole('button', { name: 'Meldingen weer aanzetten' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByTestId('notifications-alert')).toHaveCount(0);
  await expect(page.getByTestId('activation-reminder')).toBeVisible();
});

test('the location settings explain when the browser keeps the position to itself', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  await signUp(page, `locatie-${testInfo.project.name}@example.nl`, 'Eva', 'waar ben ik nu dan', '1988-02-11');
  await page.goto('/settings');
  await expect(page.getByTestId('location-form')).toBeVisible();
  // No permission granted: the browser refuses and the member chooses by hand.
  await context.clearPermissions();
  await expect(page.locator('[data-testid="location-fields"][data-ready="true"]')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('use-my-location').click();
  await expect(page.getByTestId('location-status')).toHaveText('Je browser geeft je locatie niet door. Kies je regio zelf.');
  await page.locator('select[name="country"]').selectOption('BE');
  await page.locator('select[name="region"]').selectOption({ label: 'Oost-Vlaanderen' });
  await page.getByLabel('Woonplaats').fill('Gent');
  await page.getByTestId('location-form').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toHaveText('Je locatie is opgeslagen.');
  await expect(page.locator('select[name="region"]')).toHaveValue('BE-VOV');
  await expect(page.getByLabel('Woonplaats')).toHaveValue('Gent');
});

test('on desktop a visitor signs up in the modal without leaving the page first', async ({ page, context, baseURL }, testInfo) => {
  test.skip(testInfo.project.name === 'mobile', 'phones sign up on the /signup page (the flow above)');
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  await page.goto('/pricing');
  const modal = page.getByTestId('signup-modal');
  await expect(modal).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  await page.getByRole('link', { name: 'Gratis aanmelden' }).first().click();
  await expect(modal).toBeVisible();
  // The form comes with the first opening; its checks are live once it says so.
  await expect(modal.locator('form[data-ready="true"]')).toBeAttached();
  await modal.getByLabel('E-mailadres').fill('modal-desktop@example.nl');
  await modal.getByLabel('Profielnaam').fill('Femke');
  await modal.getByLabel('Wachtwoord').fill('vanuit het venster');
  await modal.getByLabel('Geboortedatum').fill('1991-10-30');
  await modal.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await expect(page.getByTestId('credits')).toHaveText('20 credits');
});

test('a member changes the email address through the link sent to the new one', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `oud-${testInfo.project.name}@example.nl`;
  const newEmail = `nieuw-${testInfo.project.name}@example.nl`;
  await signUp(page, email, 'Gijs', 'een nieuw adres graag', '1984-08-08');
  await page.goto('/settings');
  const form = page.locator('form[action="/api/fn/change_email"]');
  await form.getByLabel('Nieuw e-mailadres').fill('geen-adres');
  await form.getByLabel('Wachtwoord').fill('een nieuw adres graag');
  await form.evaluate((f: HTMLFormElement) => f.setAttribute('novalidate', ''));
  await form.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Nieuw e-mailadres invalide.');
  await page.locator('form[action="/api/fn/change_email"]').getByLabel('Nieuw e-mailadres').fill(newEmail);
  await page.locator('form[action="/api/fn/change_email"]').getByLabel('Wachtwoord').fill('geraden');
  await page.locator('form[action="/api/fn/change_email"]').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Dit wachtwoord klopt niet.');
  // The password is asked: a session alone cannot move the account to another address.
  await page.locator('form[action="/api/fn/change_email"]').getByLabel('Nieuw e-mailadres').fill(newEmail);
  await page.locator('form[action="/api/fn/change_email"]').getByLabel('Wachtwoord').fill('een nieuw adres graag');
  await page.locator('form[action="/api/fn/change_email"]').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toContainText('bevestigingslink');
  await expect(page.getByTestId('member-email')).toHaveText(email);

  await page.goto(mailLink(newEmail, '/mail-change/do?token'));
  await page.getByRole('button', { name: 'Bevestig mijn nieuwe e-mailadres' }).click();
  await expect(page).toHaveURL(/\/mail-change\/do\?done=1$/);
  await page.goto('/settings');
  await expect(page.getByTestId('member-email')).toHaveText(newEmail);
});

test('five wrong passwords block the account for some minutes', async ({ page, context, baseURL }, testInfo) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
  const email = `slot-${testInfo.project.name}@example.nl`;
  await signUp(page, email, 'Hanna', 'de juiste sleutel', '1990-01-15');
  await logOut(page);
  await page.goto('/login');
  for (let i = 0; i < 4; i++) {
    await page.getByLabel('E-mailadres').fill(email);
    await page.getByLabel('Wachtwoord').fill(`fout ${i}`);
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Login mislukt, probeer opnieuw');
  }
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord').fill('fout 5');
  await page.getByRole('button', { name: 'Inloggen' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Te veel foute pogingen, account voor 15 min geblokkeerd.');
  // Even the right password waits now.
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord').fill('de juiste sleutel');
  await page.getByRole('button', { name: 'Inloggen' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Te veel foute pogingen');
  await expect(page.getByTestId('credits')).toHaveCount(0);
});
