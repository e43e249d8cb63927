// The five-step guide as a small state machine: a step completes when its continue action
// is done, and the next one becomes active. Pure, so it is tested without rendering.

export const GUIDE_STEPS = [1, 2, 3, 4, 5] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];

export interface GuideProgress {
  active: GuideStep;
  completed: readonly GuideStep[];
}

export const INITIAL_PROGRESS: GuideProgress = { active: 1, completed: [] };

export function completeStep(progress: GuideProgress, step: GuideStep): GuideProgress {
  const completed = progress.completed.includes(step) ? progress.completed : [...progress.completed, step];
  const next = GUIDE_STEPS.find((s) => s > step && !completed.includes(s));
  return { active: next ?? step, completed };
}

export function isStepCompleted(progress: GuideProgress, step: GuideStep): boolean {
  return progress.completed.includes(step);
}

/** A step can be opened once every step before it is completed. */
export function isStepReachable(progress: GuideProgress, step: GuideStep): boolean {
  return GUIDE_STEPS.filter((s) => s < step).every((s) => progress.completed.includes(s));
}

/** Same rule as the contract's workerNameField: letters (any script), digits, '.', '_' and '-', at most 64. */
export const WORKER_NAME_PATTERN = /^[\p{L}\p{N}._-]{1,64}$/u;

export type WorkerNameError = 'empty' | 'invalid';

/** Step 1: a worker name is required and must be a valid Stratum worker name. */
export function validateWorkerName(raw: string): WorkerNameError | null {
  const name = raw.trim();
  if (name === '') return 'empty';
  return WORKER_NAME_PATTERN.test(name) ? null : 'invalid';
}

/** Stratum username in the seed's format username.worker_name. */
export function stratumUsername(username: string, workerName: string): string {
  return `${username}.${workerName.trim()}`;
}
