import { REVIEW_LIMITS, type Review, type ReviewRow } from '@gdb/shared/uploads/review.schemas';
import { type Dispatch, type RefObject, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';
import { correctRows, type ReviewFilter, reviewPage } from './api.ts';
import { batches, type CellChange, replaceChanges, withAnswer, withChanges } from './review-edits.ts';

/** Rows of the first read: the grid shows them at once, the rest follow in pages. */
const FIRST_PAGE = 1_000;
/** How long the grid waits after a change for more before sending them together. */
const SEND_DELAY_MS = 300;

type Counts = Omit<Review, 'rows'>;
type OnError = RefObject<(error: unknown) => void>;

interface Pending {
  cells: Map<string, CellChange>;
  removals: Set<number>;
  restores: Set<number>;
}

const emptyPending = (): Pending => ({ cells: new Map(), removals: new Set(), restores: new Set() });

/** The rows the filters keep, read page after page (the first shown at once), and the review's counts. */
function useReviewRead(uploadId: string, filter: ReviewFilter, onError: OnError) {
  const [rows, setRows] = useState<ReviewRow[]>([]);
  const [counts, setCounts] = useState<Counts | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    (async () => {
      const first = await reviewPage(uploadId, filter, 0, FIRST_PAGE, abort.signal);
      const { rows: firstRows, ...rest } = first;
      setRows(firstRows);
      setCounts(rest);
      setLoading(false);
      for (let offset = firstRows.length; offset < first.total && !abort.signal.aborted; offset += REVIEW_LIMITS.pageMax) {
        const page = await reviewPage(uploadId, filter, offset, REVIEW_LIMITS.pageMax, abort.signal);
        if (page.rows.length === 0) break;
        setRows((before) => [...before, ...page.rows]);
      }
    })().catch((error: unknown) => {
      if (abort.signal.aborted) return;
      setLoading(false);
      onError.current(error);
    });
    return () => abort.abort();
  }, [uploadId, filter, onError]);
  return { rows, setRows, counts, setCounts, loading };
}

/** The changes waiting to be sent, sent together a moment after the last one, the answers put in place. */
function useCorrectionQueue(
  uploadId: string,
  setRows: Dispatch<SetStateAction<ReviewRow[]>>,
  setCounts: Dispatch<SetStateAction<Counts | null>>,
  onError: OnError,
) {
  const [sending, setSending] = useState(0);
  const pending = useRef<Pending>(emptyPending());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const flushing = useRef<Promise<void>>(Promise.resolve());

  const sendOne = useCallback(
    async (body: { changes: CellChange[]; removals: number[]; restores: number[] }) => {
      setSending((n) => n + 1);
      try {
        const answer = await correctRows(uploadId, body);
        const typedSince = new Set([...pending.current.cells.values()].map((c) => c.rowIndex));
        setRows((before) => withAnswer(before, answer.rows, typedSince));
        setCounts((before) =>
          before ? { ...before, problemRows: answer.problemRows, removedRows: answer.removedRows } : before,
        );
      } catch (error) {
        onError.current(error);
      } finally {
        setSending((n) => n - 1);
      }
    },
    [uploadId, setRows, setCounts, onError],
  );

  const send = useCallback(async () => {
    const taken = pending.current;
    pending.current = emptyPending();
    const calls = batches([
      ...[...taken.cells.values()].map((c) => ({ change: c })),
      ...[...taken.removals].map((i) => ({ removal: i })),
      ...[...taken.restores].map((i) => ({ restore: i })),
    ]);
    for (const call of calls) {
      await sendOne({
        changes: call.flatMap((c) => ('change' in c ? [c.change] : [])),
        removals: call.flatMap((c) => ('removal' in c ? [c.removal] : [])),
        restores: call.flatMap((c) => ('restore' in c ? [c.restore] : [])),
      });
    }
  }, [sendOne]);

  /** Sends what waits now (after what is being sent); resolves once the server answered. */
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    flushing.current = flushing.current.then(send);
    return flushing.current;
  }, [send]);

  const later = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), SEND_DELAY_MS);
  }, [flush]);

  useEffect(() => () => clearTimeout(timer.current), []);
  return { pending, flush, later, sending: sending > 0 };
}

/**
 * The review of an upload as the grid works on it: its rows read page after page, the changes
 * made shown at once and sent together a moment later (only those rows are checked again), the
 * answers put in place.
 */
export function useReview(uploadId: string, onError: (error: unknown) => void) {
  const [filter, setFilter] = useState<ReviewFilter>({ all: false });
  const errorRef = useRef(onError);
  errorRef.current = onError;
  const { rows, setRows, counts, setCounts, loading } = useReviewRead(uploadId, filter, errorRef);
  const queue = useCorrectionQueue(uploadId, setRows, setCounts, errorRef);
  const { pending, later } = queue;

  const fields = counts?.fields ?? [];
  const change = useCallback(
    (changes: readonly CellChange[]) => {
      if (changes.length === 0) return;
      for (const c of changes) pending.current.cells.set(`${c.rowIndex}\u0000${c.field}`, c);
      setRows((before) => withChanges(before, fields, changes));
      later();
    },
    [fields, later, pending, setRows],
  );

  const setRemoved = useCallback(
    (index: number, removed: boolean) => {
      const { removals, restores } = pending.current;
      (removed ? restores : removals).delete(index);
      (removed ? removals : restores).add(index);
      setRows((before) => before.map((r) => (r.index === index ? { ...r, removed } : r)));
      later();
    },
    [later, pending, setRows],
  );

  const edit = useCallback((rowIndex: number, field: string, value: string) => change([{ rowIndex, field, value }]), [change]);

  return {
    filter,
    setFilter,
    rows,
    counts,
    loading,
    sending: queue.sending,
    edit,
    /** Replaces `find` by `by` in one column of the rows read; answers how many cells changed. */
    replace: (field: string, find: string, by: string) => {
      const changes = replaceChanges(rows, fields, field, find, by);
      change(changes);
      return changes.length;
    },
    setRemoved,
    flush: queue.flush,
  };
}
