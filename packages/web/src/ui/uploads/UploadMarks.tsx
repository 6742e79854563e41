import { Switch, Tag, Tooltip, Typography } from 'antd';
import { useId } from 'react';
import { Link } from 'react-router';
import { formatLogDate } from '../LogView.tsx';

/** What an upload row says beyond its name: sent from the testing view, and the import that took it. */
export interface MarkedUpload {
  _id: string;
  originalFilename: string | null;
  enabled: boolean;
  importedAt: string | null;
  importedBy: string | null;
  sentFrom: 'wizard' | 'testing';
  /** Its check state: an invalid upload offers its review. */
  status?: string;
  /** The upload this one corrects, when it was made by a review. */
  correctedFrom?: string | null | undefined;
}

/**
 * 'Imported {date} by import {id}' for an upload a done import took, a 'Testing View' tag for one
 * sent from there, a 'Corrected' tag for one a review made, and the review of an invalid one.
 */
export function UploadMarks({ upload }: { upload: MarkedUpload }) {
  return (
    <>
      {upload.sentFrom === 'testing' && <Tag className="gdb-upload-testing">Testing View</Tag>}
      {upload.correctedFrom && <Tag>Corrected</Tag>}
      {upload.status === 'invalid' && (
        <Link
          to={`/import/review?upload=${encodeURIComponent(upload._id)}`}
          aria-label={`Review rows of ${upload.originalFilename ?? upload._id}`}
        >
          Review rows
        </Link>
      )}
      {upload.importedAt && (
        <Typography.Text type="secondary" className="gdb-upload-imported">
          Imported {formatLogDate(upload.importedAt)}
          {upload.importedBy && (
            <>
              {' '}
              by import <span title={upload.importedBy}>{upload.importedBy.slice(0, 8)}</span>
            </>
          )}
        </Typography.Text>
      )}
    </>
  );
}

const TAKE_LABEL = 'Take in next run';

/** Why the switch is on or off: a run takes every enabled valid upload; one an import took is off until switched on. */
function takeTip(upload: MarkedUpload): string {
  if (upload.importedAt && !upload.enabled) return 'Already imported: switch on to import this file again in the next run.';
  return upload.enabled
    ? 'The next run takes this file. Switch off to leave it out.'
    : 'The next run leaves this file out. Switch on to take it.';
}

/** The switch that says whether the next run takes the upload, with its visible label and a tooltip. */
export function TakeSwitch({ upload, onToggle }: { upload: MarkedUpload; onToggle: (enabled: boolean) => void }) {
  const name = upload.originalFilename ?? upload._id;
  const id = useId();
  return (
    <Tooltip title={takeTip(upload)}>
      <label className="gdb-take-switch" htmlFor={id}>
        <Switch id={id} size="small" checked={upload.enabled} aria-label={`${TAKE_LABEL}: ${name}`} onChange={onToggle} />
        <span aria-hidden="true">{TAKE_LABEL}</span>
      </label>
    </Tooltip>
  );
}
