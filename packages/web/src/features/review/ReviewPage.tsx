import { Alert, App, Button, Card, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { downloadProblems, submitCorrected } from './api.ts';
import { ReviewGrid } from './ReviewGrid.tsx';
import { ReviewToolbar } from './ReviewToolbar.tsx';
import { useReview } from './useReview.ts';
import './review.css';

const GRID_HEIGHT = 480;

/** Why a call failed, in the words the server gave. */
const said = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The review of an upload's rows (/import/review?upload=…): fix the bad cells, remove rows, submit the corrected file. */
export function ReviewPage() {
  const [params] = useSearchParams();
  const uploadId = params.get('upload') ?? '';
  return uploadId ? <Reviewing uploadId={uploadId} /> : <Alert type="info" title="No upload to review was chosen." />;
}

function Reviewing({ uploadId }: { uploadId: string }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const review = useReview(uploadId, (error) => setFailure(said(error)));
  const { counts } = review;

  const submit = async () => {
    setBusy(true);
    try {
      await review.flush();
      setSubmitted(await submitCorrected(uploadId));
      message.success('The corrected file was submitted; it is being checked.');
    } catch (error) {
      setFailure(said(error));
    } finally {
      setBusy(false);
    }
  };
  const download = (format: 'csv' | 'xlsx') => downloadProblems(uploadId, format).catch((error) => setFailure(said(error)));

  if (!counts) return failure ? <Alert type="error" title={failure} /> : <Spin />;
  return (
    <Card
      title={`Review of ${counts.fileName ?? 'the upload'}`}
      extra={
        <Space>
          <Button onClick={() => download('csv')}>Download problems (CSV)</Button>
          <Button onClick={() => download('xlsx')}>Download problems (XLSX)</Button>
          <Button type="primary" loading={busy} disabled={!!submitted} onClick={submit}>
            Submit corrected file
          </Button>
        </Space>
      }
    >
      {failure && <Alert type="error" title={failure} closable onClose={() => setFailure(null)} style={{ marginBottom: 12 }} />}
      {submitted && (
        <Alert
          type="success"
          style={{ marginBottom: 12 }}
          title="The corrected file was submitted as a new upload of the same data source; the original is kept."
          action={<Button onClick={() => navigate(-1)}>Back</Button>}
        />
      )}
      <Typography.Paragraph role="status">
        {counts.problemRows} {counts.problemRows === 1 ? 'row has' : 'rows have'} a problem, {counts.removedRows} removed, of{' '}
        {counts.rowCount} in the file.{review.sending ? ' Checking…' : ''}
      </Typography.Paragraph>
      <ReviewToolbar counts={counts} filter={review.filter} onFilter={review.setFilter} onReplace={review.replace} />
      {review.loading ? (
        <Spin />
      ) : (
        <ReviewGrid
          fields={counts.fields}
          rows={review.rows}
          height={GRID_HEIGHT}
          onEdit={review.edit}
          onRemove={review.setRemoved}
        />
      )}
    </Card>
  );
}
