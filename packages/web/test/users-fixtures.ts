// Fixtures for the Users screen tests: managed users, badges and pipelines as the server answers them.
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';

export const IDS = {
  me: 'u1',
  bob: '00000000-0000-4000-8000-000000000002',
  carol: '00000000-0000-4000-8000-000000000003',
  dan: '00000000-0000-4000-8000-000000000004',
  paris: '00000000-0000-4000-8000-0000000000a1',
  lyon: '00000000-0000-4000-8000-0000000000a2',
  alpha: '00000000-0000-4000-8000-0000000000b1',
  hiddenProject: '00000000-0000-4000-8000-0000000000b2',
  pipeA: '00000000-0000-4000-8000-0000000000c1',
  pipeB: '00000000-0000-4000-8000-0000000000c2',
} as const;

export function managedUser(fields: Partial<ManagedUser> & Pick<ManagedUser, '_id' | 'firstName' | 'lastName'>): ManagedUser {
  const roles = fields.roles ?? [{ name: 'user' }];
  return {
    userName: `${fields.firstName.toLowerCase()}.${fields.lastName.toLowerCase()}`,
    email: `${fields.firstName.toLowerCase()}@example.test`,
    service: '',
    role: roles.map((r) => r.name).join(','),
    roles,
    isActive: true,
    unrestrictedUpload: false,
    isNoCode: false,
    tfaEnabled: false,
    lastSeenDate: null,
    admin_tags: [],
    project_tags: [],
    pipelinePermissions: {},
    ...fields,
  };
}

export function usersFor(myRoles: string[], myAdminTags: string[] = [IDS.paris]): ManagedUser[] {
  return [
    managedUser({
      _id: IDS.me,
      firstName: 'Ada',
      lastName: 'Lovelace',
      roles: myRoles.map((name) => ({ name })),
      admin_tags: myAdminTags,
    }),
    managedUser({
      _id: IDS.bob,
      firstName: 'Bob',
      lastName: 'Builder',
      email: 'bob@dealers.test',
      isActive: false,
      admin_tags: [IDS.paris],
      project_tags: [IDS.alpha],
      pipelinePermissions: { [IDS.pipeA]: { isActive: true } },
    }),
    managedUser({ _id: IDS.carol, firstName: 'Carol', lastName: 'Jones', roles: [{ name: 'admin' }], admin_tags: [IDS.paris] }),
    managedUser({ _id: IDS.dan, firstName: 'Dan', lastName: 'Brown', roles: [{ name: 'manager' }], admin_tags: [IDS.lyon] }),
  ];
}

const tag = (t: Partial<Tag> & Pick<Tag, '_id' | 'name' | 'type'>): Tag => ({
  color: null,
  isHidden: false,
  isMetadata: false,
  metadata: null,
  ...t,
});

export const TAGS: Tag[] = [
  tag({ _id: IDS.paris, name: 'Paris', type: 'group' }),
  tag({ _id: IDS.lyon, name: 'lyon', type: 'group' }),
  tag({ _id: IDS.alpha, name: 'Alpha', type: 'project', color: '#ff0000' }),
  tag({ _id: IDS.hiddenProject, name: 'Secret', type: 'project', isHidden: true }),
];

export const PIPELINES = {
  availablePipelines: [
    {
      _id: IDS.pipeA,
      name: 'Dealers FR',
      version: 2,
      isMaster: false,
      brand: null,
      locale: null,
      productLine: null,
      datakind: null,
    },
    {
      _id: IDS.pipeB,
      name: 'Stock DE',
      version: 1,
      isMaster: true,
      brand: null,
      locale: null,
      productLine: null,
      datakind: null,
    },
  ],
  userPipelines: [],
};
