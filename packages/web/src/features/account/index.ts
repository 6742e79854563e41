// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/login': () => import('./LoginPage.tsx').then((m) => ({ Component: m.LoginPage })),
  '/create-password': () => import('./CreatePasswordPage.tsx').then((m) => ({ Component: m.CreatePasswordPage })),
  '/reset-password': () => import('./CreatePasswordPage.tsx').then((m) => ({ Component: m.CreatePasswordPage })),
  '/forgotten': () => import('./ForgottenPage.tsx').then((m) => ({ Component: m.ForgottenPage })),
};
