import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import type { MatchField } from '@gdb/shared/uploads/column-matcher';
import { App } from 'antd';
import { type ReactNode, useState } from 'react';
import { errorText } from '../../ground/request/failure.ts';
import { ColumnMappingDialog } from './ColumnMappingDialog.tsx';
import {
  type FileHead,
  headOfChosenFile,
  type MappingProposal,
  proposeMapping,
  saveColumnMapping,
  sourceMappings,
} from './column-mapping.ts';

/** A file waiting for its mapping: what the dialog shows, and how the file is then taken. */
interface Waiting {
  dataSubKind: string;
  head: FileHead;
  fields: MatchField[];
  proposal: Extract<MappingProposal, { ask: true }>;
  take: () => void;
}

/** The content types whose files' columns are mapped: CSV (its head read here) and workbooks (read by the server). */
const MAPPED_TYPES: ReadonlySet<DataSource['contentType']> = new Set(['csv', 'excel']);

/**
 * Step 2's column matching: a CSV file or workbook chosen for a data source with a data model is
 * taken at once when its header names the fields as they are or has a stored mapping; otherwise
 * the mapping dialog asks first, and Confirm stores the mapping (the server applies it when it
 * checks the file). A head that cannot be read leaves the file as it is, with the reason shown.
 */
export function useColumnMapping(pipelineId: string): {
  offer: (source: DataSource, file: File, take: () => void) => Promise<void>;
  dialog: ReactNode;
} {
  const { message } = App.useApp();
  const [waiting, setWaiting] = useState<Waiting | null>(null);

  const offer = async (source: DataSource, file: File, take: () => void) => {
    if (!MAPPED_TYPES.has(source.contentType) || !source.dataModel) return take();
    try {
      const [head, stored] = await Promise.all([
        headOfChosenFile(pipelineId, source, file),
        sourceMappings(pipelineId, source.dataSubKind),
      ]);
      const proposal = proposeMapping(head.columns, stored);
      if (!proposal.ask) return take();
      setWaiting({ dataSubKind: source.dataSubKind, head, fields: stored.fields, proposal, take });
    } catch (error) {
      // The file is checked as written, and the check says what does not fit.
      message.error(errorText(error));
      take();
    }
  };

  const dialog = waiting && (
    <ColumnMappingDialog
      key={`${waiting.dataSubKind}:${waiting.head.columns.join('\u001f')}`}
      dataSubKind={waiting.dataSubKind}
      head={waiting.head}
      fields={waiting.fields}
      proposed={waiting.proposal.choices}
      contested={waiting.proposal.match.contested}
      onConfirm={async (columns) => {
        await saveColumnMapping({ pipelineId, dataSubKind: waiting.dataSubKind, columns });
        waiting.take();
        setWaiting(null);
      }}
      onCancel={() => setWaiting(null)}
    />
  );
  return { offer, dialog };
}
