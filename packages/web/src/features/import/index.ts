// What the shell takes from this feature: its screens by path, each loaded when first shown.
export const pages = {
  '/import/jobs': () => import('./JobsList.tsx').then((m) => ({ Component: m.ManageJobsPage })),
  '/import/upload': () => import('./ImportWizardPage.tsx').then((m) => ({ Component: m.ImportWizardPage })),
};
