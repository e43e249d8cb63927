import { SERVICE_WORKER_URL } from '../notifications/push';

/**
 * Registers the service worker (public/sw.js) that keeps the app shell for offline use and shows
 * push alerts, in the production build only: under the Vite dev server the shell is not a build.
 * Registering an already registered worker is a no-op; a failure leaves the app online-only.
 */
export function registerAppShell(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL).catch(() => undefined);
  });
}
