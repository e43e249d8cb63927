// Waiting for one message of a forked bench process (its `error` message, or its exit, rejects).
import type { ChildProcess } from 'node:child_process';

type Message = { type: string } | { type: 'error'; message: string };

export function nextMessage<M extends Message, T extends M['type']>(
  child: ChildProcess,
  expect: T,
  name: string,
): Promise<Extract<M, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${name} exited with ${code}`));
    const onMessage = (m: M) => {
      if (m.type !== expect && m.type !== 'error') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (m.type === expect) resolve(m as Extract<M, { type: T }>);
      else reject(new Error((m as { message?: string }).message ?? 'unknown error'));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
