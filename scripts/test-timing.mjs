// The per-file part of the timing report: what each project and its slowest files cost, from the
// figures scripts/timing-reporter.mjs wrote during the run.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_TIMES_DIR } from './timing-reporter.mjs';

const seconds = (ms) => (ms / 1000).toFixed(1);

/** The per-project and slowest-file tables, or '' when the reporter wrote nothing. */
export function fileTimingReport(limit = 20) {
  if (!existsSync(FILE_TIMES_DIR)) return '';
  const runs = readdirSync(FILE_TIMES_DIR).filter((name) => name.endsWith('.json'));
  if (runs.length === 0) return '';
  const recorded = runs.flatMap((name) => JSON.parse(readFileSync(join(FILE_TIMES_DIR, name), 'utf8')));
  const files = recorded.map((file) => {
    const wall = file.endedAt - file.startedAt;
    return { ...file, wall, hooksMs: Math.max(0, file.runMs - file.inTestsMs) };
  });
  const projects = new Map();
  for (const file of files) {
    const project = projects.get(file.project) ?? {
      files: 0,
      first: Infinity,
      last: 0,
      wall: 0,
      importMs: 0,
      hooksMs: 0,
      inTestsMs: 0,
    };
    project.files += 1;
    project.first = Math.min(project.first, file.startedAt);
    project.last = Math.max(project.last, file.endedAt);
    project.wall += file.wall;
    project.importMs += file.importMs;
    project.hooksMs += file.hooksMs;
    project.inTestsMs += file.inTestsMs;
    projects.set(file.project, project);
  }
  files.sort((a, b) => b.wall - a.wall);
  return [
    '| project | files | wall s (first start to last end) | file time s | importing s | hooks s | in tests s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[...projects].map(
      ([name, p]) =>
        `| ${name} | ${p.files} | ${seconds(p.last - p.first)} | ${seconds(p.wall)} | ${seconds(p.importMs)} | ${seconds(p.hooksMs)} | ${seconds(p.inTestsMs)} |`,
    ),
    '',
    '| slowest files (hooks: beforeAll/afterAll and between tests) | wall s | importing s | hooks s | in tests s | tests |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...files
      .slice(0, limit)
      .map(
        (file) =>
          `| ${file.file} | ${seconds(file.wall)} | ${seconds(file.importMs)} | ${seconds(file.hooksMs)} | ${seconds(file.inTestsMs)} | ${file.tests} |`,
      ),
  ].join('\n');
}
