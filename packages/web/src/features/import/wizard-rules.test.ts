import type { ImportRecord, ScheduledJob } from '@gdb/shared/imports/import.schemas';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { UploadView } from '@gdb/shared/uploads/upload.schemas';
import { describe, expect, it } from 'vitest';
import { filterPipelines, seesCountryVersions, seesVersions } from '../../ui/pipelines/pipeline-filter.ts';
import { uploadSources } from '../../ui/uploads/sources.ts';
import {
  chooseStepReady,
  DEFAULT_SCHEDULE,
  editingBlockedReason,
  formOfJob,
  latestStatuses,
  missingPropertiesMessage,
  type NextState,
  nextBlockedReason,
  nextStep,
  previousStep,
  repeatPatternOf,
  runUploads,
  schedulePayload,
  scheduleValid,
  sourcesReady,
  withLiveUploads,
} from './wizard-rules.ts';

const ref = (id: string) => ({ _id: id, name: id });

function pipeline(fields: Partial<PipelineView> & { _id: string; name: string }): PipelineView {
  return {
    familyId: fields._id,
    version: 1,
    vLocked: false,
    read_only: false,
    isMaster: false,
    masterPipeline: null,
    component: null,
    pipelineSchema: null,
    sys_version: 1,
    brand: ref('b1'),
    locale: { _id: 'l1', language: 'fr', country: 'FR', name: 'French' },
    productLine: ref('pl1'),
    datakind: { _id: 'd1', name: 'dealer', isDealer: true },
    isHidden: false,
    dataSources: [{ dataSubKind: 'main', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: null }],
    dataSinks: [],
    folder: null,
    tags: { read: [], write: [] },
    ...fields,
  };
}

const imp = (state: ImportRecord['state'], fields: Partial<ImportRecord> = {}): ImportRecord => ({
  _id: 'i1',
  pipeline: 'p1',
  pipelineName: 'P',
  pipelineVersion: 1,
  job: 'j1',
  jobKind: 'immediate',
  parentImport: null,
  scheduledAt: null,
  startedAt: null,
  endAt: null,
  state,
  success: false,
  progress: 0,
  user: null,
  userFirstName: null,
  destinations: [],
  createdAt: '2026-11-22T08:00:00.000Z',
  ...fields,
});

describe('pipeline list', () => {
  const list = [
    pipeline({ _id: '1', name: 'beta' }),
    pipeline({ _id: '2', name: 'Alpha' }),
    pipeline({ _id: '3', name: 'zeta master', isMaster: true }),
    pipeline({ _id: '4', name: 'gamma', brand: ref('b2') }),
    pipeline({ _id: '5', name: 'Aardvark master', isMaster: true }),
    pipeline({ _id: '6', name: 'hidden', isHidden: true }),
  ];

  it('lists masters first, then the others, each by name ignoring case', () => {
    expect(filterPipelines(list, { brand: null, locale: null, productLine: null, datakind: null }).map((p) => p.name)).toEqual([
      'Aardvark master',
      'zeta master',
      'Alpha',
      'beta',
      'gamma',
    ]);
  });

  it('keeps the pipelines matching every chosen attribute', () => {
    expect(filterPipelines(list, { brand: 'b2', locale: 'l1', productLine: null, datakind: null }).map((p) => p.name)).toEqual([
      'gamma',
    ]);
    expect(filterPipelines(list, { brand: null, locale: 'other', productLine: null, datakind: null })).toEqual([]);
  });

  it('shows versions to manager and super-admin, and country versions to admin too', () => {
    expect(seesVersions(['user'])).toBe(false);
    expect(seesVersions(['admin'])).toBe(false);
    expect(seesVersions(['manager'])).toBe(true);
    expect(seesVersions(['super-admin'])).toBe(true);
    expect(seesCountryVersions(['admin'])).toBe(true);
    expect(seesCountryVersions(['user'])).toBe(false);
  });
});

