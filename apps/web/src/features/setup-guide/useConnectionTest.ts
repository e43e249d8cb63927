import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectionStatus } from '../api-types';
import { AUTHORIZED_TIMEOUT_MS, fetchConnection, POLL_TIMEOUT_MS, pollConnection } from './connectionTest';

/** failed: never connected; stalled: connected and authorized, but no share accepted in time. */
export type ConnectionTestState = 'idle' | 'testing' | 'connected' | 'failed' | 'stalled';

export interface UseConnectionTest {
  state: ConnectionTestState;
  elapsedMs: number;
  timeoutMs: number;
  /** The stage the last answer reported (waiting until the first answer). */
  stage: ConnectionStatus['stage'];
  /** The worker's last accepted share as the last answer gave it (what the server judges by). */
  lastShareAt: string | null;
  start: () => void;
}

/** Runs the polling connection test for one worker; stops when the component unmounts. */
export function useConnectionTest(workerName: string): UseConnectionTest {
  const [state, setState] = useState<ConnectionTestState>('idle');
  const [elapsedMs, setElapsedMs] = useState(0);
  const [stage, setStage] = useState<ConnectionStatus['stage']>('waiting');
  const [lastShareAt, setLastShareAt] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState('testing');
    setElapsedMs(0);
    setStage('waiting');
    void pollConnection({
      check: (signal) => fetchConnection(workerName, signal),
      signal: current.signal,
      onProgress: setElapsedMs,
      onStatus: (status) => {
        setStage(status.stage);
        setLastShareAt(status.lastShareAt);
      },
    }).then((outcome) => {
      if (outcome === 'cancelled') return;
      setState(outcome === 'connected' ? 'connected' : outcome === 'authorized' ? 'stalled' : 'failed');
    });
  }, [workerName]);

  return {
    state,
    elapsedMs,
    timeoutMs: stage === 'waiting' ? POLL_TIMEOUT_MS : AUTHORIZED_TIMEOUT_MS,
    stage,
    lastShareAt,
    start,
  };
}
