// Test helpers for the template watcher.
import dgram from 'node:dgram';
import type { NodeTemplate } from '../../../../../src/coins/bitcoin/node/node.js';
import type {
  TemplateInfo,
  TemplateWatcher,
} from '../../../../../src/coins/bitcoin/node/template-watcher.js';

export interface SeenTemplate {
  template: NodeTemplate;
  info: TemplateInfo;
  at: number;
}

/** Resolves with the first template event matching `accept` (events from now on). */
export function nextTemplate(
  watcher: TemplateWatcher,
  accept: (seen: SeenTemplate) => boolean,
  timeoutMs = 10_000,
): Promise<SeenTemplate> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching template within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = watcher.onTemplate((template, info) => {
      const seen = { template, info, at: performance.now() };
      if (!accept(seen)) return;
      clearTimeout(timer);
      off();
      resolve(seen);
    });
  });
}

/** A UDP port that was free a moment ago (bind 0, read, release). */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}
