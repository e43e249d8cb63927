import { describe, expect, it } from 'vitest';
import {
  completeStep,
  INITIAL_PROGRESS,
  isStepReachable,
  stratumUsername,
  validateWorkerName,
} from './steps';
import { filterAlgorithms, findPort, GUIDE_ALGORITHMS, normalizeAlgorithmName } from './algorithms';

describe('setup guide step 1', () => {
  it('asks for a worker name when the field is empty or blank', () => {
    expect(validateWorkerName('')).toBe('empty');
    expect(validateWorkerName('   ')).toBe('empty');
  });
  it('refuses characters a Stratum username cannot carry', () => {
    expect(validateWorkerName('rig 1')).toBe('invalid');
    expect(validateWorkerName('rig/1')).toBe('invalid');
    expect(validateWorkerName('a'.repeat(65))).toBe('invalid');
  });
  it('accepts letters of any script, digits, dot, dash and underscore and builds username.worker_name', () => {
    expect(validateWorkerName(' rig_01-a ')).toBeNull();
    expect(validateWorkerName('منجم.1')).toBeNull();
    expect(stratumUsername('amal', ' rig_01-a ')).toBe('amal.rig_01-a');
  });
});

describe('setup guide progress', () => {
  it('completes a step and makes the next one active', () => {
    const after1 = completeStep(INITIAL_PROGRESS, 1);
    expect(after1).toEqual({ active: 2, completed: [1] });
    expect(isStepReachable(after1, 2)).toBe(true);
    expect(isStepReachable(after1, 3)).toBe(false);
  });
  it('stays on the last step once everything is completed', () => {
    let p = INITIAL_PROGRESS;
    for (const s of [1, 2, 3, 4, 5] as const) p = completeStep(p, s);
    expect(p.active).toBe(5);
    expect(p.completed).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('setup guide algorithms', () => {
  it('lists the 19 algorithms of the port table', () => {
    expect(GUIDE_ALGORITHMS).toHaveLength(19);
    expect(new Set(GUIDE_ALGORITHMS.map((a) => a.key)).size).toBe(19);
  });
  it('matches server ports by id or by display name', () => {
    const equihash1254 = GUIDE_ALGORITHMS.find((a) => a.name === 'Equihash-125,4');
    expect(equihash1254).toBeDefined();
    expect(normalizeAlgorithmName('Equihash-125,4')).toBe('equihash1254');
    const ports = [{ algorithm: 'equihash-125-4', name: 'Equihash-125,4', port: 9090, live: false }];
    expect(equihash1254 && findPort(ports, equihash1254)?.port).toBe(9090);
  });
  it('shows Scrypt and Scrypt-DOGE under the Scrypt tab', () => {
    expect(filterAlgorithms('scrypt').map((a) => a.name)).toEqual(['Scrypt', 'Scrypt-DOGE']);
  });
});
