import type { ComponentType } from 'react';
import * as account from '../features/account/index.ts';
import * as activity from '../features/activity/index.ts';
import * as components from '../features/components/index.ts';
import * as consult from '../features/consult/index.ts';
import * as documentation from '../features/documentation/index.ts';
import * as exporting from '../features/export/index.ts';
import * as importing from '../features/import/index.ts';
import * as pipelines from '../features/pipelines/index.ts';
import * as publish from '../features/publish/index.ts';
import * as review from '../features/review/index.ts';
import * as schemas from '../features/schemas/index.ts';
import * as sdk from '../features/sdk/index.ts';
import * as testing from '../features/testing/index.ts';
import * as users from '../features/users/index.ts';

type Lazy = () => Promise<{ Component: ComponentType }>;

export const upcoming: Lazy = () => import('./pages/UpcomingPage.tsx').then((m) => ({ Component: m.UpcomingPage }));

/** Screens that exist; every other path of the table shows the upcoming-feature view. */
export const PAGES: Record<string, Lazy> = {
  ...account.pages,
  ...activity.pages,
  ...components.pages,
  ...consult.pages,
  ...documentation.pages,
  ...exporting.pages,
  ...importing.pages,
  ...pipelines.pages,
  ...publish.pages,
  ...review.pages,
  ...schemas.pages,
  ...sdk.pages,
  ...testing.pages,
  ...users.pages,
  '/unauthorized/index': () => import('./pages/UnauthorizedPage.tsx').then((m) => ({ Component: m.UnauthorizedPage })),
};

/** True when the path's screen is built: the menu offers no entry that would open the upcoming-feature view. */
export const isBuilt = (path: string): boolean => path in PAGES;
