/**
 * What the upload, import and folder calls throw when they return nothing (docs/product.md §5.3), word for
 * word. Calls the screens do not make yet (upload statuses by id, import ids of a pipeline, the
 * folder tree and folder creation, all pipelines) keep their text here for when they do.
 */
export const CALL_FAILURES = {
  userPipelines: 'no valid data',
  uploadFiles: 'error while uploading files',
  uploadStatuses: 'error while fetching uploads statuses',
  lastUploads: 'error while fetching last upload files',
  deleteImport: 'error while deleting import',
  importIds: 'error while fetching importIds for the selected pipeline',
  allImports: 'error while fetching all imports',
  folderTree: 'error while fetching folder tree',
  createFolder: 'cannot create folder',
  exportUploads: 'cannot export selected uploads',
  allPipelines: 'cannot fetch the all pipelines',
} as const;
