import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationList, Settings } from '../../lib/api-types';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';
import { NotificationBell } from './NotificationBell';
import { UNSET_PAYOUTS } from '../../../test/payouts';

const SETTINGS: Settings = {
  darkMode: true,
  showBalance: true,
  showHashrate: true,
  theme: 'dark',
  language: 'en',
  notifications: true,
  emailAlerts: false,
  emailAlertsAvailable: true,
  twoFactorAuth: false,
  autoLogout: true,
  timeZone: null,
  payouts: UNSET_PAYOUTS,
  rigTokenSet: false,
};

const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

const LIST: NotificationList = {
  items: [
    {
      id: 12,
      kind: 'worker-offline',
      title: 'Worker rig-01 is offline',
      body: 'No accepted share for 15 minutes.',
      createdAt: minutesAgo(5),
      read: false,
      count: 1,
    },
    {
      id: 11,
      kind: 'payout-sent',
      title: 'Payout sent',
      body: '0.0102 BTC was sent to your wallet.',
      createdAt: minutesAgo(180),
      read: false,
      count: 1,
    },
    {
      id: 10,
      kind: 'block-found',
      title: 'Block found',
      body: 'The pool found block 840000.',
      createdAt: minutesAgo(2 * 24 * 60),
      read: false,
      count: 1,
    },
    {
      id: 9,
      kind: 'worker-recovered',
      title: 'Worker rig-01 is back',
      body: 'Shares are arriving again.',
      createdAt: minutesAgo(3 * 24 * 60),
      read: true,
      count: 1,
    },
  ],
};

type Handler = (init: RequestInit) => Response;

