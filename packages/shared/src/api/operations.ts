import { type ApiRouteKey, versionRouteKeys } from './access.ts';

/** Error statuses a service can answer on its own, beyond what the route's policy and input schema imply. */
export type ServiceError = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 502 | 503;

/** How an API route presents itself in the API description. */
export interface ApiOperation {
  /** Stable name a generated client calls the operation by; never renamed once published. */
  operationId: string;
  /** One line: what the operation does for its caller. */
  summary: string;
  /** What the success answer holds. */
  returns: string;
  /**
   * Errors the service can answer. 401 (signed-in routes), 403 (role lists that leave a role out)
   * and 422 (routes with input) are derived from the access table and the route's schema.
   */
  errors?: readonly ServiceError[];
  /** A multipart body the handler reads itself: its text fields and what its file parts are, each described. */
  form?: { fields: Readonly<Record<string, string>>; files: string };
}

/** The version calls of a kind (docs/product.md §18.1): `Kind` names the operations, `what` the document in their summaries. */
function versionOperations<P extends string>(path: P, Kind: string, what: string) {
  const operations: Record<string, ApiOperation> = {
    'GET version': {
      operationId: `list${Kind}Versions`,
      summary: `Read the version graph of a ${what}'s family`,
      returns: 'Every version of the family: number, lock, parents, last update.',
      errors: [404],
    },
    'POST version/lock': {
      operationId: `lock${Kind}Version`,
      summary: `Lock a version of a ${what}; with force, lock the drafts it depends on too`,
      returns: 'The versions locked.',
      errors: [403, 404, 409],
    },
    'POST version/new': {
      operationId: `new${Kind}Version`,
      summary: `Make a new draft version of a ${what} from a version`,
      returns: 'The new version.',
      errors: [403, 404, 409],
    },
    'POST version/delete': {
      operationId: `delete${Kind}Version`,
      summary: `Delete a draft version of a ${what} nothing points at`,
      returns: 'The deleted version and the one to open next.',
      errors: [403, 404, 409],
    },
    'GET version/compute': {
      operationId: `compute${Kind}Update`,
      summary: `Report which dependencies of a ${what} version have newer versions`,
      returns: 'The update report.',
      errors: [404],
    },
    'POST version/update': {
      operationId: `update${Kind}Version`,
      summary: `Make new versions of a ${what} and what it depends on, pointing at the chosen newer dependencies`,
      returns: 'The new versions made, the asked one last.',
      errors: [400, 403, 404, 409],
    },
  };
  return versionRouteKeys(path, (call) => operations[call] as ApiOperation);
}

/**
 * Every API route, keyed like `API_ACCESS`, with the id, summary and answers the API description
 * publishes. A route missing here fails the type check and the description's test.
 */
