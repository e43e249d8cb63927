import { appendFileSync, existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { batchLines, decodeLegacyBatch } from './batch.js';
import type { ShareJournal } from './journal.js';

/**
 * Before the journal, batches the database could not take were appended, one per line, to
 * <dataDir>/stratum-spill/shares.jsonl (renamed .replay while being written). A pool upgraded
 * with such a file moves its batches into the journal once, at start; they are then written like
 * any journaled batch (by batch id, so a batch already in the database is not counted twice,
 * even when two Stratum processes on one dataDir both move the same file). Returns their ids.
 */
export function importLegacySpill(dataDir: string, journal: ShareJournal, logger: Logger): string[] {
  const spill = join(resolve(dataDir), 'stratum-spill', 'shares.jsonl');
  const ids: string[] = [];
  for (const path of [`${spill}.replay`, spill]) {
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      try {
        const batch = decodeLegacyBatch(line);
        if (journal.has(batch.id)) continue;
        journal.importBatch(batch, batchLines(batch));
        ids.push(batch.id);
      } catch (error) {
        logger.error({ err: error }, 'unreadable line in the old share spill file; kept in shares.jsonl.bad');
        appendFileSync(`${spill}.bad`, line + '\n');
      }
    }
    unlinkSync(path);
    logger.warn({ path, batches: ids.length }, 'old share spill file moved into the share journal');
  }
  return ids;
}
