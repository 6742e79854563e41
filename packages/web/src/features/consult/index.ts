// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/consult/upload': () => import('./ConsultUploadPage.tsx').then((m) => ({ Component: m.ConsultUploadPage })),
  '/consult/import': () => import('./LogbookPage.tsx').then((m) => ({ Component: m.LogbookPage })),
};
