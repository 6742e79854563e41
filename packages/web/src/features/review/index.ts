// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/import/review': () => import('./ReviewPage.tsx').then((m) => ({ Component: m.ReviewPage })),
};
