/** The four roles of the product, by their stored names. */
export const ROLES = ['user', 'manager', 'admin', 'super-admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  manager: 'Manager',
  admin: 'Admin',
  'super-admin': 'Super-Admin',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** True when the holder has at least one of the listed roles. */
export function hasAnyRole(held: readonly string[], allowed: readonly Role[]): boolean {
  return held.some((r) => (allowed as readonly string[]).includes(r));
}
