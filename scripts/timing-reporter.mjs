// A Vitest reporter that records what each test file really cost: Vitest's JSON report spans a
// file from its first test's start to its last test's end, which leaves out what a file spends
// importing and in its beforeAll/afterAll hooks (starting and stopping dev chains, databases and
// whole pools). This one keeps, per file, its wall time from the worker picking it up to its end,
// Vitest's own split of it (import, hooks and tests), and per project the wall from its first
// file's start to its last file's end. scripts/test.mjs passes it and prints the table it writes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where each Vitest run's per-file figures go (read by scripts/test-timing.mjs). */
export const FILE_TIMES_DIR = join(ROOT, 'node_modules', '.cache', 'manjam-files');
/** This run's file: scripts/test.mjs names one per Vitest run it starts (MANJAM_FILE_TIMES). */
const FILE_TIMES = process.env.MANJAM_FILE_TIMES ?? join(FILE_TIMES_DIR, 'vitest.json');

export default class TimingReporter {
  /** File id -> wall-clock start: when its worker began importing it. */
  started = new Map();
  files = [];

  onTestModuleQueued(testModule) {
    this.started.set(testModule.id, Date.now());
  }

  onTestModuleEnd(testModule) {
    const ended = Date.now();
    const diagnostic = testModule.diagnostic();
    let inTests = 0;
    let tests = 0;
    for (const test of testModule.children.allTests()) {
      tests += 1;
      inTests += test.diagnostic()?.duration ?? 0;
    }
    const began = this.started.get(testModule.id) ?? ended;
    this.files.push({
      file: relative(ROOT, testModule.moduleId),
      project: testModule.project.name,
      startedAt: began,
      endedAt: ended,
      // Importing the file (and what it imports) and running its describe bodies.
      importMs: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.prepareDuration,
      environmentMs: diagnostic.environmentSetupDuration,
      // Tests and hooks together: `hooksMs` is what the hooks and the time between tests took.
      runMs: diagnostic.duration,
      inTestsMs: inTests,
      tests,
      state: testModule.state(),
    });
  }

  onTestRunEnd() {
    mkdirSync(dirname(FILE_TIMES), { recursive: true });
    writeFileSync(FILE_TIMES, `${JSON.stringify(this.files, null, 1)}\n`);
  }
}
