// The writer of the live benchmark: log lines at a steady rate, in small commits, each line
// carrying its sequence number and the time just before its commit was sent.

export interface WriterPlan {
  importIds: string[];
  linesPerSecond: number;
  seconds: number;
  /** Commits per second; lines are spread evenly over them. */
  commitsPerSecond: number;
}

export interface LineRow {
  level: 'info';
  message: string;
  import_id: string;
}

export interface WriterResult {
  lines: number;
  commits: number;
  elapsedMs: number;
  /** Commits that started later than planned by more than one period. */
  lateCommits: number;
}

/** The wall-clock time in ms with sub-ms precision, comparable across processes of one machine. */
export const now = () => performance.timeOrigin + performance.now();

/** A line's message: `seq|sentAt|` then padding to a typical log line length. */
export function lineMessage(seq: number, sentAt: number): string {
  return `${seq}|${sentAt.toFixed(3)}|`.padEnd(120, '.');
}

export function parseLine(message: string): { seq: number; sentAt: number } | undefined {
  const [seq, sentAt] = message.split('|');
  if (seq === undefined || sentAt === undefined) return undefined;
  return { seq: Number(seq), sentAt: Number(sentAt) };
}

/** Writes the plan's lines; line `seq` goes to import `seq % importIds.length`. */
export async function runWriter(plan: WriterPlan, insert: (rows: LineRow[]) => Promise<void>): Promise<WriterResult> {
  const total = plan.linesPerSecond * plan.seconds;
  const commits = plan.commitsPerSecond * plan.seconds;
  const periodMs = 1000 / plan.commitsPerSecond;
  const start = now();
  let seq = 0;
  let late = 0;
  for (let c = 0; c < commits; c++) {
    const due = start + c * periodMs;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else if (-wait > periodMs) late += 1;
    const upto = Math.round(((c + 1) * total) / commits);
    const sentAt = now();
    const rows: LineRow[] = [];
    for (; seq < upto; seq++) {
      const importId = plan.importIds[seq % plan.importIds.length] ?? '';
      rows.push({ level: 'info', message: lineMessage(seq, sentAt), import_id: importId });
    }
    await insert(rows);
  }
  return { lines: seq, commits, elapsedMs: now() - start, lateCommits: late };
}
