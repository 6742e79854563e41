import { describe, expect, it } from 'vitest';
import {
  type AccessUser,
  canAccessDocument,
  canAccessItem,
  canAccessPath,
  type DocumentAction,
  satisfiesTags,
} from './document-access.ts';

const ACTIONS: DocumentAction[] = ['read', 'write', 'read||write'];
const manager = (tags: string[]): AccessUser => ({ roles: [{ name: 'manager' }], project_tags: tags.map((_id) => ({ _id })) });
const superAdmin: AccessUser = { roles: [{ name: 'super-admin' }], project_tags: [] };

describe('document access check', () => {
  it.each(ACTIONS)('denies %s when there is no user', (action) => {
    expect(canAccessDocument(null, {}, action)).toBe(false);
    expect(canAccessDocument(undefined, { tags: { read: [], write: [] } }, action)).toBe(false);
  });

  it.each(ACTIONS)('lets a super-admin %s anything, even locked and tagged', (action) => {
    const doc = { tags: { read: [['x']], write: [['y']] }, versions: [{ vLocked: true }] };
    expect(canAccessDocument(superAdmin, doc, action, { lockedOnly: true })).toBe(true);
    expect(canAccessDocument({ roles: ['super-admin'], project_tags: [] }, doc, action)).toBe(true);
  });

  it.each(ACTIONS)('opens an untagged document for %s', (action) => {
    expect(canAccessDocument(manager([]), {}, action)).toBe(true);
    expect(canAccessDocument(manager([]), { tags: null }, action)).toBe(true);
    expect(canAccessDocument(manager([]), { tags: { read: [], write: [] } }, action)).toBe(true);
    expect(canAccessDocument(manager([]), { tags: { read: [[]], write: [[], []] } }, action)).toBe(true);
  });

  it('opens an action with no tags while the other is tagged', () => {
    const doc = { tags: { read: [], write: [['w']] } };
    expect(canAccessDocument(manager([]), doc, 'read')).toBe(true);
    expect(canAccessDocument(manager([]), doc, 'write')).toBe(false);
    expect(canAccessDocument(manager([]), doc, 'read||write')).toBe(true);
  });

  it('needs every tag of a single group', () => {
    const doc = { tags: { read: [['a', 'b']], write: [['a', 'b']] } };
    expect(canAccessDocument(manager(['a']), doc, 'read')).toBe(false);
    expect(canAccessDocument(manager(['b']), doc, 'write')).toBe(false);
    expect(canAccessDocument(manager(['a', 'b']), doc, 'read')).toBe(true);
    expect(canAccessDocument(manager(['a', 'b', 'c']), doc, 'write')).toBe(true);
  });

  it('accepts any one of several groups', () => {
    const doc = { tags: { read: [['a', 'b'], ['c']], write: [] } };
    expect(canAccessDocument(manager(['c']), doc, 'read')).toBe(true);
    expect(canAccessDocument(manager(['a', 'b']), doc, 'read')).toBe(true);
    expect(canAccessDocument(manager(['a']), doc, 'read')).toBe(false);
    expect(canAccessDocument(manager(['b', 'd']), doc, 'read')).toBe(false);
  });

  it('ignores empty groups beside real ones', () => {
    expect(canAccessDocument(manager([]), { tags: { read: [[], ['a']] } }, 'read')).toBe(false);
  });

  it('reads tags given as ids or as objects, on both sides', () => {
    const doc = { tags: { read: [[{ _id: 'a' }, 'b']] } };
    expect(canAccessDocument({ roles: ['user'], project_tags: ['a', { _id: 'b' }] }, doc, 'read')).toBe(true);
  });

  it('refuses write to a caller whose badges open writing but not reading (write implies read)', () => {
    const doc = { tags: { read: [['r']], write: [['w']] } };
    expect(canAccessDocument(manager(['w']), doc, 'write')).toBe(false);
    expect(canAccessDocument(manager(['r']), doc, 'write')).toBe(false);
    expect(canAccessDocument(manager(['r', 'w']), doc, 'write')).toBe(true);
    expect(canAccessDocument(manager(['w']), { tags: { read: [['r']] } }, 'write')).toBe(false);
  });

  it('passes read||write when read passes (write alone no longer does)', () => {
    const doc = { tags: { read: [['r']], write: [['w']] } };
    expect(canAccessDocument(manager(['r']), doc, 'read||write')).toBe(true);
    expect(canAccessDocument(manager(['w']), doc, 'read||write')).toBe(false);
    expect(canAccessDocument(manager(['x']), doc, 'read||write')).toBe(false);
  });

  describe('locked-only flag', () => {
    const locked = { versions: [{ vLocked: false }, { vLocked: true }] };
    const drafts = { versions: [{ vLocked: false }] };

    it('refuses write when a version is locked and the flag is on', () => {
      expect(canAccessDocument(manager([]), locked, 'write', { lockedOnly: true })).toBe(false);
      expect(canAccessDocument(manager([]), locked, 'read', { lockedOnly: true })).toBe(true);
      expect(canAccessDocument(manager([]), locked, 'read||write', { lockedOnly: true })).toBe(true);
    });

    it('allows write when the flag is off, no version is locked, or there are no versions', () => {
      expect(canAccessDocument(manager([]), locked, 'write')).toBe(true);
      expect(canAccessDocument(manager([]), drafts, 'write', { lockedOnly: true })).toBe(true);
      expect(canAccessDocument(manager([]), { versions: [] }, 'write', { lockedOnly: true })).toBe(true);
      expect(canAccessDocument(manager([]), {}, 'write', { lockedOnly: true })).toBe(true);
    });

    it('still applies the tags when no version is locked', () => {
      expect(canAccessDocument(manager([]), { ...drafts, tags: { write: [['w']] } }, 'write', { lockedOnly: true })).toBe(false);
    });

    it('refuses read||write when read is tagged away and write is locked', () => {
      const doc = { ...locked, tags: { read: [['r']] } };
      expect(canAccessDocument(manager([]), doc, 'read||write', { lockedOnly: true })).toBe(false);
    });
  });

  it('applies the check to a document and every folder above it', () => {
    const folder = { tags: { write: [['team']] } };
    const doc = { tags: { write: [] } };
    expect(canAccessPath(manager(['team']), [doc, folder], 'write')).toBe(true);
    expect(canAccessPath(manager([]), [doc, folder], 'write')).toBe(false);
    expect(canAccessPath(manager([]), [doc, folder], 'read')).toBe(true);
    expect(canAccessPath(null, [], 'read')).toBe(false);
  });

  it('satisfies a missing expression', () => {
    expect(satisfiesTags([], undefined)).toBe(true);
    expect(satisfiesTags([], null)).toBe(true);
  });
});

