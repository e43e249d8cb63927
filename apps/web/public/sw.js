/* global self, clients, URL */
// Manjam service worker: shows the pool's push alerts (worker offline, hashrate drop, block found,
// payout sent) and focuses or opens the app when one is clicked. Payload: {title, body, url?}.
'use strict';

self.addEventListener('install', function () {
  self.skipWaiting();
});

self.addEventListener('activate', function (event) {
  event.waitUntil(clients.claim());
});

function readPayload(event) {
  var fallback = { title: 'Manjam', body: '' };
  if (!event.data) return fallback;
  try {
    var data = event.data.json();
    return {
      title: typeof data.title === 'string' && data.title ? data.title : fallback.title,
      body: typeof data.body === 'string' ? data.body : '',
      url: typeof data.url === 'string' && data.url.charAt(0) === '/' ? data.url : '/dashboard',
      tag: typeof data.id === 'number' || typeof data.id === 'string' ? 'manjam-' + data.id : undefined,
    };
  } catch {
    return { title: fallback.title, body: event.data.text(), url: '/dashboard' };
  }
}

self.addEventListener('push', function (event) {
  var payload = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      icon: '/favicon.svg',
      tag: payload.tag,
      data: { url: payload.url || '/dashboard' },
    }),
  );
});

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  var target = new URL(
    (event.notification.data && event.notification.data.url) || '/dashboard',
    self.location.origin,
  ).href;
  event.waitUntil(
    clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i += 1) {
        var client = windows[i];
        if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
          return client.focus().then(function (focused) {
            return focused && 'navigate' in focused && focused.url !== target
              ? focused.navigate(target)
              : focused;
          });
        }
      }
      return clients.openWindow(target);
    }),
  );
});
