import { type ActivityPage, type ActivityQuery, activityPageSchema } from '@gdb/shared/activity/activity.schemas';
import { api } from '../../ground/request/api.ts';
import { Download, request } from '../../ground/request/request.ts';

/** The query of the activity record without its empty filters. */
function queryOf(filters: ActivityQuery): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(filters))
    if (value !== undefined && value !== '') query[key] = value as string | number;
  return query;
}

/** GET /activity: a page of the record, newest first. */
export function activityPage(filters: ActivityQuery, signal?: AbortSignal): Promise<ActivityPage> {
  return api.get('/activity', activityPageSchema, { query: queryOf(filters), signal });
}

/** GET /activity/export: the record the filters keep as a CSV file, saved by the browser. */
export async function exportActivity(filters: ActivityQuery): Promise<void> {
  const { offset: _offset, limit: _limit, ...kept } = filters;
  const answer = await request({ method: 'GET', path: '/activity/export', query: queryOf(kept), responseType: 'blob' });
  if (!(answer instanceof Download)) throw new Error('The activity file was not received.');
  const url = URL.createObjectURL(answer.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = answer.filename ?? 'activity.csv';
  link.click();
  URL.revokeObjectURL(url);
}
