import { expect, type Page } from '@playwright/test';
import { createECDH, randomBytes } from 'node:crypto';
import { test, acceptEntry, activate, axeClean, member } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Stands in for the browser's push service (Chromium here reaches none): subscribing returns a
 *  subscription at the push service the test server lists, with real P-256 keys, and the browser
 *  remembers it like a real one. Permission, the service worker and everything of ours are real. */
async function fakePushService(page: Page, name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const sub = { endpoint: `https://push.e2e.example/sub/${name}`, p256dh: b64url(ecdh.getPublicKey()), auth: b64url(randomBytes(16)) };
  await page.addInitScript((s) => {
    const stored = 'vonk-e2e-push';
    const make = () => ({
      endpoint: s.endpoint,
      toJSON: () => ({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }),
      unsubscribe: () => Promise.resolve(true),
    });
    PushManager.prototype.getSubscription = function () {
      return Promise.resolve(localStorage.getItem(stored) ? (make() as unknown as PushSubscription) : null);
    };
    PushManager.prototype.subscribe = function () {
      localStorage.setItem(stored, '1');
      return Promise.resolve(make() as unknown as PushSubscription);
    };
  }, sub);
}

/** A member past signup and activation, with the photo alert (which comes first) dismissed. */
async function readyMember(page: Page, email: string) {
  await member(page, email);
  await activate(page, email);
  await page.goto('/members');
  const photo = page.getByTestId('photo-alert');
  await expect(photo).toBeVisible();
  await expect(page.getByTestId('push-alert')).toHaveCount(0);
  await photo.getByRole('button', { name: 'Sluiten' }).click();
  await expect(page.getByTestId('photo-alert')).toHaveCount(0);
}

test('the push alert subscribes this browser through the service worker and then keeps quiet', async ({ page, context }, testInfo) => {
  const email = `push-${testInfo.project.name}@example.nl`;
  await context.grantPermissions(['notifications']);
  await fakePushService(page, testInfo.project.name);
  await readyMember(page, email);

  const alert = page.getByTestId('push-alert');
  await expect(alert).toHaveAttribute('data-push-state', 'not_subscribed');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Zet meldingen aan op dit apparaat.');
  await axeClean(page);
  await page.screenshot({ path: testInfo.outputPath('push-alert.png') });

  await alert.getByRole('button', { name: 'Meldingen aanzetten' }).click();
  await expect(alert).toHaveAttribute('data-push-state', 'subscribed');
  await expect(alert).toBeHidden();
  await expect(alert.getByRole('alert')).toHaveCount(0);
  // Our service worker (SPEC §7: v=2) now runs for the whole site.
  const worker = await page.evaluate(() =>
    navigator.serviceWorker.getRegistration().then((r) => r?.active?.scriptURL ?? r?.installing?.scriptURL ?? r?.waiting?.scriptURL ?? ''),
  );
  expect(new URL(worker).pathname + new URL(worker).search).toBe('/sw.js?v=2');

  // Subscribed: the next pages do not ask again.
  await page.goto('/likes');
  await expect(page.getByTestId('push-alert')).toHaveAttribute('data-push-state', 'subscribed');
  await expect(page.getByTestId('push-alert')).toBeHidden();
});

test('a refused subscription says so; dismissing the alert holds on every page', async ({ page, context }, testInfo) => {
  const email = `push-no-${testInfo.project.name}@example.nl`;
  await context.grantPermissions(['notifications']);
  // A push service the server does not list: the server refuses to store it.
  await page.addInitScript(() => {
    PushManager.prototype.getSubscription = function () {
      return Promise.resolve(null);
    };
    PushManager.prototype.subscribe = function () {
      const endpoint = 'https://elsewhere.example/sub/1';
      const keys = { p256dh: 'BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY', auth: '_ordMnz7uTCmrpBTeUV4Bw' };
      return Promise.resolve({ endpoint, toJSON: () => ({ endpoint, keys }) } as unknown as PushSubscription);
    };
  });
  await readyMember(page, email);
  const alert = page.getByTestId('push-alert');
  await expect(alert).toHaveAttribute('data-push-state', 'not_subscribed');
  await alert.getByRole('button', { name: 'Meldingen aanzetten' }).click();
  await expect(alert.getByRole('alert')).toHaveText('Meldingen aanzetten is niet gelukt. Probeer het later nog eens.');
  await expect(alert).toBeVisible();

  await alert.getByRole('button', { name: 'Sluiten' }).click();
  await expect(page.getByTestId('push-alert')).toHaveCount(0);
  await page.goto('/chats');
  await expect(page.getByTestId('push-alert')).toHaveCount(0);
});
