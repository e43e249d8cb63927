import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchConnection, POLL_TIMEOUT_MS, pollConnection } from './connectionTest';

export type ConnectionTestState = 'idle' | 'testing' | 'connected' | 'failed';

export interface UseConnectionTest {
  state: ConnectionTestState;
  elapsedMs: number;
  timeoutMs: number;
  start: () => void;
}

/** Runs the polling connection test for one worker; stops when the component unmounts. */
export function useConnectionTest(workerName: string): UseConnectionTest {
  const [state, setState] = useState<ConnectionTestState>('idle');
  const [elapsedMs, setElapsedMs] = useState(0);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState('testing');
    setElapsedMs(0);
    void pollConnection({
      check: (signal) => fetchConnection(workerName, signal),
      signal: current.signal,
      onProgress: setElapsedMs,
    }).then((outcome) => {
      if (outcome === 'cancelled') return;
      setState(outcome === 'connected' ? 'connected' : 'failed');
    });
  }, [workerName]);

  return { state, elapsedMs, timeoutMs: POLL_TIMEOUT_MS, start };
}