describe('step readiness', () => {
  const p = pipeline({
    _id: 'p',
    name: 'p',
    dataSources: [
      { dataSubKind: 'main', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: null },
      { dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: false, contentType: 'excel', dataModel: null },
      { dataSubKind: 'shared', connectorType: 'manual', dataFromMaster: true, contentType: 'csv', dataModel: null },
      { dataSubKind: 'feed', connectorType: 'real-time', dataFromMaster: false, contentType: 'json', dataModel: null },
    ],
  });
  const kinds = uploadSources(p).map((s) => s.dataSubKind);
  const upload = (id: string, dataSubKind: string, status: string, createdAt: string) => ({
    _id: id,
    pipelineId: 'p',
    from: 'source' as const,
    dataSubKind,
    status: status as UploadView['status'],
    createdAt,
    originalFilename: `${id}.csv`,
    contentType: 'text/csv',
    size: 1,
    rowCount: 1,
    importId: null,
    enabled: true,
    importedAt: null as string | null,
    importedBy: null as string | null,
    sentFrom: 'wizard' as const,
  });

  it('asks a file only for manual sources not taken from the master', () => {
    expect(kinds).toEqual(['main', 'prices']);
  });

  it('lets step 2 go on when each source has a chosen file or a valid last upload, and the pipeline can run', () => {
    const statuses = new Map([['prices', 'valid']]);
    expect(chooseStepReady(kinds, new Set(['main']), statuses, [])).toBe(true);
    expect(chooseStepReady(kinds, new Set(), statuses, [])).toBe(false);
    expect(chooseStepReady(kinds, new Set(['main']), new Map([['prices', 'invalid']]), [])).toBe(false);
    expect(chooseStepReady(kinds, new Set(['main', 'prices']), statuses, ['Brand'])).toBe(false);
  });

  it('is ready only when the newest upload of every source is valid, a live status winning over an older list', () => {
    const lists = [
      { dataSubKind: 'main', data: [upload('a', 'main', 'valid', '2026-11-22T08:00:00.000Z')] },
      { dataSubKind: 'prices', data: [upload('b', 'prices', 'valid', '2026-11-22T08:00:00.000Z')] },
    ];
    expect(sourcesReady(kinds, latestStatuses(lists, []))).toBe(true);
    const newer = [upload('c', 'main', 'processing', '2026-11-22T09:00:00.000Z')];
    expect(sourcesReady(kinds, latestStatuses(lists, newer))).toBe(false);
    const done = [upload('c', 'main', 'valid', '2026-11-22T09:00:00.000Z')];
    expect(sourcesReady(kinds, latestStatuses(lists, done))).toBe(true);
    const invalid = [upload('c', 'main', 'invalid', '2026-11-22T09:00:00.000Z')];
    expect(sourcesReady(kinds, latestStatuses(lists, invalid))).toBe(false);
    expect(sourcesReady(kinds, latestStatuses(lists.slice(0, 1), []))).toBe(false);
  });

  it('shows each followed upload as it is now: an upload found invalid after the list was loaded is invalid, not still checking', () => {
    const lists = [{ dataSubKind: 'main', data: [upload('a', 'main', 'processing', '2026-11-22T08:00:00.000Z')] }];
    const now = [{ _id: 'a', status: 'invalid' as const, enabled: true, importedAt: null, importedBy: null }];
    expect(withLiveUploads(lists, now)[0]?.data[0]?.status).toBe('invalid');
    const imported = [
      { _id: 'a', status: 'valid' as const, enabled: false, importedAt: '2026-11-22T10:00:00.000Z', importedBy: 'i1' },
    ];
    expect(withLiveUploads(lists, imported)[0]?.data[0]).toMatchObject({ enabled: false, importedBy: 'i1' });
    expect(withLiveUploads(lists, [])).toEqual(lists);
  });

  it('names the missing properties on step 2', () => {
    expect(missingPropertiesMessage(p, ['Brand', 'Locale'])).toBe(
      'Pipeline data sources main, prices, shared, feed cannot be run because of missing properties : Brand, Locale',
    );
  });

  it('goes back from step 4 to step 2 after uploads of this session, else to step 1, and wraps after the last', () => {
    expect(previousStep(3, true)).toBe(1);
    expect(previousStep(3, false)).toBe(0);
    expect(previousStep(2, false)).toBe(1);
    expect(nextStep(3)).toBe(4);
    expect(nextStep(4)).toBe(0);
  });

  it('blocks editing while an import runs or an immediate one is pending', () => {
    expect(editingBlockedReason(null, null)).toBeNull();
    expect(editingBlockedReason(imp('busy'), null)).toBe('Cannot edit the import. An import is already running.');
    expect(editingBlockedReason(imp('progress'), null)).toBe('Cannot edit the import. An import is already running.');
    expect(editingBlockedReason(imp('pending'), null)).toBe('Cannot edit the import. An immediate import is pending.');
    expect(editingBlockedReason(imp('pending', { jobKind: 'repeat', scheduledAt: '2026-12-01T08:00:00.000Z' }), null)).toBeNull();
    expect(editingBlockedReason(imp('done'), null)).toBeNull();
  });
});

