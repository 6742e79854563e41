// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/testing/index': () => import('./TestingPage.tsx').then((m) => ({ Component: m.TestingPage })),
};
