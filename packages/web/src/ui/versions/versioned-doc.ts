/** The version an editor shows, as the version bar and its dialogs read it. */
export interface VersionedDoc {
  _id: string;
  name: string;
  version: number;
  vLocked: boolean;
  read_only: boolean;
  /** Pipelines only: true for a master, false for a country pipeline. */
  isMaster?: boolean;
}
