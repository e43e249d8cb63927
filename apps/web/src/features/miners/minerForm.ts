// Rules of the Add Miner and Edit Miner forms (messages from the contract's validation catalog).
import { addMinerAlgorithmsOf, editMinerAlgorithms } from '@manjam/contract';
import type { Algorithm, MinerType, PoolPortsResponse } from '../api-types';
import { findPort, GUIDE_ALGORITHMS, guideKeyForAlgorithm, PLAIN_PASSWORD } from '../setup-guide/algorithms';
import { WORKER_NAME_PATTERN } from '../setup-guide/steps';

/** Add Miner's algorithms per device type (the port table's `forms.add`). Never empty: the first is the form's default. */
export const ADD_ALGORITHMS: Record<MinerType, readonly [Algorithm, ...Algorithm[]]> = {
  asic: addMinerAlgorithmsOf('asic'),
  gpu: addMinerAlgorithmsOf('gpu'),
  cpu: addMinerAlgorithmsOf('cpu'),
};

/** Edit Miner's algorithms, in the port table's `forms.edit` order. */
export const EDIT_ALGORITHMS: readonly Algorithm[] = editMinerAlgorithms();

export interface MinerFormValues {
  name: string;
  algorithm: Algorithm;
  type: MinerType;
}

export type MinerFormErrors = Partial<Record<'name' | 'workerName', 'required' | 'invalid'>>;

/** Miner Name is required; a worker name, when asked for, must be a valid Stratum suffix. */
export function validateMinerForm(values: { name: string; workerName?: string }): MinerFormErrors {
  const errors: MinerFormErrors = {};
  if (values.name.trim() === '') errors.name = 'required';
  if (values.workerName !== undefined) {
    const worker = values.workerName.trim();
    if (worker === '') errors.workerName = 'required';
    else if (!WORKER_NAME_PATTERN.test(worker)) errors.workerName = 'invalid';
  }
  return errors;
}

/** The pool port for an account algorithm id, from the server's port list. */
export function portForAlgorithm(ports: PoolPortsResponse | undefined, algorithm: Algorithm): number | null {
  const key = guideKeyForAlgorithm(algorithm);
  const guide = GUIDE_ALGORITHMS.find((a) => a.key === key);
  if (!guide) return null;
  if (!ports) return null;
  return findPort(ports.ports, guide)?.port ?? null;
}

/** stratum+tcp://host:port */
export function poolUrl(host: string, port: number): string {
  return `stratum+tcp://${host}:${port}`;
}

/** What a miner pastes into its software: URL, username.worker and the plain password (x). */
export function connectionString(host: string, port: number, username: string, workerName: string): string {
  return `${poolUrl(host, port)} -u ${username}.${workerName} -p ${PLAIN_PASSWORD}`;
}

/** Wraps text in Unicode left-to-right isolates so URLs and usernames read correctly inside Arabic sentences. */
export function isolateLtr(text: string): string {
  return `\u2066${text}\u2069`;
}
