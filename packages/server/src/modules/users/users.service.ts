import crypto from 'node:crypto';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { AppContext } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { type UserRow, usersRepo } from './users.repo.ts';

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
export function generatePassword(): string {
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
    repo,
    /** Creates a user; the password, when given, is stored as its argon2id hash. */
    async create(input: NewUser): Promise<UserRow> {
      return repo.insert({
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
