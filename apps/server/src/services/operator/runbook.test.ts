import { readFileSync } from 'node:fs';
import { OPERATOR_ALERT_KINDS } from '@manjam/contract';
import { describe, expect, it } from 'vitest';
import { RUNBOOK_DOC, runbookOf } from './runbook.js';

const doc = readFileSync(new URL(`../../../../../${RUNBOOK_DOC}`, import.meta.url), 'utf8');

describe('the runbook an operator alert points to', () => {
  it.each(OPERATOR_ALERT_KINDS)('names a section of docs/OPERATIONS.md that exists for %s', (kind) => {
    const { doc: file, anchor } = runbookOf(kind);
    expect(file).toBe('docs/OPERATIONS.md');
    expect(doc).toContain(`<a id="${anchor}"></a>`);
    // The section is about this kind: it names it in its first lines.
    const section = doc.slice(doc.indexOf(`<a id="${anchor}"></a>`)).split('\n- ')[0] ?? '';
    expect(section).toContain(`\`${kind}\``);
  });
});
