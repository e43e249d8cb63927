/* global self, clients, caches, fetch, URL, Response, TextEncoder */
// Manjam service worker: shows the pool's push alerts (worker offline, hashrate drop, block found,
// payout sent) and focuses or opens the app when one is clicked. Payload: {title, body, url?}.
// It also keeps the app shell for offline use (the installable app, issue 27):
//  - the shell is index.html plus every built file (/assets/*, hashed by Vite, listed by the build
//    in /shell-assets.json, lazy pages included) and the static files below; its cache is named after a digest of that index.html, so a new build
//    (a new index.html) fills a new cache and the old one is deleted;
//  - a page navigation goes to the network first and falls back to the cached index.html (the
//    app then says it is offline); /assets/* are answered from the cache first (immutable names),
//    and any asset fetched later (a lazy page) joins the current shell;
//  - /api/* (and anything not GET, or from another origin) is never cached nor answered here.
'use strict';

var SHELL_PREFIX = 'manjam-shell-';
var STATIC_FILES = ['/boot.js', '/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png'];

function digest(text) {
  return self.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then(function (hash) {
    return Array.from(new Uint8Array(hash).slice(0, 8))
      .map(function (byte) {
        return byte.toString(16).padStart(2, '0');
      })
      .join('');
  });
}

/** Same-origin /assets/ files index.html names (scripts, styles, preloads). */
function shellAssets(html) {
  var found = [];
  var pattern = /(?:src|href)="(\/assets\/[^"]+)"/g;
  var match = pattern.exec(html);
  while (match) {
    if (found.indexOf(match[1]) < 0) found.push(match[1]);
    match = pattern.exec(html);
  }
  return found;
}

/** Stores this build's shell under its own cache and deletes older shells; resolves its name. */
function storeShell(html) {
  return digest(html).then(function (version) {
    var name = SHELL_PREFIX + version;
    return caches
      .open(name)
      .then(function (cache) {
        return cache
          .put('/index.html', new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }))
          .then(builtAssets)
          .then(function (built) {
            var files = shellAssets(html).concat(STATIC_FILES);
            for (var i = 0; i < built.length; i += 1) if (files.indexOf(built[i]) < 0) files.push(built[i]);
            return cache.addAll(files);
          });
      })
      .then(function () {
        return caches.keys();
      })
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (old) {
              return old.indexOf(SHELL_PREFIX) === 0 && old !== name;
            })
            .map(function (old) {
              return caches.delete(old);
            }),
        );
      })
      .then(function () {
        return name;
      });
  });
}

function fetchShell() {
  return fetch('/index.html', { cache: 'no-store' }).then(function (response) {
    if (!response.ok) throw new Error('index.html answered ' + response.status);
    return response.text();
  });
}

/** Every built file (shell-assets.json, written by the build: lazy pages and fonts too); [] without a build. */
function builtAssets() {
  return fetch('/shell-assets.json', { cache: 'no-store' })
    .then(function (response) {
      return response.ok ? response.json() : [];
    })
    .catch(function () {
      return [];
    });
}

function currentShell() {
  return caches.keys().then(function (names) {
    var found = names.filter(function (name) {
      return name.indexOf(SHELL_PREFIX) === 0;
    });
    return found.length > 0 ? caches.open(found[0]) : null;
  });
}

self.addEventListener('install', function (event) {
  event.waitUntil(
    fetchShell()
      .then(storeShell)
      // No shell stored (the page server unreachable mid-install): push alerts still work; the
      // next navigation stores the shell.
      .catch(function () {})
      .then(function () {
        return self.skipWaiting();
      }),
  );
});

self.addEventListener('activate', function (event) {
  event.waitUntil(clients.claim());
});

function navigation(request) {
  return fetch(request)
    .then(function (response) {
      // A fresh index.html may be a new build: keep the shell current (in the background).
      if (response.ok && (response.headers.get('content-type') || '').indexOf('text/html') >= 0)
        response
          .clone()
          .text()
          .then(storeShell)
          .catch(function () {});
      return response;
    })
    .catch(function () {
      return currentShell()
        .then(function (cache) {
          return cache ? cache.match('/index.html') : Response.error();
        })
        .then(function (cached) {
          return cached || Response.error();
        });
    });
}

function asset(request) {
  return currentShell().then(function (cache) {
    var cached = cache ? cache.match(request) : Promise.resolve(undefined);
    return cached.then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (response) {
        if (response.ok && cache) cache.put(request, response.clone()).catch(function () {});
        return response;
      });
    });
  });
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf('/api') === 0) return;
  if (request.mode === 'navigate') event.respondWith(navigation(request));
  else if (url.pathname.indexOf('/assets/') === 0 || STATIC_FILES.indexOf(url.pathname) >= 0)
    event.respondWith(asset(request));
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