describe('schedule', () => {
  const now = new Date(2026, 10, 22, 10, 0);

  it('needs a date and a time that are not past for Later', () => {
    const later = { ...DEFAULT_SCHEDULE, kind: 'scheduled' as const };
    expect(scheduleValid(later, ['manager'], now)).toBe(false);
    expect(scheduleValid({ ...later, date: '2026-11-23' }, ['manager'], now)).toBe(false);
    expect(scheduleValid({ ...later, date: '2026-11-23', time: '08:15' }, ['manager'], now)).toBe(true);
    expect(scheduleValid({ ...later, date: '2026-11-22', time: '09:00' }, ['manager'], now)).toBe(false);
    expect(scheduleValid({ ...DEFAULT_SCHEDULE }, ['user'], now)).toBe(true);
  });

  it('needs each repeat kind its own fields', () => {
    const repeat = { ...DEFAULT_SCHEDULE, kind: 'repeat' as const };
    expect(repeatPatternOf({ ...repeat, repeat: 'daily' })).toBeNull();
    expect(repeatPatternOf({ ...repeat, repeat: 'daily', time: '06:30' })).toBe('30 6 * * *');
    expect(repeatPatternOf({ ...repeat, repeat: 'weekly', time: '06:30' })).toBeNull();
    expect(repeatPatternOf({ ...repeat, repeat: 'weekly', time: '06:30', weekday: 'fri' })).toBe('30 6 * * fri');
    expect(repeatPatternOf({ ...repeat, repeat: 'monthly', time: '23:45' })).toBeNull();
    expect(repeatPatternOf({ ...repeat, repeat: 'monthly', time: '23:45', day: 31 })).toBe('45 23 31 * *');
    expect(repeatPatternOf({ ...repeat, repeat: 'hourly' })).toBeNull();
    expect(repeatPatternOf({ ...repeat, repeat: 'hourly', hours: 4 })).toBe('H 4');
    expect(repeatPatternOf({ ...repeat, repeat: 'minutely', minutes: 15 })).toBe('M 15');
  });

  it('refuses Repeat to the role user', () => {
    const repeat = { ...DEFAULT_SCHEDULE, kind: 'repeat' as const, repeat: 'hourly' as const, hours: 2 };
    expect(scheduleValid(repeat, ['manager'], now)).toBe(true);
    expect(scheduleValid(repeat, ['user'], now)).toBe(false);
  });

  it('sends only the fields of the chosen kind, with the time zone', () => {
    const form = {
      ...DEFAULT_SCHEDULE,
      kind: 'repeat' as const,
      repeat: 'weekly' as const,
      time: '07:05',
      weekday: 'mon' as const,
    };
    expect(schedulePayload(form, 'Europe/Paris')).toEqual({
      kind: 'repeat',
      scheduledDate: null,
      scheduledTime: null,
      repeatPattern: '5 7 * * mon',
      restartOnError: false,
      listPipelines: [],
      timezone: 'Europe/Paris',
    });
    expect(schedulePayload({ ...form, kind: 'immediate' }, 'UTC').repeatPattern).toBe('');
  });

  it('fills the form from an existing job', () => {
    const job = (importData: Partial<ScheduledJob['importData']>): ScheduledJob => ({
      _id: 'j',
      pipeline: null,
      scheduledBy: null,
      lastExecuted: null,
      nextImport: null,
      jobKind: 'repeat',
      state: 'active',
      repeatPattern: '',
      createdAt: '',
      importData: {
        kind: 'repeat',
        scheduledDate: null,
        scheduledTime: null,
        repeatPattern: '',
        restartOnError: false,
        listPipelines: [],
        timezone: 'UTC',
        ...importData,
      },
    });
    expect(formOfJob(job({ repeatPattern: '0 8 15 * *' }))).toMatchObject({
      kind: 'repeat',
      repeat: 'monthly',
      day: 15,
      time: '08:00',
    });
    expect(formOfJob(job({ kind: 'scheduled', scheduledDate: '2026-12-01', scheduledTime: '10:30' }))).toMatchObject({
      kind: 'scheduled',
      date: '2026-12-01',
      time: '10:30',
    });
  });
});

