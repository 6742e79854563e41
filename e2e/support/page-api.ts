// The API called from a page as the web app calls it: with the signed-in user's token.
import type { Page } from 'playwright-core';

/** Calls the API from the page with the signed-in user's token; answers the envelope's data. */
export async function callFromPage<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(`/gdb-importer/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'x-token': localStorage.getItem('gdb-token') ?? '',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answer = (await res.json()) as { code: number; message: string; data: unknown };
      if (answer.code !== 20000) throw new Error(`${path}: ${answer.message}`);
      return answer.data;
    },
    { path, body },
  ) as Promise<T>;
}
