// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/manage/endpoints': () => import('./EndpointsPage.tsx').then((m) => ({ Component: m.EndpointsPage })),
  '/manage/listeners': () => import('./ListenersPage.tsx').then((m) => ({ Component: m.ListenersPage })),
};
