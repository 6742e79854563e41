// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/manage/documentation': () => import('./DocumentationPage.tsx').then((m) => ({ Component: m.DocumentationPage })),
};