describe('the check of a document and the folders above it, case by case', () => {
  type Groups = string[][];
  const user = (role: string, tags: string[]): AccessUser => ({ roles: [{ name: role }], project_tags: tags });
  const item = (own: { read?: Groups; write?: Groups }, above: { read?: Groups; write?: Groups }[] = [], locked = false) => ({
    tags: own,
    versions: [{ vLocked: false }, { vLocked: locked }],
    above: above.map((tags) => ({ tags })),
  });
  const cases: [string, AccessUser | null, ReturnType<typeof item>, DocumentAction, boolean, boolean?][] = [
    ['no user, open document', null, item({}), 'read', false],
    [
      'super-admin, badged everywhere and locked',
      user('super-admin', []),
      item({ write: [['a']] }, [{ write: [['b']] }], true),
      'write',
      true,
      true,
    ],
    ['open document, open folders', user('manager', []), item({}, [{}, {}]), 'write', true],
    ['open for read while write is badged', user('manager', []), item({ write: [['a']] }), 'read', true],
    ['first group whole', user('manager', ['a', 'b']), item({ read: [['a', 'b'], ['c']] }), 'read', true],
    ['second group whole', user('manager', ['c']), item({ read: [['a', 'b'], ['c']] }), 'read', true],
    ['half of a group is not enough', user('manager', ['a', 'c2']), item({ read: [['a', 'b'], ['c']] }), 'read', false],
    [
      'badges of two groups mixed are not enough',
      user('manager', ['a', 'd']),
      item({
        write: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      }),
      'write',
      false,
    ],
    ['more badges than needed', user('manager', ['a', 'b', 'z']), item({ write: [['a', 'b']] }), 'write', true],
    ['inherited from the parent folder', user('manager', []), item({}, [{ read: [['p']] }]), 'read', false],
    ['inherited from two folder levels up', user('manager', []), item({}, [{}, { read: [['g']] }]), 'read', false],
    ['two levels up, badge held', user('manager', ['g']), item({}, [{}, { read: [['g']] }]), 'read', true],
    ['every level must pass', user('manager', ['g']), item({ read: [['d']] }, [{}, { read: [['g']] }]), 'read', false],
    ['a folder badged for write leaves read open', user('user', []), item({}, [{ write: [['w']] }, {}]), 'read', true],
    ['write inherited two levels up', user('manager', ['w']), item({}, [{}, { write: [['w']] }]), 'write', true],
    ['locked-only refuses write on a locked document', user('manager', []), item({}, [], true), 'write', false, true],
    ['locked-only leaves read', user('manager', []), item({}, [], true), 'read', true, true],
    ['locked-only leaves drafts', user('manager', []), item({}, [], false), 'write', true, true],
    ['locked-only off', user('manager', []), item({}, [], true), 'write', true, false],
    [
      'read||write needs read (write implies read)',
      user('manager', ['w']),
      item({ read: [['r']], write: [['w']] }),
      'read||write',
      false,
    ],
    ['write needs read', user('manager', ['w']), item({ read: [['r']], write: [['w']] }), 'write', false],
  ];
  it.each(cases)('%s', (_name, who, doc, action, expected, lockedOnly) => {
    expect(canAccessItem(who, doc, action, { lockedOnly: lockedOnly ?? false })).toBe(expected);
  });
});
