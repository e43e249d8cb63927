// Worker edit form rules: name required, a valid Stratum worker suffix.
import { WORKER_NAME_PATTERN } from '../setup-guide/steps';

export type WorkerNameProblem = 'required' | 'invalid';

export function validateWorkerEdit(name: string): WorkerNameProblem | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  return WORKER_NAME_PATTERN.test(trimmed) ? null : 'invalid';
}
