// The new-tip phase's fake node (lib/fake-node.ts) in a process of its own, as a coin node is:
// not in the benchmark's event loop beside the load generator's threads. Forked by
// lib/fake-node-handle.ts; told over IPC which -blocknotify command to run and when to mine.
import { FakeNode, type Mined } from './fake-node.js';

export type FakeNodeRequest = { type: 'blocknotify'; command: string } | { type: 'mine' } | { type: 'stop' };

export type FakeNodeMessage =
  { type: 'ready'; url: string } | ({ type: 'mined' } & Mined) | { type: 'error'; message: string };

async function main(): Promise<void> {
  const send = (message: FakeNodeMessage) => process.send?.(message);
  const node = await FakeNode.start();
  const stop = async () => {
    await node.close();
    process.exit(0);
  };
  process.on('message', (request: FakeNodeRequest) => {
    if (request.type === 'stop') return void stop();
    if (request.type === 'blocknotify') return node.blocknotify(request.command);
    void node.mine().then((mined) => send({ type: 'mined', ...mined }));
  });
  process.on('disconnect', () => void stop());
  send({ type: 'ready', url: node.url });
}

main().catch((error: unknown) => {
  process.send?.({ type: 'error', message: (error as Error).stack ?? String(error) });
  process.exit(1);
});
