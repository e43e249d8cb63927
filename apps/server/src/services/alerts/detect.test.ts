import { describe, expect, it } from 'vitest';
import { observeWorker, type WorkerObservation } from './detect.js';
import { renderAlert, renderEmail } from './messages.js';
import { alertSettingsSchema } from '../../config/alerts.js';

const settings = alertSettingsSchema.parse({});
const t0 = new Date('2026-11-22T10:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

function worker(overrides: Partial<WorkerObservation>): WorkerObservation {
  return {
    workerId: 7,
    name: 'rig1',
    coin: 'BTC',
    lastShareAt: t0,
    status: 'online',
    offlineSince: null,
    backSince: null,
    hashrateLowSince: null,
    recentHashrate: 100e12,
    averageHashrate: 100e12,
    historySeconds: 86_400,
    ...overrides,
  };
}

/** Runs the state machine over a timeline of (minute, last share minute) observations. */
function replay(timeline: [number, number][]): string[] {
  let state = worker({});
  const raised: string[] = [];
  for (const [minute, lastShare] of timeline) {
    const result = observeWorker({ ...state, lastShareAt: at(lastShare) }, at(minute), settings);
    if (result.alert) raised.push(result.alert.kind);
    state = { ...state, ...result.state };
  }
  return raised;
}

describe('worker offline debounce', () => {
  it('raises nothing while shares keep arriving within the offline time', () => {
    expect(
      replay([
        [5, 4],
        [9, 1],
        [15, 14],
      ]),
    ).toEqual([]);
  });

  it('raises one offline alert after 10 minutes of silence and one recovery once back for 5 minutes', () => {
    expect(
      replay([
        [10, 0],
        [11, 0],
        [30, 0],
        [31, 31],
        [33, 33],
        [36, 36],
      ]),
    ).toEqual(['worker-offline', 'worker-recovered']);
  });

  it('keeps a flapping rig in one outage: two drops give one alert and one recovery', () => {
    const timeline: [number, number][] = [
      [10, 0], // silent 10 min: offline alert
      [12, 12], // back
      [25, 13], // silent again before it stayed back 5 min: same outage
      [27, 27], // back again
      [29, 28],
      [40, 39], // still sharing, back since minute 27: one recovery notice
    ];
    expect(replay(timeline)).toEqual(['worker-offline', 'worker-recovered']);
  });

  it('keys the offline alert by the last share so the same outage can never be raised twice', () => {
    const first = observeWorker(worker({ lastShareAt: at(0) }), at(10), settings);
    const again = observeWorker(worker({ lastShareAt: at(0) }), at(50), settings);
    expect(first.alert?.dedupeKey).toBe('worker-offline:7:' + at(0).getTime());
    expect(again.alert?.dedupeKey).toBe(first.alert?.dedupeKey);
  });

  it('does not call a worker that never sent a share offline', () => {
    expect(observeWorker(worker({ lastShareAt: null }), at(60), settings).alert).toBeNull();
  });
});

describe('hashrate drop', () => {
  it('alerts once when the last 10 minutes fall below half the 24 h average, and re-arms after recovering', () => {
    const low = observeWorker(worker({ lastShareAt: at(0), recentHashrate: 40e12 }), at(1), settings);
    expect(low.alert?.kind).toBe('hashrate-drop');
    expect(low.alert?.payload).toMatchObject({ current: 40e12, average: 100e12, percent: 50 });
    expect(low.alert?.dedupeKey).toBe(`hashrate-drop:7:${Math.floor(at(1).getTime() / 3_600_000)}`);
    const still = observeWorker(
      worker({ lastShareAt: at(1), recentHashrate: 30e12, hashrateLowSince: at(1) }),
      at(2),
      settings,
    );
    expect(still.alert).toBeNull();
    const back = observeWorker(
      worker({ lastShareAt: at(2), recentHashrate: 90e12, hashrateLowSince: at(1) }),
      at(3),
      settings,
    );
    expect(back.state.hashrateLowSince).toBeNull();
  });

  it('stays quiet without an hour of history behind the average', () => {
    expect(
      observeWorker(worker({ recentHashrate: 1, historySeconds: 1_800 }), at(1), settings).alert,
    ).toBeNull();
  });
});

describe('alert messages', () => {
  it('renders every kind in English and Arabic from its payload', () => {
    const payout = { coin: 'LTC', amount: '1500000', address: 'rltc1qexample', txid: 'ab'.repeat(32) };
    expect(renderAlert('payout-sent', payout, 'en').title).toBe('Payout of 0.015 LTC sent');
    expect(renderAlert('payout-sent', payout, 'ar').title).toBe('تم إرسال دفعة بقيمة 0.015 LTC');
    const offline = { worker: 'rig1', coin: 'BTC', lastShareAt: '2026-11-22T10:00:00.000Z', minutes: 10 };
    expect(renderAlert('worker-offline', offline, 'en').body).toContain('Last share: 2026-11-22 10:00 UTC');
    expect(renderAlert('worker-offline', offline, 'ar').title).toBe('العامل rig1 غير متصل');
  });

  it("writes times in the reader's time zone, named by its offset", () => {
    const offline = { worker: 'rig1', coin: 'BTC', lastShareAt: '2026-11-22T10:00:00.000Z', minutes: 10 };
    expect(renderAlert('worker-offline', offline, 'en', 'Asia/Riyadh').body).toContain(
      'Last share: 2026-11-22 13:00 GMT+3',
    );
    expect(renderEmail('worker-offline', offline, 'ar', 'Africa/Cairo').text).toContain(
      '2026-11-22 12:00 GMT+2',
    );
  });

  it('tells a Monero miner of an XMR payout to the last atomic unit and of a RandomX worker slowing in H/s', () => {
    const address = `4${'A'.repeat(94)}`;
    const payout = { coin: 'XMR', amount: '600000000001', address, txid: 'cd'.repeat(32) };
    expect(renderAlert('payout-sent', payout, 'en').title).toBe('Payout of 0.600000000001 XMR sent');
    expect(renderAlert('payout-sent', payout, 'ar').body).toContain('0.600000000001 XMR');
    expect(renderAlert('payout-sent', payout, 'en').body).toContain(address);
    const drop = { worker: 'desk', coin: 'XMR', current: 420, percent: 50, average: 1500 };
    const body = renderAlert('hashrate-drop', drop, 'en').body;
    expect(body).toContain('Worker desk (XMR) runs at 420');
    expect(body).toMatch(/420(\.0+)? H\/s/);
    expect(body).toMatch(/1\.5\d* kH\/s/);
  });

  it('escapes HTML in emails and writes Arabic emails right to left', () => {
    const email = renderEmail('worker-offline', { worker: '<b>x</b>', coin: 'BTC', minutes: 10 }, 'ar');
    expect(email.html).toContain('dir="rtl"');
    expect(email.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(email.subject).toBe('منجم: العامل <b>x</b> غير متصل');
  });
});
