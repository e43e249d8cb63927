import { describe, expect, it } from 'vitest';
import { portForAlgorithm, connectionString, validateMinerForm, ADD_ALGORITHMS } from '../miners/minerForm';
import { changeTone } from '../../components';
import { toChartSeries } from '../hashrate/HashrateChart';
import { algorithmForCoin, formatHashrateAdaptive, pickHashrateScale } from '../hashrate/hashrateScale';
import { backoffDelay, liveUrl, parseLiveMessage } from './liveUpdates';

describe('hashrate scale', () => {
  it('picks one unit for the whole series from its largest value', () => {
    expect(pickHashrateScale([2e12, 950e9]).unit).toBe('TH/s');
    expect(pickHashrateScale([3.2e9]).unit).toBe('GH/s');
    expect(pickHashrateScale([500]).unit).toBe('H/s');
  });
  it("uses the unit the algorithm's miners count in (its coin's) for an empty series, H/s for one the pool does not mine", () => {
    expect(pickHashrateScale([0, 0], 'sha256').unit).toBe('TH/s');
    expect(pickHashrateScale([], 'scrypt').unit).toBe('GH/s');
    expect(pickHashrateScale([], 'kaspa').unit).toBe('GH/s');
    expect(pickHashrateScale([], 'randomx').unit).toBe('kH/s');
    expect(pickHashrateScale([], 'ethash').unit).toBe('H/s');
  });
  it('turns 24 hourly points into hour labels and scaled values', () => {
    const points = Array.from({ length: 24 }, (_, h) => ({
      time: new Date(Date.UTC(2026, 10, 21, h)).toISOString(),
      value: (h + 1) * 1e12,
    }));
    const series = toChartSeries(points, 'sha256', 'en');
    expect(series.unit).toBe('TH/s');
    expect(series.values[0]).toBe(1);
    expect(series.values[23]).toBe(24);
    expect(series.labels).toHaveLength(24);
    expect(series.peak).toBe('24 TH/s');
  });
  it('formats totals with one decimal', () => {
    expect(formatHashrateAdaptive(123.45e12, 'en')).toBe('123.5 TH/s');
    expect(algorithmForCoin('LTC')).toBe('scrypt');
  });
});

describe('dashboard rules', () => {
  it('shows growth in green, a fall in red, and no change or a first period neutral', () => {
    expect(changeTone('+12.5%')).toBe('up');
    expect(changeTone('-3.0%')).toBe('down');
    expect(changeTone('0.0%')).toBe('neutral');
    expect(changeTone('new')).toBe('neutral');
  });
});

describe('miner forms and connection strings', () => {
  it('requires a miner name and a valid worker', () => {
    expect(validateMinerForm({ name: ' ' })).toEqual({ name: 'required' });
    expect(validateMinerForm({ name: 'S19', workerName: '' })).toEqual({ workerName: 'required' });
    expect(validateMinerForm({ name: 'S19', workerName: 'rig 1' })).toEqual({ workerName: 'invalid' });
    expect(validateMinerForm({ name: 'S19', workerName: 'a'.repeat(65) })).toEqual({ workerName: 'invalid' });
    expect(validateMinerForm({ name: 'S19', workerName: 'worker1' })).toEqual({});
  });
  it('offers the seed algorithms per device type', () => {
    expect(ADD_ALGORITHMS.asic).toEqual(['sha256', 'scrypt', 'kadena', 'kaspa']);
    expect(ADD_ALGORITHMS.gpu).toEqual(['kadena', 'kaspa']);
    expect(ADD_ALGORITHMS.cpu).toEqual(['kaspa']);
  });
  it("uses the pool's real host and the port of the miner's algorithm", () => {
    const ports = {
      host: 'pool.manjam.example',
      shareDifficulty: { capsAtNetworkDifficulty: true as const, blockFirst: true as const },
      ports: [
        { algorithm: 'sha256', name: 'SHA-256', port: 3333, live: true },
        { algorithm: 'kheavyhash', name: 'kHeavyHash', port: 7777, live: false },
      ],
    };
    expect(portForAlgorithm(ports, 'kaspa')).toBe(7777);
    expect(portForAlgorithm(ports, 'scrypt')).toBeNull();
    expect(connectionString('pool.manjam.example', 3333, 'amal', 'rig7')).toBe(
      'stratum+tcp://pool.manjam.example:3333 -u amal.rig7 -p x',
    );
  });
});

describe('live updates', () => {
  it('understands only the agreed message types', () => {
    expect(parseLiveMessage('{"type":"payout","id":"p1"}')).toBe('payout');
    expect(parseLiveMessage('{"type":"nonsense"}')).toBeNull();
    expect(parseLiveMessage('not json')).toBeNull();
  });
  it('backs off exponentially up to a minute', () => {
    expect([0, 1, 2, 10].map(backoffDelay)).toEqual([1000, 2000, 4000, 60_000]);
  });
  it('builds a ws URL with the token on the page origin', () => {
    expect(liveUrl('a b', '', new URL('https://manjam.example/dashboard') as unknown as Location)).toBe(
      'wss://manjam.example/api/live?token=a+b',
    );
  });
});
