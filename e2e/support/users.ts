import type { Role } from '@gdb/shared/auth/roles';

/** The people the browser tests sign in as, created by the global setup. */
export interface E2eUser {
  userName: string;
  firstName: string;
  lastName: string;
  roles: Role[];
}

export const E2E_PASSWORD = 'E2e!Passw0rd-2026';

export const USERS = {
  superAdmin: { userName: 'sam.superadmin', firstName: 'Sam', lastName: 'Superadmin', roles: ['super-admin'] },
  manager: { userName: 'max.manager', firstName: 'Max', lastName: 'Manager', roles: ['manager'] },
  admin: { userName: 'ada.admin', firstName: 'Ada', lastName: 'Admin', roles: ['admin'] },
  user: { userName: 'uma.user', firstName: 'Uma', lastName: 'User', roles: ['user'] },
  /** A user with no pipeline: sees and receives nothing of the others' imports. */
  other: { userName: 'otto.other', firstName: 'Otto', lastName: 'Other', roles: ['user'] },
} satisfies Record<string, E2eUser>;

/** On a server seeded bare (no demo), the group badge the admin and the user share. */
export const BARE_TEAM_BADGE = 'Journey team';
