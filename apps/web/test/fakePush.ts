// Test helper: a fake browser with service worker, PushManager and Notification (jsdom has none).
import { vi } from 'vitest';

// 65-byte uncompressed P-256 point (0x04 then 64 bytes), base64url without padding, as the server sends it.
export const PUBLIC_KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : (i * 37) % 256));
export const PUBLIC_KEY = btoa(String.fromCharCode(...PUBLIC_KEY_BYTES))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '');
export const SUBSCRIPTION_JSON = {
  endpoint: 'https://push.example.com/send/abc',
  expirationTime: null,
  keys: { p256dh: 'BNcR', auth: 'tBHI' },
};

export interface FakeBrowser {
  register: ReturnType<typeof vi.fn>;
  subscribe: ReturnType<typeof vi.fn>;
  unsubscribe: ReturnType<typeof vi.fn>;
  requestPermission: ReturnType<typeof vi.fn>;
  setSubscribed: (value: boolean) => void;
}

export function fakeBrowser(
  permission: NotificationPermission,
  answer: NotificationPermission = permission,
): FakeBrowser {
  let subscribed = false;
  const unsubscribe = vi.fn(() => {
    subscribed = false;
    return Promise.resolve(true);
  });
  const subscription = { endpoint: SUBSCRIPTION_JSON.endpoint, toJSON: () => SUBSCRIPTION_JSON, unsubscribe };
  const subscribe = vi.fn(() => {
    subscribed = true;
    return Promise.resolve(subscription);
  });
  const pushManager = { subscribe, getSubscription: () => Promise.resolve(subscribed ? subscription : null) };
  const registration = { pushManager };
  const register = vi.fn(() => Promise.resolve(registration));
  vi.stubGlobal(
    'navigator',
    Object.assign(Object.create(navigator) as Navigator, {
      serviceWorker: {
        register,
        ready: Promise.resolve(registration),
        getRegistration: () => Promise.resolve(registration),
      },
    }),
  );
  const requestPermission = vi.fn(() => Promise.resolve(answer));
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', function PushManager() {});
  return {
    register,
    subscribe,
    unsubscribe,
    requestPermission,
    setSubscribed: (value) => {
      subscribed = value;
    },
  };
}