function serve(routes: Record<string, Handler>) {
  const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
    const handler = routes[`${init.method ?? 'GET'} ${url}`];
    return Promise.resolve(
      handler ? handler(init) : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('notification bell', () => {
  it('shows the unread count on the bell and names it for screen readers', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse(SETTINGS),
    });
    renderWithApp(<NotificationBell />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unread' });
    expect(bell).toHaveTextContent('3');
    expect(bell).toHaveAttribute('aria-expanded', 'false');
  });

  it('names the unread count with the Arabic plural forms', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse({ ...SETTINGS, language: 'ar' }),
    });
    renderWithApp(<NotificationBell />, { lang: 'ar' });
    expect(
      await screen.findByRole('button', { name: 'الإشعارات، 3 إشعارات غير مقروءة' }),
    ).toBeInTheDocument();
  });

  it('uses the Arabic dual for two unread notifications', async () => {
    const two = { items: LIST.items.slice(1) };
    serve({
      'GET /api/notifications': () => jsonResponse(two),
      'GET /api/settings': () => jsonResponse(SETTINGS),
    });
    renderWithApp(<NotificationBell />, { lang: 'ar' });
    expect(await screen.findByRole('button', { name: 'الإشعارات، إشعاران غير مقروءين' })).toBeInTheDocument();
  });

  it('opens a list with titles, bodies, relative times and read state', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse(SETTINGS),
    });
    renderWithApp(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    const panel = screen.getByRole('dialog', { name: 'Notifications' });
    expect(panel).toHaveFocus();
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('Worker rig-01 is offline, unread');
    expect(items[0]).toHaveTextContent('No accepted share for 15 minutes.');
    expect(items[0]).toHaveTextContent('5 minutes ago');
    expect(items[1]).toHaveTextContent('3 hours ago');
    expect(items[2]).toHaveTextContent('2 days ago');
    expect(items[3]).toHaveTextContent('Worker rig-01 is back, read');
  });

  it('marks a notification read on click and lowers the count', async () => {
    let items = LIST.items;
    const fetchMock = serve({
      'GET /api/notifications': () => jsonResponse({ items }),
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'POST /api/notifications/12/read': () => {
        items = items.map((item) => (item.id === 12 ? { ...item, read: true } : item));
        return new Response(null, { status: 204 });
      },
    });
    renderWithApp(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    fireEvent.click(screen.getByRole('button', { name: /Worker rig-01 is offline/ }));
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([url]) => url)).toEqual([
      '/api/notifications/12/read',
    ]);
    expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Worker rig-01 is offline, read');
  });

  it('says so when marking read fails and keeps the notification unread', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'POST /api/notifications/12/read': () =>
        jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
    });
    renderWithApp(<NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    fireEvent.click(screen.getByRole('button', { name: /Worker rig-01 is offline/ }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Worker rig-01 is offline, unread');
  });

  it('closes with Escape and gives focus back to the bell', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse(SETTINGS),
    });
    renderWithApp(<NotificationBell />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unread' });
    fireEvent.click(bell);
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bell).toHaveFocus();
    expect(bell).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when focus leaves the bell and its panel', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse(SETTINGS),
    });
    renderWithApp(
      <>
        <NotificationBell />
        <a href="/next">Next link</a>
      </>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 3 unread' }));
    const panel = screen.getByRole('dialog', { name: 'Notifications' });
    fireEvent.blur(within(panel).getAllByRole('button')[0] as HTMLElement, {
      relatedTarget: within(panel).getAllByRole('button')[1],
    });
    expect(screen.getByRole('dialog', { name: 'Notifications' })).toBeInTheDocument();
    fireEvent.blur(panel, { relatedTarget: screen.getByRole('link', { name: 'Next link' }) });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says there is nothing yet when the list is empty', async () => {
    serve({
      'GET /api/notifications': () => jsonResponse({ items: [] }),
      'GET /api/settings': () => jsonResponse(SETTINGS),
    });
    renderWithApp(<NotificationBell />);
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText(/No notifications yet/)).toBeInTheDocument();
  });

  it('hides the count when notifications are off in Settings, and the list stays reachable', async () => {
    const fetchMock = serve({
      'GET /api/notifications': () => jsonResponse(LIST),
      'GET /api/settings': () => jsonResponse({ ...SETTINGS, notifications: false }),
    });
    renderWithApp(<NotificationBell />);
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(
        expect.arrayContaining(['/api/notifications', '/api/settings']),
      ),
    );
    const bell = screen.getByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(bell).toHaveTextContent(''));
    fireEvent.click(bell);
    expect(await screen.findAllByRole('listitem')).toHaveLength(4);
  });
  describe('repeats, mark all read and long hashes', () => {
    // Today's blocks, from 00:01 local time on: 10 single alerts and one batch of 2 (12 blocks).
    const today = new Date();
    today.setHours(0, 1, 0, 0);
    const at = (seconds: number) => new Date(today.getTime() + seconds * 1000).toISOString();
    const hash = 'ab'.repeat(32);
    const BLOCKS: NotificationList = {
      items: [
        {
          id: 40,
          kind: 'block-found',
          title: '2 more BTC blocks found',
          body: 'Between 00:00 and 01:00 the pool found 2 more BTC blocks.',
          createdAt: at(60),
          read: false,
          count: 2,
        },
        ...Array.from({ length: 10 }, (_, i) => ({
          id: 30 - i,
          kind: 'block-found',
          title: `Block ${830 - i} found`,
          body: `The pool found BTC block ${830 - i} (${hash}).`,
          createdAt: at(50 - i),
          read: false,
          count: 1,
        })),
      ],
    };

    it('groups 12 blocks found today into one line that opens to the single alerts, with hashes shortened', async () => {
      serve({
        'GET /api/notifications': () => jsonResponse(BLOCKS),
        'GET /api/settings': () => jsonResponse(SETTINGS),
      });
      renderWithApp(<NotificationBell />);
      fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 11 unread' }));
      const panel = screen.getByRole('dialog', { name: 'Notifications' });
      const group = within(panel).getByRole('button', { name: /12 blocks found today/ });
      expect(group).toHaveAttribute('aria-expanded', 'false');
      expect(group).toHaveTextContent('11 unread · Show all 11');
      expect(within(panel).getAllByRole('listitem')).toHaveLength(1);
      fireEvent.click(group);
      expect(within(panel).getAllByRole('listitem')).toHaveLength(12);
      const short = within(panel).getAllByTitle(hash)[0];
      expect(short).toHaveTextContent('abababab…abababab');
      expect(panel).not.toHaveTextContent(hash);
    });

    it('says the group in Arabic', async () => {
      serve({
        'GET /api/notifications': () => jsonResponse(BLOCKS),
        'GET /api/settings': () => jsonResponse({ ...SETTINGS, language: 'ar' }),
      });
      renderWithApp(<NotificationBell />, { lang: 'ar' });
      fireEvent.click(await screen.findByRole('button', { name: /^الإشعارات، 11/ }));
      expect(
        within(screen.getByRole('dialog')).getByRole('button', { name: /12 كتلة عُثر عليها اليوم/ }),
      ).toBeInTheDocument();
    });

    it('marks all read with one button', async () => {
      let items = BLOCKS.items;
      const fetchMock = serve({
        'GET /api/notifications': () => jsonResponse({ items }),
        'GET /api/settings': () => jsonResponse(SETTINGS),
        'POST /api/notifications/read-all': () => {
          items = items.map((item) => ({ ...item, read: true }));
          return jsonResponse({ marked: 11 });
        },
      });
      renderWithApp(<NotificationBell />);
      fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 11 unread' }));
      fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
      expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: /12 blocks found today/ })).toHaveTextContent('All read');
      expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([url]) => url)).toEqual([
        '/api/notifications/read-all',
      ]);
    });
  });
});
