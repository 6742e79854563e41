import crypto from 'node:crypto';
import type { AuthContext, CallerProfile } from '../../platform/auth/access-control.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/transaction.ts';
import { newId } from '../../platform/ids.ts';
import { type UserRow, usersRepo } from './users.repo.ts';

/** A user as other modules see it: without the password hash, two-factor secret and recovery codes. */
export interface User {
  id: string;
  first_name: string;
  last_name: string;
  user_name: string;
  email: string;
  service: string;
  roles: string[];
  is_active: boolean;
  unrestricted_upload: boolean;
  is_no_code: boolean;
  tfa_enabled: boolean;
  admin_tags: string[];
  project_tags: string[];
  avatar: string | null;
  created_by: string | null;
}

/** What signing in checks: the user, its password hash and its (sealed) two-factor secret. */
/** What a list or a record shows of a user. */
export interface UserName {
  id: string;
  firstName: string;
  userName: string;
}

export interface Credentials {
  user: User;
  passwordHash: string | null;
  tfaSecret: string | null;
}

/** The public fields of a stored user. */
function toUser(row: UserRow): User {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    user_name: row.user_name,
    email: row.email,
    service: row.service,
    roles: row.roles,
    is_active: row.is_active,
    unrestricted_upload: row.unrestricted_upload,
    is_no_code: row.is_no_code,
    tfa_enabled: row.tfa_enabled,
    admin_tags: row.admin_tags,
    project_tags: row.project_tags,
    avatar: row.avatar,
    created_by: row.created_by,
  };
}

const credentialsOf = (row: UserRow | undefined): Credentials | undefined =>
  row && { user: toUser(row), passwordHash: row.password_hash, tfaSecret: row.tfa_secret };

export interface NewUser {
  firstName: string;
  lastName: string;
  userName: string;
  email: string;
  roles: string[];
  password?: string;
  service?: string;
  unrestrictedUpload?: boolean;
  adminTags?: string[];
  projectTags?: string[];
  createdBy?: string | null;
}

/** A password that meets the create-password rules: letters, digits and specials, 20 characters. */
function generatePassword(): string {
  const sets = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!@#$%^&*_-+='];
  const all = sets.join('');
  const chars = sets.map((s) => s[crypto.randomInt(s.length)] ?? 'a');
  while (chars.length < 20) chars.push(all[crypto.randomInt(all.length)] ?? 'a');
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}

export function usersService(ctx: AppContext) {
  const repo = usersRepo(ctx.db.kysely);
  return {
    /** Creates a user; the password, when given, is stored as its argon2id hash. */
    async create(input: NewUser): Promise<User> {
      const row = await repo.insert({
        id: newId(),
        first_name: input.firstName,
        last_name: input.lastName,
        user_name: input.userName,
        email: input.email,
        service: input.service ?? '',
        roles: input.roles,
        unrestricted_upload: input.unrestrictedUpload ?? !input.roles.includes('user'),
        admin_tags: input.adminTags ?? [],
        project_tags: input.projectTags ?? [],
        password_hash: input.password ? await hashPassword(input.password) : null,
        avatar: null,
        tfa_secret: null,
        last_seen_at: null,
        created_by: input.createdBy ?? null,
      });
      return toUser(row);
    },

    async byId(id: string): Promise<User | undefined> {
      const row = await repo.byId(id);
      return row && toUser(row);
    },
    /** The user with this email address, ignoring case. */
    async byEmail(email: string): Promise<User | undefined> {
      const row = await repo.byEmail(email);
      return row && toUser(row);
    },
    /** The credentials of the user with this user name (ignoring case) or id. */
    async credentials(by: { userName: string } | { id: string }): Promise<Credentials | undefined> {
      return credentialsOf('id' in by ? await repo.byId(by.id) : await repo.byUserName(by.userName));
    },
    async touchLastSeen(id: string): Promise<void> {
      await repo.touchLastSeen(id);
    },
    /** Stores a password hash (null: the user has no password until a link sets one). */
    async setPasswordHash(id: string, hash: string | null): Promise<void> {
      await repo.setPasswordHash(id, hash);
    },
    /** Keeps the sealed secret of a two-factor setup in progress; an enabled setup keeps its own. */
    async storeTfaSecret(id: string, sealed: string): Promise<void> {
      await repo.setTfaSecret(id, sealed);
    },
    /** Records the step of an accepted code; false when this step (or a later one) was used already. */
    acceptTfaStep: (id: string, step: number): Promise<boolean> => repo.acceptTfaStep(id, step),
    /** Completes the two-factor setup with the hashes of the recovery codes. */
    async enableTfa(id: string, recoveryHashes: readonly string[]): Promise<void> {
      await repo.enableTfa(id, recoveryHashes);
    },
    /** Spends a recovery code; false when the account has no such unused code. */
    useRecoveryCode: (id: string, hash: string): Promise<boolean> => repo.useRecoveryCode(id, hash),
    /** The names of these users that exist, by first name (lists and records that show who did something). */
    namesOf: async (ids: readonly string[]): Promise<UserName[]> =>
      (await repo.namesOf([...new Set(ids)])).map((r) => ({ id: r.id, firstName: r.first_name, userName: r.user_name })),
    /** Those of these users that are active. */
    activeAmong: async (ids: readonly string[]): Promise<Set<string>> => new Set(await repo.activeAmong(ids)),
    /** The pipeline families assigned to the user and active. */
    assignedFamilies: (userId: string): Promise<string[]> => repo.assignedFamilies(userId),
    /** What the access checks read of a user: badges, unrestricted-upload flag, and the families assigned to a role user. */
    async profileOf(user: User): Promise<CallerProfile> {
      return {
        badges: user.project_tags,
        unrestrictedUpload: user.unrestricted_upload,
        assignedFamilies: user.roles.includes('user') ? await repo.assignedFamilies(user.id) : [],
      };
    },
    /** The caller's profile: the one their session carries, else read now; undefined when the user is gone. */
    async callerProfile(auth: AuthContext): Promise<CallerProfile | undefined> {
      if (auth.access) return auth.access;
      const user = await this.byId(auth.userId);
      return user && this.profileOf(user);
    },
    /** Takes deleted badges off every user, inside the caller's transaction when given one. */
    async removeTags(tagIds: readonly string[], k: Executor = ctx.db.kysely): Promise<void> {
      await usersRepo(k).removeTags(tagIds);
    },

    /**
     * On an empty database, creates the first super-admin from the configuration; when no
     * password is configured, one is generated and returned so the caller can print it once.
     */
    async ensureFirstAdmin(): Promise<{ userName: string; generatedPassword?: string } | null> {
      if ((await repo.countWithRole('super-admin')) > 0) return null;
      const { username, password, email } = ctx.config.admin;
      const chosen = password ?? generatePassword();
      const [first = 'super', last = 'admin'] = username.split('.');
      await this.create({
        firstName: first,
        lastName: last,
        userName: username,
        email,
        roles: ['super-admin'],
        password: chosen,
      });
      return password ? { userName: username } : { userName: username, generatedPassword: chosen };
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
