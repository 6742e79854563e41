import type { Migration } from 'kysely';
import * as foundation from './20261122T0600_foundation.ts';
import * as pipelinesUploadsImports from './20261122T0700_pipelines_uploads_imports.ts';
import * as fileBlobs from './20261122T0710_file_blobs.ts';
import * as uploadRows from './20261122T0720_upload_rows.ts';
import * as componentsSdkSchemas from './20261122T0800_components_sdk_schemas.ts';
import * as liveTriggers from './20261122T0810_live_triggers.ts';
import * as accounts from './20261122T0820_accounts.ts';
import * as importsJobs from './20261122T0900_imports_jobs.ts';
import * as jobTimezone from './20261122T0910_job_timezone.ts';
import * as fileBlobsUncompressed from './20261123T0900_file_blobs_uncompressed.ts';
import * as fileBlobParts from './20261123T2000_file_blob_parts.ts';
import * as jobsOneSchedulePerKind from './20261125T1400_jobs_one_schedule_per_kind.ts';
import * as uploadsUnfinishedIdx from './20261125T1700_uploads_unfinished_idx.ts';
import * as systemSchemas from './20261125T1900_system_schemas.ts';
import * as folders from './20261125T1910_folders.ts';
import * as usersAccessNotify from './20261125T2100_users_access_notify.ts';
import * as schemasKeepKeyOrder from './20261125T2200_schemas_keep_key_order.ts';
import * as logsLiveBatched from './20261126T0900_logs_live_batched.ts';
import * as foldersNotify from './20261126T1300_folders_notify.ts';
import * as uploadsImported from './20261206T0900_uploads_imported.ts';
import * as endpointModels from './20261206T1400_endpoint_models.ts';
import * as endpoints from './20261206T1410_endpoints.ts';
import * as listenerModels from './20261206T1500_listener_models.ts';
import * as listeners from './20261206T1510_listeners.ts';
import * as testRuns from './20261206T1600_test_runs.ts';
import * as uploadCorrections from './20261206T1700_upload_corrections.ts';
import * as activity from './20261206T1710_activity.ts';
import * as columnMappings from './20261206T1720_column_mappings.ts';
import * as testRunsSdk from './20261206T1800_test_runs_sdk.ts';

/** Every migration by its timestamped name; the Migrator runs them in name order. */
export const migrations: Record<string, Migration> = {
  '20261122T0600_foundation': foundation,
  '20261122T0700_pipelines_uploads_imports': pipelinesUploadsImports,
  '20261122T0710_file_blobs': fileBlobs,
  '20261122T0720_upload_rows': uploadRows,
  '20261122T0800_components_sdk_schemas': componentsSdkSchemas,
  '20261122T0810_live_triggers': liveTriggers,
  '20261122T0820_accounts': accounts,
  '20261122T0900_imports_jobs': importsJobs,
  '20261122T0910_job_timezone': jobTimezone,
  '20261123T0900_file_blobs_uncompressed': fileBlobsUncompressed,
  '20261123T2000_file_blob_parts': fileBlobParts,
  '20261125T1400_jobs_one_schedule_per_kind': jobsOneSchedulePerKind,
  '20261125T1700_uploads_unfinished_idx': uploadsUnfinishedIdx,
  '20261125T1900_system_schemas': systemSchemas,
  '20261125T1910_folders': folders,
  '20261125T2100_users_access_notify': usersAccessNotify,
  '20261125T2200_schemas_keep_key_order': schemasKeepKeyOrder,
  '20261126T0900_logs_live_batched': logsLiveBatched,
  '20261126T1300_folders_notify': foldersNotify,
  '20261206T0900_uploads_imported': uploadsImported,
  '20261206T1400_endpoint_models': endpointModels,
  '20261206T1410_endpoints': endpoints,
  '20261206T1500_listener_models': listenerModels,
  '20261206T1510_listeners': listeners,
  '20261206T1600_test_runs': testRuns,
  '20261206T1700_upload_corrections': uploadCorrections,
  '20261206T1710_activity': activity,
  '20261206T1720_column_mappings': columnMappings,
  '20261206T1800_test_runs_sdk': testRunsSdk,
};
