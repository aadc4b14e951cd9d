// Vonk's service worker (registered as /sw.js?v=2, SPEC §7): shows web pushes as
// notifications and tells open pages about them. It caches nothing: pages are private and
// always come from the server.
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function tellPages(type, data) {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
    pages.forEach((page) => page.postMessage({ type, data }));
    return pages;
  });
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  const title = data.title || 'Vonk';
  const shown = self.registration.showNotification(title, {
    body: data.body || '',
    tag: data.tag || undefined,
    renotify: !!data.tag,
    icon: '/favicon.svg',
    badge: '/favicon.svg',
    data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/' },
  });
  event.waitUntil(Promise.all([shown, tellPages('NEW_PUSH_MESSAGE', data)]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil(
    tellPages('NEW_PUSH_CLICK', { url }).then((pages) => {
      const page = pages.find((p) => 'focus' in p);
      if (page) {
        return page.focus().then((p) => (p && 'navigate' in p ? p.navigate(url) : undefined)).catch(() => self.clients.openWindow(url));
      }
      return self.clients.openWindow(url);
    })
  );
});
