import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BLOCKNOTIFY_SCRIPT,
  BlocknotifyListener,
  blocknotifyCommand,
  parseBlocknotify,
  type BlocknotifyMessage,
} from './blocknotify-listener.js';

const HASH = 'ab'.repeat(32);

function runScript(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BLOCKNOTIFY_SCRIPT, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('the blocknotify hook', () => {
  let listener: BlocknotifyListener | undefined;
  afterEach(async () => {
    await listener?.close();
  });

  it('reads "<COIN> <hash>" datagrams and ignores anything else', () => {
    expect(parseBlocknotify(`LTC ${HASH.toUpperCase()}\n`)).toEqual({ coin: 'LTC', hash: HASH });
    expect(parseBlocknotify(`LTC ${HASH.slice(2)}`)).toBeUndefined();
    expect(parseBlocknotify('hello')).toBeUndefined();
  });

  it('carries a node’s new tip from the script to the listener', async () => {
    const received: BlocknotifyMessage[] = [];
    const arrived = new Promise<void>((resolve) => {
      listener = new BlocknotifyListener((message) => {
        received.push(message);
        resolve();
      });
    });
    const port = await listener!.listen(0);
    expect(await runScript([`127.0.0.1:${port}`, 'btc', HASH])).toEqual({ code: 0, stderr: '' });
    await arrived;
    expect(received).toEqual([{ coin: 'BTC', hash: HASH }]);
  });

  it('carries a new tip from the command a node runs (through /bin/sh, %s filled in) to the listener', async () => {
    const arrived = new Promise<BlocknotifyMessage>((resolve) => {
      listener = new BlocknotifyListener(resolve);
    });
    const port = await listener!.listen(0);
    const command = blocknotifyCommand(port, 'LTC');
    expect(command).toContain('%s');
    const child = spawn('/bin/sh', ['-c', command.split('%s').join(HASH)], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(await arrived).toEqual({ coin: 'LTC', hash: HASH });
  });

  it('refuses bad arguments with a usage message and exit code 2', async () => {
    const result = await runScript(['127.0.0.1:1', 'LTC', 'not-a-hash']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/usage: blocknotify.mjs/);
  });
});
