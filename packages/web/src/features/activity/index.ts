// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/activity/index': () => import('./ActivityPage.tsx').then((m) => ({ Component: m.ActivityPage })),
};