export const API_OPERATIONS = {
  'GET /healthz': { operationId: 'getLiveness', summary: 'Tell whether the process answers', returns: 'Always ok.' },
  'GET /readyz': {
    operationId: 'getReadiness',
    summary: 'Tell whether the server can serve requests (its database answers)',
    returns: 'ok when the database answers.',
  },
  'POST /users/login': {
    operationId: 'login',
    summary: 'Sign in with a user name and password',
    returns: 'The session tokens, or the second factor to ask for.',
    errors: [401, 429],
  },
  'POST /users/refresh-token': {
    operationId: 'refreshToken',
    summary: 'Exchange a refresh token for a new access token',
    returns: 'The new tokens.',
    errors: [401],
  },
  'POST /users/logout': { operationId: 'logout', summary: 'End the current session', returns: 'No data.' },
  'GET /users/info': {
    operationId: 'getCurrentUser',
    summary: 'Read the signed-in user, their roles and settings',
    returns: 'The signed-in user and the file types uploads accept.',
    errors: [404],
  },
  'POST /users/tfa': {
    operationId: 'verifyTwoFactor',
    summary: 'Complete a sign-in with the second-factor code',
    returns: 'The session tokens and, at enrolment, the recovery codes.',
    errors: [401, 429],
  },
  'POST /users/create-password': {
    operationId: 'createPassword',
    summary: 'Set a password with the token sent by email',
    returns: 'No data; the message confirms the password is set.',
    errors: [400],
  },
  'POST /users/forgotten': {
    operationId: 'requestPasswordReset',
    summary: 'Ask for a password-reset email',
    returns: 'No data; the message says an email is on its way if the address is known.',
    errors: [429],
  },
  'GET /users': {
    operationId: 'listUsers',
    summary: 'List the users the caller administers, optionally filtered by a search text',
    returns: 'The users.',
  },
  'POST /users': {
    operationId: 'saveUser',
    summary: 'Create a user, or update one when `_id` is given',
    returns: 'The saved user.',
    errors: [404, 409, 502],
  },
  'POST /users/toggle': {
    operationId: 'toggleUsers',
    summary: 'Activate or deactivate users',
    returns: 'The ids of the changed users.',
    errors: [404],
  },
  'DELETE /users': {
    operationId: 'deleteUsers',
    summary: 'Delete users',
    returns: 'The ids of the deleted users.',
    errors: [404],
  },
  'POST /users/reset-password': {
    operationId: 'resetUserPassword',
    summary: "Reset a user's password and email them a link to choose a new one",
    returns: 'No data.',
    errors: [404, 502],
  },
  'POST /users/reset-tfa': {
    operationId: 'resetUserTwoFactor',
    summary: "Reset a user's second factor so they enrol again at their next sign-in",
    returns: 'No data.',
    errors: [404],
  },
  'GET /users/pipelinesFor': {
    operationId: 'getUserPipelines',
    summary: 'Read the pipelines a user works on and those that can be given to them',
    returns: 'The pipelines the user works on and those that can be given to them.',
    errors: [404],
  },
  'GET /tags/list': { operationId: 'listBadges', summary: 'List the global badges', returns: 'The badges.' },
  'GET /tags/cache-reload': {
    operationId: 'reloadBadges',
    summary: 'Reload the global badges from the database and list them',
    returns: 'The badges.',
  },
  'POST /tags': {
    operationId: 'saveBadge',
    summary: 'Create a global badge, or rename one when `_id` is given',
    returns: 'The saved badge.',
    errors: [404, 409],
  },
  'DELETE /tags': { operationId: 'deleteBadges', summary: 'Delete global badges', returns: 'The ids of the deleted badges.' },
  'POST /tags/update-document-tags': {
    operationId: 'updateDocumentBadges',
    summary: 'Set the read, write and metadata badges of a folder or of a document (every version of it)',
    returns: 'The badges as stored and how many versions took them.',
    errors: [403, 404],
  },
  'GET /folders/tree': {
    operationId: 'readFolderTree',
    summary: 'Read the explorer tree of a kind: its root folder with the folders and documents the caller may read',
    returns: 'The root node; folders first, then documents grouped by family with their versions.',
    errors: [403],
  },
  'POST /folders': {
    operationId: 'createFolder',
    summary: 'Create a folder (a name taken under the parent gets a number in brackets)',
    returns: 'The folder created.',
    errors: [400, 403, 404],
  },
  'DELETE /folders': {
    operationId: 'deleteFolder',
    summary: 'Delete a folder other than a root, with the folders and documents below it when asked',
    returns: 'The ids of the folders deleted and how many document versions went with them.',
    errors: [403, 404, 409],
  },
  'POST /folders/rename': {
    operationId: 'renameFolder',
    summary: 'Rename a folder other than a root (a name taken by a sibling gets a number in brackets)',
    returns: 'The folder renamed.',
    errors: [403, 404],
  },
  'POST /folders/reparent': {
    operationId: 'moveFolder',
    summary: 'Move a folder other than a root into another folder of its kind, never below itself',
    returns: 'The folder moved.',
    errors: [400, 403, 404],
  },
  ...documentMoveOperations(),
  'POST /uploads': {
    operationId: 'uploadFiles',
    summary: "Upload data files (multipart) to a pipeline's data sources; each is checked in the background",
    returns: 'The ids of the stored uploads; each is checked in the background (see GET /uploads/status).',
    errors: [403, 404, 413, 422, 503],
    form: {
      fields: { pipelineId: 'The id of the pipeline the files go to.' },
      files: 'One file per data source, its part named by the data source (its dataSubKind); up to 20 files of 20 MiB.',
    },
  },
  'GET /uploads/status': {
    operationId: 'getUploadStatuses',
    summary: 'Read the check state of uploads',
    returns: 'The uploads the caller may read, with their check state.',
  },
  'GET /uploads/last': {
    operationId: 'getLastUploads',
    summary: 'List the latest uploads of one data source of a pipeline',
    returns: 'The uploads, newest first.',
    errors: [403, 404],
  },
  'GET /uploads/last-all': {
    operationId: 'getLastUploadsOfPipeline',
    summary: 'List the latest uploads of every data source of a pipeline',
    returns: 'The latest uploads, grouped by data source.',
    errors: [403, 404],
  },
  'POST /uploads/disable': {
    operationId: 'setUploadEnabled',
    summary: 'Enable or disable an upload for the next imports',
    returns: 'The changed upload.',
    errors: [404],
  },
  'POST /uploads/realtime': {
    operationId: 'fetchRealtimeData',
    summary: "Fetch a pipeline's real-time data sources now",
    returns: 'The ids of the uploads made.',
    errors: [403, 404, 422, 502],
  },
  'GET /uploads/column-mappings': {
    operationId: 'getColumnMappings',
    summary: "Read the column mappings stored for a pipeline's data source, one per file header met",
    returns:
      "The data model's fields (name, title, alternate names, required) and the mappings, newest first: each header's signature and its columns with the field each goes to (null: ignored).",
    errors: [403, 404],
  },
  'POST /uploads/column-mappings': {
    operationId: 'putColumnMapping',
    summary: "Store the column mapping of a file header for a pipeline's data source; files with that header are mapped by it",
    returns: 'The stored mapping.',
    errors: [400, 403, 404],
  },
  'POST /uploads/file-head': {
    operationId: 'readFileHead',
    summary:
      "Read a chosen file's header and first values as its check would (a workbook's sheet and header row, dates and numbers as the check sees them), for mapping its columns; nothing is stored",
    returns:
      "The header's column names (trimmed, nameless columns left out) and, per column, its first non-empty values (up to 3).",
    errors: [403, 404, 413, 422, 503],
    form: {
      fields: {
        pipelineId: 'The id of the pipeline the file is chosen for (sent before the file).',
        dataSubKind:
          'The data source the file is chosen for: one taking uploads of CSV files or workbooks (sent before the file).',
      },
      files: 'One file of up to 20 MiB.',
    },
  },
  'POST /uploads/export': {
    operationId: 'exportUploads',
    summary: 'Download uploads or output files: one file as it is, several in a zip',
    returns: 'The file, as an attachment.',
    errors: [404],
  },
  'GET /uploads/outputs': {
    operationId: 'listOutputFiles',
    summary: "List a pipeline's output files that finished imports wrote",
    returns: 'The output files.',
    errors: [403, 404],
  },
  'GET /uploads/:id/review': {
    operationId: 'reviewUpload',
    summary: "Read a page of an upload's rows with their problems: those with a problem first, filtered by column and problem",
    returns: 'The page of rows, the counts of rows and problems, the problem kinds.',
    errors: [403, 404, 409, 422],
  },
  'POST /uploads/:id/corrections': {
    operationId: 'correctUploadRows',
    summary: "Correct cells of an upload's rows, remove or keep rows; only those rows are checked again",
    returns: 'Each row changed with its problems now, and the counts.',
    errors: [403, 404, 409, 422],
  },
  'POST /uploads/:id/submit': {
    operationId: 'submitCorrectedFile',
    summary: 'Make a new upload of the same data source from the file and its corrections, checked as any upload',
    returns: 'The id of the new upload, linked to the one it corrects.',
    errors: [403, 404, 409, 413, 422],
  },
  'GET /uploads/:id/problems': {
    operationId: 'downloadUploadProblems',
    summary: 'Download the rows with a problem as CSV or XLSX, with a problem column',
    returns: 'The file, as an attachment.',
    errors: [403, 404, 409, 422],
  },
  'GET /activity': {
    operationId: 'listActivity',
    summary: 'Read the activity record: corrections of uploads, document saves, locks and deletes, role and badge changes',
    returns: 'A page of entries, newest first, and how many the filters keep.',
  },
  'GET /activity/export': {
    operationId: 'exportActivity',
    summary: 'Download the activity record the filters keep as CSV',
    returns: 'The file, as an attachment.',
  },
  'GET /logs/uploads': {
    operationId: 'getUploadLogs',
    summary: 'Read the check logs of uploads, oldest first',
    returns: 'The log lines.',
  },
  'GET /logs/jobs': {
    operationId: 'getImportLogs',
    summary: 'Read the logs of an import, oldest first',
    returns: 'The log lines.',
    errors: [403, 404],
  },
  'POST /imports': {
    operationId: 'createImport',
    summary: "Start an import of a pipeline's valid uploads now, or schedule it for later or to repeat",
    returns: 'The ids of the job created and of its import when it runs now.',
    errors: [403, 404, 409],
  },
  'POST /imports/runAllImport': {
    operationId: 'runAllImport',
    summary: 'Start an import of every enabled valid upload of a pipeline now',
    returns: 'The ids of the job created and of its import.',
    errors: [403, 404, 409],
  },
  'POST /imports/job': {
    operationId: 'editImportJob',
    summary: 'Change the schedule of an import job',
    returns: 'The ids of the job and of its import when it runs now.',
    errors: [403, 404, 409],
  },
  'GET /imports/job': {
    operationId: 'getImportJob',
    summary: "Read a pipeline's scheduled import job, if any",
    returns: "The pipeline's latest import, the caller's job and the other users' jobs.",
    errors: [403, 404],
  },
  'DELETE /imports': {
    operationId: 'deleteImport',
    summary: 'Delete an import that is not running, with its logs and outputs',
    returns: 'No data.',
    errors: [403, 404, 409],
  },
  'GET /imports/pipeline': {
    operationId: 'listPipelineImports',
    summary: 'List the imports of a pipeline',
    returns: 'The ids of the imports.',
    errors: [403, 404],
  },
  'GET /imports/listScheduled': {
    operationId: 'listScheduledJobs',
    summary: 'List the scheduled import jobs the caller may see',
    returns: 'The repeating and the scheduled jobs, with their imports.',
  },
  'DELETE /imports/job': {
    operationId: 'deleteImportJob',
    summary: 'Cancel a scheduled import job',
    returns: 'No data.',
    errors: [403, 404, 409],
  },
  'GET /imports/listAll': {
    operationId: 'listImports',
    summary: 'List imports across pipelines, filtered and paged (the logbook)',
    returns: 'A page of imports with the total count.',
  },
  'GET /imports/listAllFilters': {
    operationId: 'getImportFilters',
    summary: "List the values the logbook's filters offer",
    returns: 'The filter values.',
  },
  'POST /imports/abort': {
    operationId: 'abortImport',
    summary: 'Abort a pending or running import',
    returns: 'The import id and its new state.',
    errors: [404, 409],
  },
  'POST /imports/abort-all': {
    operationId: 'abortAllImports',
    summary: 'Abort every pending or running import',
    returns: 'true once every import is asked to stop.',
  },
  'GET /locales/list': { operationId: 'listLocales', summary: 'List the locales', returns: 'The locales.' },
  'GET /brands/list': { operationId: 'listBrands', summary: 'List the brands', returns: 'The brands.' },
  'GET /productlines/list': { operationId: 'listProductLines', summary: 'List the product lines', returns: 'The product lines.' },
  'GET /datakinds/list': { operationId: 'listDataKinds', summary: 'List the data kinds', returns: 'The data kinds.' },
  'GET /pipelines': {
    operationId: 'listPipelines',
    summary: 'List every pipeline the caller administers',
    returns: 'The pipelines.',
  },
  'GET /pipelines/id': {
    operationId: 'getPipeline',
    summary: 'Read one pipeline the caller may work on',
    returns: 'The pipeline.',
    errors: [403, 404],
  },
  'GET /pipelines/masters': {
    operationId: 'listMasterPipelines',
    summary: 'List the master pipelines the caller may work on',
    returns: 'The master pipelines.',
  },
  'GET /pipelines/pipelinesOfMaster': {
    operationId: 'listCountryPipelines',
    summary: 'List the country pipelines of a master pipeline the caller may work on',
    returns: 'The country pipelines.',
    errors: [404],
  },
  'POST /pipelines': {
    operationId: 'savePipeline',
    summary: 'Create a pipeline, or save a draft pipeline version read at its sys_version',
    returns: 'The pipeline as saved.',
    errors: [400, 403, 404, 409],
  },
  'DELETE /pipelines': {
    operationId: 'deletePipeline',
    summary: 'Delete a draft pipeline version and, for a master, the country pipelines whose master it is',
    returns: 'The id asked and the ids of the versions deleted.',
    errors: [403, 404, 409],
  },
  'GET /users/pipelines': {
    operationId: 'getMyPipelines',
    summary: "List the caller's pipelines with the reference lists they use",
    returns: 'The pipelines and the locales, brands, data kinds and product lines.',
  },
  'GET /components/find': {
    operationId: 'findComponent',
    summary: 'Read a component (latest version) by id',
    returns: 'The component.',
    errors: [404],
  },
  'GET /components/list': {
    operationId: 'listComponents',
    summary: 'List the components (latest versions)',
    returns: 'The components without their code.',
  },
  'GET /components': {
    operationId: 'getComponents',
    summary: 'Read several components by id',
    returns: 'The components.',
  },
  'POST /components': {
    operationId: 'saveComponent',
    summary: 'Create a component, or save a new version of one',
    returns: 'The saved component.',
    errors: [400, 404, 409],
  },
  'DELETE /components': {
    operationId: 'deleteComponent',
    summary: 'Delete a component no pipeline or component uses',
    returns: 'The id of the deleted component.',
    errors: [404, 409],
  },
  'GET /components/documentation': {
    operationId: 'getComponentsDocumentation',
    summary: 'List the SDK functions a component may call, with their documentation',
    returns: 'The SDK functions.',
  },
  'POST /components/:id/execute': {
    operationId: 'executeComponent',
    summary: 'Test-run a component on sample input',
    returns: 'The output, the logs and the run context of the test run.',
    errors: [404, 409, 429],
  },
  'GET /components/:id/js-code': {
    operationId: 'getComponentCode',
    summary: 'Read the JavaScript compiled from a component graph',
    returns: 'The code.',
    errors: [404],
  },
  'POST /components/:id/generate': {
    operationId: 'generateComponentCode',
    summary: 'Compile a component graph to JavaScript again, ignoring the cache',
    returns: 'The code.',
    errors: [404],
  },
  'POST /components/:id/stop': {
    operationId: 'stopComponentTest',
    summary: "Stop the caller's test run of a component",
    returns: 'Whether a run was stopped.',
  },
  'GET /components/:id/dependencies': {
    operationId: 'getComponentHierarchy',
    summary: 'Read the dependency hierarchy of a component version: what it runs, what runs it, the pipelines invoking them',
    returns:
      'The components (key, name, class_name, version, vLocked, type, sources), pipelines, dependencies, bottomComponents and the key asked.',
    errors: [404],
  },
  'GET /components/usages': {
    operationId: 'getComponentUsages',
    summary: 'List the components and pipelines that use a component version',
    returns: 'Each user: name, version and the address the editor opens it at.',
    errors: [404],
  },
  'POST /components/test-file': {
    operationId: 'readComponentTestFile',
    summary:
      "Read a test file's rows for the component editor's 'Load ...' dialog (CSV, XLSX, XLS or JSON as multipart/form-data)",
    returns: 'The rows as JSON, with the fields and the format read.',
    errors: [413, 422, 503],
    form: {
      fields: {},
      files: 'One file, at most 20 MiB: CSV, XLSX or XLS (its first visible sheet) or JSON.',
    },
  },
  ...versionOperations('/components', 'Component', 'component'),
  'GET /sdk': { operationId: 'listSdkFunctions', summary: 'List the SDK functions', returns: 'The SDK functions.' },
  'GET /sdk/find': {
    operationId: 'findSdkFunction',
    summary: 'Read an SDK function by id',
    returns: 'The SDK function.',
    errors: [404],
  },
  'POST /sdk': {
    operationId: 'saveSdkFunction',
    summary: 'Create an SDK function, or save a new version of one',
    returns: 'The saved SDK function.',
    errors: [404, 409],
  },
  'DELETE /sdk': {
    operationId: 'deleteSdkFunction',
    summary: 'Delete an SDK function no component uses',
    returns: 'The id of the deleted SDK function.',
    errors: [404, 409],
  },
  'POST /sdk/:name/execute': {
    operationId: 'executeSdkFunction',
    summary: 'Test-run an SDK function on sample arguments',
    returns: 'The result and the logs of the test run.',
    errors: [404, 409, 429],
  },
  'GET /sdk/explorer': {
    operationId: 'getSdkExplorer',
    summary: 'Read the explorer tree of the SDK functions the caller may read',
    returns: 'The folders and SDK functions as tree nodes with their versions.',
  },
  'GET /sdk/vulnerabilities': {
    operationId: 'getSdkVulnerabilities',
    summary: "Match an SDK function version's npm modules against the operator's OSV advisory set (read again with refresh)",
    returns: 'The vulnerable packages with their advisories, or why no advisory data could be read.',
    errors: [404],
  },
  'GET /sdk/usages': {
    operationId: 'getSdkUsages',
    summary: 'List the component versions that call an SDK function version',
    returns: 'Each component: name, version and the address the editor opens it at.',
    errors: [404],
  },
  ...versionOperations('/sdk', 'SdkFunction', 'SDK function'),
  'POST /pipelines/publish-endpoint': {
    operationId: 'publishEndpoint',
    summary:
      'Publish a pipeline with an endpoint data source at a path below the runtime base URL, or publish it again with a new key',
    returns: 'The endpoint with its key, shown only in this answer.',
    errors: [400, 403, 404, 409],
  },
  'GET /pipelines/get-runtime-api-url': {
    operationId: 'getRuntimeApiUrl',
    summary: 'Read the runtime base URL endpoints are served below',
    returns: 'The URL.',
  },
  'GET /pipelines/deployed-endpoint': {
    operationId: 'listEndpoints',
    summary: 'List the published endpoints whose pipelines the caller may read',
    returns: 'The endpoints, with their pipelines and exposed routes.',
  },
  'GET /pipelines/deployed-endpoint/:id': {
    operationId: 'getEndpoint',
    summary: 'Read a published endpoint by its id or its pipeline id',
    returns: 'The endpoint.',
    errors: [403, 404],
  },
  'GET /pipelines/deployed-endpoint/:id/openapi': {
    operationId: 'getEndpointOpenApi',
    summary: "Read the OpenAPI 3.1 document of a published endpoint (the publish panel's 'View OpenAPI')",
    returns: 'The OpenAPI document, built from the data source and its data model.',
    errors: [403, 404],
  },
  'DELETE /pipelines/deployed-endpoint': {
    operationId: 'unpublishEndpoint',
    summary: 'Un-publish an endpoint: its key stops working at once',
    returns: 'The id of the endpoint removed.',
    errors: [403, 404],
  },
  'POST /pipelines/publish-listener': {
    operationId: 'publishListener',
    summary:
      'Publish a pipeline with a listener data source: every server instance consumes its queue, topic or subject; a re-publish restarts it',
    returns: 'The listener, its password answered as a placeholder.',
    errors: [400, 403, 404],
  },
  'GET /pipelines/deployed-listener': {
    operationId: 'listListeners',
    summary: 'List the published listeners whose pipelines the caller may read, with the state each server instance reports',
    returns: 'The listeners, with their pipelines and per-host states.',
  },
  'GET /pipelines/deployed-listener/:id': {
    operationId: 'getListener',
    summary: 'Read a published listener by its id or its pipeline id',
    returns: 'The listener.',
    errors: [403, 404],
  },
  'DELETE /pipelines/deployed-listener': {
    operationId: 'unpublishListener',
    summary: 'Un-publish a listener: every server instance stops consuming',
    returns: 'The id of the listener removed.',
    errors: [403, 404],
  },
  ...versionOperations('/pipelines', 'Pipeline', 'pipeline'),
  'POST /pipelines/version/lock': {
    operationId: 'lockPipelineVersion',
    summary:
      'Lock a version of a pipeline; with force, lock the drafts it depends on too; with country, lock the country pipelines of a master too',
    returns: 'The versions locked.',
    errors: [403, 404, 409],
  },
  'GET /pipelines/version/compute': {
    operationId: 'computePipelineUpdate',
    summary: 'Report which dependencies of a pipeline version have newer versions, its country pipelines and its jobs',
    returns: 'The update report, with the country pipelines of a master and the scheduled and repeat jobs.',
    errors: [404],
  },
  'POST /pipelines/version/update': {
    operationId: 'updatePipelineVersion',
    summary:
      'Make new versions of a pipeline and what it depends on, pointing at the chosen newer dependencies; its country pipelines and jobs may follow',
    returns: 'The new versions made, the jobs moved and the country pipelines left as they were.',
    errors: [400, 403, 404, 409],
  },
  'GET /pipelines/version/mass-compute': {
    operationId: 'listPipelinesToUpdateOrLock',
    summary: 'List the pipelines that can be updated (with their reports) or locked now, masters and countries apart',
    returns: 'The master and country pipelines, and the pipelines whose report failed.',
  },
  'POST /pipelines/version/mass-lock': {
    operationId: 'lockPipelineVersions',
    summary: 'Lock pipeline versions one after the other',
    returns: 'The pipelines locked and those refused, with the reason.',
  },
  'POST /pipelines/version/mass-update': {
    operationId: 'updatePipelineVersions',
    summary: 'Apply pipeline update payloads one after the other',
    returns: 'The new versions made, the jobs moved and the pipelines refused, with the reason.',
  },
  'GET /schemas/byname': {
    operationId: 'getSchemaByName',
    summary: 'Read the data model of a name (its newest locked version, else its newest)',
    returns: 'The id, name, version and JSON schema.',
    errors: [404],
  },
  'GET /schemas': {
    operationId: 'getSchemas',
    summary: 'Read several data model versions by id',
    returns: 'The versions found, in the order asked.',
  },
  'GET /schemas/find': {
    operationId: 'findSchema',
    summary: 'Read a data model version by id',
    returns: 'The data model.',
    errors: [404],
  },
  'GET /schemas/list': {
    operationId: 'listSchemas',
    summary: 'List every data model version for pickers, by name',
    returns: 'The versions without their JSON schema.',
  },
  'POST /schemas': {
    operationId: 'saveSchema',
    summary: 'Create a data model, or save a draft with the save counter it was read at',
    returns: 'The saved data model.',
    errors: [400, 403, 404, 409],
  },
  'DELETE /schemas': {
    operationId: 'deleteSchema',
    summary: 'Delete a draft data model version nothing points at',
    returns: 'The id of the deleted version.',
    errors: [403, 404, 409],
  },
  'POST /schemas/cache-clear': {
    operationId: 'clearSchemaCache',
    summary: "Empty this server's cache of locked data model versions",
    returns: 'How many versions the cache held.',
  },
  'POST /schemas/generate': {
    operationId: 'generateSchema',
    summary: 'Infer data models from example files (CSV, XLSX, XLS, XML, JSON) sent as multipart/form-data',
    returns: 'One data model per file, in their order.',
    errors: [413, 422, 503],
  },
  ...versionOperations('/schemas', 'Schema', 'data model'),
} as const satisfies Record<ApiRouteKey, ApiOperation>;

/** POST /{kind}/reparent: a document, every version of it, moves into a folder of its kind. */
function documentMoveOperations() {
  const kinds = [
    ['/schemas', 'Schema', 'data model'],
    ['/components', 'Component', 'component'],
    ['/pipelines', 'Pipeline', 'pipeline'],
    ['/sdk', 'SdkFunction', 'SDK function'],
  ] as const;
  const entry = (Kind: string, what: string): ApiOperation => ({
    operationId: `move${Kind}`,
    summary: `Move a ${what}, every version of it, into a folder`,
    returns: 'The version asked and the folder it is now in.',
    errors: [400, 403, 404],
  });
  return Object.fromEntries(kinds.map(([path, Kind, what]) => [`POST ${path}/reparent`, entry(Kind, what)])) as Record<
    `POST ${(typeof kinds)[number][0]}/reparent`,
    ApiOperation
  >;
}

/** The operation of a route key, or undefined when the table has none. */
export function operationOf(key: string): ApiOperation | undefined {
  return (API_OPERATIONS as Record<string, ApiOperation>)[key];
}
