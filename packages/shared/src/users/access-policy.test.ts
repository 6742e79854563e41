import { describe, expect, it } from 'vitest';
import { API_ACCESS } from '../api/access.ts';

describe('policies of the account, user and badge calls', () => {
  it('keeps sign-in, two-factor and password calls public', () => {
    for (const key of [
      'POST /users/login',
      'POST /users/tfa',
      'POST /users/refresh-token',
      'POST /users/create-password',
      'POST /users/forgotten',
    ] as const) {
      expect(API_ACCESS[key], key).toBe('public');
    }
  });

  it('gives user management to admins and super-admins (the Users screen)', () => {
    for (const key of [
      'GET /users',
      'POST /users',
      'POST /users/toggle',
      'DELETE /users',
      'POST /users/reset-password',
      'POST /users/reset-tfa',
      'GET /users/pipelinesFor',
    ] as const) {
      expect(API_ACCESS[key], key).toEqual(['admin', 'super-admin']);
    }
  });

  it('lets every role read badges and only a super-admin change the global list', () => {
    expect(API_ACCESS['GET /tags/list']).toEqual(['user', 'manager', 'admin', 'super-admin']);
    expect(API_ACCESS['POST /tags']).toEqual(['super-admin']);
    expect(API_ACCESS['DELETE /tags']).toEqual(['super-admin']);
  });
});
