import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newBatch, shareLine } from './batch.js';
import { ShareJournal } from './journal.js';
import { testShare } from '../../test/support/shares/fixtures.js';

const logger = pino({ level: 'silent' });
const share = testShare;

/** A stand-in for a miner's socket: what was written leaves only when it is not corked. */
class FakeSocket {
  corked = 0;
  destroyed = false;
  cork(): void {
    this.corked++;
  }
  uncork(): void {
    this.corked--;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const segments = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.jsonl') && n !== 'bad.jsonl');

describe('the share journal', () => {
  let dir: string;
  let journal: ShareJournal;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'manjam-journal-')), 'journal', 'stratum-default');
    journal = new ShareJournal({ dir, logger, fsyncMs: 1_000 });
  });
  afterEach(async () => {
    await journal.close();
    rmSync(join(dir, '..', '..'), { recursive: true, force: true });
  });

  it("holds a miner's replies until the turn's shares are written in one append", async () => {
    const a = newBatch();
    journal.open();
    journal.next(a.id);
    const socket = new FakeSocket();
    for (let i = 0; i < 50; i++) journal.add(shareLine(share(i)), socket);
    expect(socket.corked).toBe(1);
    expect(segments(dir)).toHaveLength(0);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(socket.corked).toBe(0);
    expect(journal.writes).toBe(1);
    expect((await journal.read(a.id)).shares).toHaveLength(50);
  });

  it('keeps one segment per batch and forgets a committed batch with one unlink', async () => {
    const [a, b] = [newBatch(), newBatch()];
    journal.open();
    journal.next(a.id);
    journal.add(shareLine(share(1)));
    journal.next(b.id);
    journal.add(shareLine(share(2)));
    journal.add(shareLine(share(3)));
    journal.flush();
    expect(segments(dir)).toHaveLength(2);
    expect((await journal.read(a.id)).shares.map((s) => s.atMs)).toEqual([1]);
    expect((await journal.read(b.id)).shares.map((s) => s.atMs)).toEqual([2, 3]);
    journal.remove(a.id);
    expect(segments(dir)).toHaveLength(1);
    expect(segments(dir)[0]).toContain(b.id);
  });

  it('hands a restarted process the segments a crash left, oldest first, grouped by batch', async () => {
    const [a, b] = [newBatch(), newBatch()];
    journal.open();
    journal.next(a.id);
    journal.add(shareLine(share(1)));
    journal.flush();
    await new Promise((resolve) => setTimeout(resolve, 2));
    journal.next(b.id);
    journal.add(shareLine(share(2)));
    await journal.close();
    const restarted = new ShareJournal({ dir, logger, fsyncMs: 0 });
    expect(restarted.open()).toEqual([a.id, b.id]);
    expect((await restarted.read(b.id)).shares[0]).toEqual(share(2));
    await restarted.close();
  });

  it('ignores a torn last record with a warning and keeps an unreadable line aside', async () => {
    const a = newBatch();
    journal.open();
    journal.next(a.id);
    journal.add(shareLine(share(1)) + 'not json\n' + shareLine(share(2)));
    journal.flush();
    const [name] = segments(dir);
    appendFileSync(join(dir, name as string), shareLine(share(3)).slice(0, 20));
    const batch = await journal.read(a.id);
    expect(batch.shares.map((s) => s.atMs)).toEqual([1, 2]);
    expect(readFileSync(join(dir, 'bad.jsonl'), 'utf8')).toBe('not json\n');
  });

  it('drops the held replies when the journal cannot be written', async () => {
    journal.open();
    journal.next(newBatch().id);
    await journal.close();
    const socket = new FakeSocket();
    journal.add(shareLine(share(1)), socket);
    journal.flush();
    expect(socket.destroyed).toBe(true);
  });

  it("refuses a second live process on the same journal and takes over a dead one's lock", async () => {
    journal.open();
    const second = new ShareJournal({ dir, logger, fsyncMs: 1_000 });
    expect(() => second.open()).toThrow(/held by running process .*instanceId/);
    writeFileSync(journal.lockPath, `${process.ppid}\n`);
    expect(() => second.open()).toThrow(/held by running process/);
    writeFileSync(journal.lockPath, '999999999\n');
    expect(() => second.open()).not.toThrow();
    await second.close();
    expect(existsSync(journal.lockPath)).toBe(false);
  });

  it('takes over a lock left by an earlier process that had the same pid (a restarted container)', async () => {
    const other = join(dir, '..', 'stratum-7');
    const restarted = new ShareJournal({ dir: other, logger, fsyncMs: 1_000 });
    mkdirSync(other, { recursive: true });
    writeFileSync(restarted.lockPath, `${process.pid} 1\n`);
    expect(() => restarted.open()).not.toThrow();
    expect(readFileSync(restarted.lockPath, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\n$`));
    await restarted.close();
  });

  it('closes every sealed segment once the background fdatasync has run (no file descriptor leak)', async () => {
    const openFds = () => readdirSync('/proc/self/fd').length;
    const synced = new ShareJournal({ dir: join(dir, '..', 'stratum-9'), logger, fsyncMs: 10 });
    synced.open();
    const baseline = openFds();
    for (let i = 0; i < 50; i++) {
      synced.next(newBatch().id);
      synced.add(shareLine(share(i)));
      synced.flush();
    }
    expect(openFds()).toBeGreaterThanOrEqual(baseline + 40);
    // The background fdatasync runs every 10 ms, but 50 syncs on a loaded machine can take longer
    // than any fixed wait: wait for the descriptors to be closed (a leak never gets there).
    await vi.waitUntil(() => openFds() <= baseline + 1, { timeout: 10_000, interval: 20 });
    expect(openFds()).toBeLessThanOrEqual(baseline + 1);
    await synced.close();
  });
});