describe('runUploads', () => {
  const u = (id: string, status: string, enabled = true) => ({
    _id: id,
    pipelineId: 'p',
    from: 'source' as const,
    dataSubKind: 'main',
    status: status as 'valid',
    createdAt: '2026-11-22T08:00:00.000Z',
    originalFilename: `${id}.csv`,
    contentType: 'text/csv',
    size: 1,
    rowCount: 1,
    importId: null,
    enabled,
    importedAt: null,
    importedBy: null,
    sentFrom: 'wizard' as const,
  });

  it('takes every enabled valid upload of the source, a live status winning over the list', () => {
    const lists = [
      { dataSubKind: 'main', data: [u('a', 'processing'), u('b', 'valid'), u('c', 'valid', false), u('d', 'invalid')] },
    ];
    expect(runUploads('main', lists).map((x) => x._id)).toEqual(['b']);
    const live = withLiveUploads(lists, [{ ...u('a', 'valid'), importedAt: null, importedBy: null }]);
    expect(runUploads('main', live).map((x) => x._id)).toEqual(['a', 'b']);
    expect(runUploads('other', lists)).toEqual([]);
  });
});

describe('nextBlockedReason', () => {
  const base: NextState = {
    step: 1,
    pipeline: undefined,
    missing: [],
    kinds: ['main'],
    chosen: new Set(),
    statuses: new Map([['main', 'valid']]),
    blocked: null,
    jobLoaded: true,
    schedule: DEFAULT_SCHEDULE,
    roles: ['user'],
  };
  const p = pipeline({ _id: 'p1', name: 'Country A' });

  it('says why each step cannot go on, and nothing when it can', () => {
    expect(nextBlockedReason({ ...base, step: 0 })).toBe('Choose a pipeline first.');
    expect(nextBlockedReason({ ...base, step: 0, pipeline: p })).toBeNull();
    expect(nextBlockedReason({ ...base, pipeline: p, missing: ['Brand'] })).toBe('The pipeline cannot run: missing Brand.');
    expect(nextBlockedReason({ ...base, pipeline: p, statuses: new Map([['main', 'invalid']]) })).toBe(
      'Choose a file for main: its newest upload is not valid.',
    );
    expect(nextBlockedReason({ ...base, step: 2, pipeline: p, statuses: new Map([['main', 'processing']]) })).toBe(
      'Waiting for the check of main.',
    );
    expect(
      nextBlockedReason({ ...base, step: 3, pipeline: p, blocked: 'Cannot edit the import. An import is already running.' }),
    ).toBe('The import cannot be planned now. Cannot edit the import. An import is already running.');
    expect(nextBlockedReason({ ...base, step: 3, pipeline: p, schedule: { ...DEFAULT_SCHEDULE, kind: 'scheduled' } })).toBe(
      'Choose a date and a time to come for Later.',
    );
    expect(nextBlockedReason({ ...base, step: 3, pipeline: p })).toBeNull();
  });
});
