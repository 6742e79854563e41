import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { rowsOf } from './read-csv.ts';
import { readTextFormat } from './read-text-formats.ts';
import { BigJsonInteger } from './table.ts';

const dir = path.join(import.meta.dirname, '../../../../test/corpus/text');

interface Case {
  file: string;
  format: 'text' | 'xml' | 'json';
  hints?: string[];
  refused?: string;
  fields?: string[];
  rows?: unknown[];
  lines?: number[];
  rowProblems?: unknown[];
  notes?: string[];
}

const cases: Case[] = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));

/** The table as cases.json writes it: a big integer as `{"$big": digits}`, a note as `level: message`. */
function asWritten(bytes: Uint8Array, c: Case) {
  const read = readTextFormat(bytes, c.format, { fields: c.hints ?? [], required: [] }, DEFAULT_LIMITS);
  const rows = 'columns' in read ? rowsOf(read) : read.rows;
  const json = JSON.stringify(rows, (_key, value: unknown) => (value instanceof BigJsonInteger ? { $big: value.digits } : value));
  return {
    fields: read.fields,
    rows: JSON.parse(json),
    lines: read.lines,
    rowProblems: read.rowProblems,
    notes: read.notes.map((n) => `${n.level}: ${n.message}`),
  };
}

describe('the text corpus: files as other tools write them', () => {
  it('holds every file it lists', () => {
    const files = fs.readdirSync(dir).filter((f) => f !== 'cases.json' && f !== 'README.md');
    expect(cases.map((c) => c.file).sort()).toEqual(files.sort());
  });

  for (const c of cases) {
    it(`${c.file}: ${c.refused ? `refused (${c.refused})` : `${c.rows?.length} rows`}`, () => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(dir, c.file)));
      expect(detectFormat(bytes)).toBe(c.format);
      if (c.refused) {
        expect(() => asWritten(bytes, c)).toThrow(c.refused);
        return;
      }
      const { file: _file, format: _format, hints: _hints, ...expected } = c;
      expect(asWritten(bytes, c)).toEqual(expected);
    });
  }
});
