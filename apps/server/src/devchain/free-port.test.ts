import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './child.js';

describe('free ports for the dev chains', () => {
  it('never hands out the same port twice, even when the OS offers a released one again', async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
    expect(new Set(ports).size).toBe(200);
    // Each one can be bound.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
