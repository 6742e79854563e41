// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/export/index': () => import('./ExportPage.tsx').then((m) => ({ Component: m.ExportPage })),
};
