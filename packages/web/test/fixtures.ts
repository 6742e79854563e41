// Answers of the server the page tests share: pipelines as GET /users/pipelines gives them, and uploads.

export const ref = (id: string, name: string) => ({ _id: id, name });
const LOCALE = { _id: 'l1', language: 'fr', country: 'FR', name: 'French' };
const DEALER = { _id: 'd1', name: 'dealer', isDealer: true };

/** A data source taking CSV files. */
export const source = (dataSubKind: string, connectorType = 'manual', dataFromMaster = false) => ({
  dataSubKind,
  connectorType,
  dataFromMaster,
  contentType: 'csv',
  dataModel: null,
});

/** A locked version 3 country pipeline of Brand One, French, Cars, dealer kind, with one manual source 'main'. */
export const pipeline = (id: string, name: string, fields: Record<string, unknown> = {}) => ({
  _id: id,
  familyId: id,
  name,
  version: 3,
  vLocked: true,
  read_only: false,
  isMaster: false,
  masterPipeline: null,
  component: null,
  pipelineSchema: null,
  sys_version: 1,
  brand: ref('b1', 'Brand One'),
  locale: LOCALE,
  productLine: ref('pl1', 'Cars'),
  datakind: DEALER,
  isHidden: false,
  dataSources: [source('main')],
  dataSinks: [],
  folder: null,
  tags: { read: [], write: [] },
  ...fields,
});

/** The static types of those pipelines, with more brands when asked. */
export const staticTypes = (brands = [ref('b1', 'Brand One')]) => ({
  brands,
  locales: [LOCALE],
  datakinds: [DEALER],
  productLines: [ref('pl1', 'Cars')],
});

/** A valid, enabled source upload of 'main', one row, from 2026-11-22 08:00 UTC. */
export const uploadView = (id: string, pipelineId: string, fields: Record<string, unknown> = {}) => ({
  _id: id,
  pipelineId,
  from: 'source',
  dataSubKind: 'main',
  status: 'valid',
  createdAt: '2026-11-22T08:00:00.000Z',
  originalFilename: `${id}.csv`,
  contentType: 'text/csv',
  size: 10,
  rowCount: 1,
  importId: null,
  enabled: true,
  importedAt: null,
  importedBy: null,
  sentFrom: 'wizard',
  ...fields,
});
