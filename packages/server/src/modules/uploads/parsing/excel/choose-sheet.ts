import { ParseError, type ParseLimits } from '../limits.ts';
import type { ReadHints, ReadTable } from '../table.ts';
import { HEADER_SEARCH_ROWS, type SheetOutcome, SheetTable } from './sheet-table.ts';
import type { Visibility } from './workbook.ts';

// Which sheet of a workbook is read: hidden sheets never; the first visible one whose header row
// holds the data model's fields (the first visible one without a data model). When none does, the
// refusal names each visible sheet and what it lacks.

/** A sheet of a workbook, with the way to read its cells into a table. */
export interface SheetSource {
  name: string;
  visibility: Visibility;
  read: (table: SheetTable) => void;
}

/** The refusal of a workbook none of whose visible sheets has a header row holding the data model's fields. */
export class NoHeaderRowError extends ParseError {}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

function why(name: string, outcome: SheetOutcome, hints: ReadHints): string {
  if ('empty' in outcome) return `sheet "${name}" is empty`;
  if (!('lacks' in outcome)) return `sheet "${name}"`;
  if (hints.required.length === 0) return `sheet "${name}" has none of the fields ${outcome.lacks.join(', ')}`;
  return `sheet "${name}" lacks ${outcome.lacks.join(', ')}`;
}

/** The note saying which sheet was read and which were passed over. */
function readNote(name: string, hidden: string[], passed: string[]): string {
  let note = `Sheet "${name}" read`;
  if (hidden.length > 0) note += `; hidden sheet${hidden.length > 1 ? 's' : ''} ${quoted(hidden)} skipped`;
  if (passed.length > 0) note += `; ${passed.join('; ')} (passed over)`;
  return `${note}.`;
}

/** Reads the workbook's sheet that holds the data model's fields, as a table. */
export function chooseSheet(sheets: readonly SheetSource[], hints: ReadHints, limits: ParseLimits): ReadTable {
  const hidden: string[] = [];
  const passed: string[] = [];
  let visible = 0;
  for (const sheet of sheets) {
    if (sheet.visibility !== 'visible') {
      hidden.push(sheet.name);
      continue;
    }
    visible += 1;
    const table = new SheetTable(sheet.name, hints, limits);
    sheet.read(table);
    const outcome = table.finish();
    if ('table' in outcome) {
      const note = { level: 'info' as const, message: readNote(sheet.name, hidden, passed) };
      return { ...outcome.table, notes: [note, ...outcome.table.notes] };
    }
    // Without a data model the first visible sheet is the one, even empty.
    if (hints.fields.length === 0) return emptyTable(sheet.name);
    passed.push(why(sheet.name, outcome, hints));
  }
  if (visible === 0) {
    const named = hidden.length > 0 ? ` (${quoted(hidden)} ${hidden.length > 1 ? 'are' : 'is'} hidden)` : '';
    throw new ParseError(`The workbook has no visible sheet${named}.`);
  }
  throw new NoHeaderRowError(
    `No sheet of the workbook has a header row holding the data model's fields (looked for in each sheet's first ${HEADER_SEARCH_ROWS} rows): ${passed.join('; ')}.`,
  );
}

function emptyTable(name: string): ReadTable {
  return { fields: [], rows: [], lines: [], rowProblems: [], notes: [{ level: 'info', message: `Sheet "${name}" read.` }] };
}
