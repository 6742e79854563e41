// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/manage/pipeline': () => import('./PipelinesPage.tsx').then((m) => ({ Component: m.PipelinesPage })),
  '/manage/update-lock-pipeline': () => import('./UpdatesPage.tsx').then((m) => ({ Component: m.UpdatesPage })),
};
