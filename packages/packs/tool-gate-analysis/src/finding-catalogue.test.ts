import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCall } from './analyse-tool-call.js';
import { type CatalogueCall, FINDING_CATALOGUE, type FindingFamilyEntry } from './finding-catalogue.js';

/**
 * The finding catalogue is the policy's single list: every family's example produces a finding of
 * that family with the disposition the catalogue states, every counter-example is allowed, and
 * the table in docs/tool-gate-analysis.md is the catalogue's (regenerate with ARBITER_UPDATE_DOCS=1).
 */
const CWD = '/home/dev/project';
const analyse = (call: CatalogueCall) =>
  analyseToolCall({
    tool: call.tool,
    arguments: call.arguments,
    grant: call.tool === '' ? [] : [call.tool],
    task: call.task ?? 'Work on the project: keep the build green.',
    cwd: CWD,
  });
const entries = Object.entries(FINDING_CATALOGUE) as [string, FindingFamilyEntry][];

beforeAll(async () => {
  await analyseToolCall({ tool: 'Bash', arguments: { command: 'pwsh -c Get-Date' }, grant: [], task: '' });
});

describe('the finding catalogue', () => {
  // `analysis` is the analyser's own fault, which no call can be made to produce on purpose.
  it.each(entries.filter(([family]) => family !== 'analysis'))(
    "%s: its example produces a finding of the family, with the catalogue's disposition",
    async (family, entry) => {
      const analysis = await analyse(entry.example);
      expect(
        analysis.findings.map((finding) => finding.code).some((code) => code.startsWith(`${family}.`)),
      ).toBe(true);
      expect(analysis.answers.disposition.choice).toBe(entry.exampleDisposition);
    },
  );

  it.each(entries)('%s: its counter-example is allowed', async (_family, entry) => {
    expect((await analyse(entry.counterExample)).answers.disposition.choice).toBe('allow');
  });

  it('the table in docs/tool-gate-analysis.md is generated from the catalogue', () => {
    const path = resolve(import.meta.dirname, '../../../../docs/tool-gate-analysis.md');
    const describe = (call: CatalogueCall) =>
      `\`${call.tool}\` ${'`'}${JSON.stringify(call.arguments).replace(/\|/g, '\\|').slice(0, 90)}${'`'}`;
    const table = [
      '| family | principle | usual step | example → disposition | counter-example (allowed) |',
      '|---|---|---|---|---|',
      ...entries.map(
        ([family, entry]) =>
          `| \`${family}.\` | ${entry.principle.replace(/\|/g, '\\|')} | ${entry.step} | ${describe(entry.example)} → ${entry.exampleDisposition} | ${describe(entry.counterExample)} |`,
      ),
    ].join('\n');
    const begin = '<!-- finding-catalogue:begin -->';
    const end = '<!-- finding-catalogue:end -->';
    const document = readFileSync(path, 'utf8');
    const generated = `${begin}\n${table}\n${end}`;
    const current = document.slice(document.indexOf(begin), document.indexOf(end) + end.length);
    if (process.env.ARBITER_UPDATE_DOCS === '1') writeFileSync(path, document.replace(current, generated));
    else expect(current).toBe(generated);
  });
});
