// The words of the Updates screen; the quoted messages of docs/product.md §18.6 come from the version texts.
export const UPDATES_TEXTS = {
  updateTab: 'Update version',
  lockTab: 'Lock version',
  startUpdate: 'Start update',
  startLock: 'Start lock',
  checkAll: 'Check all',
  toggleAll: 'Toggle all',
  masters: 'Master pipelines',
  countries: 'Country pipelines',
  none: 'None',
  counts: (checked: number, masters: number, countries: number) =>
    `${checked} checked of ${masters + countries} (${masters} masters, ${countries} countries)`,
  choose: 'Choose a pipeline to see its update report.',
  progress: (done: number, total: number) => `Updating ${done} / ${total}`,
} as const;
