import { describe, expect, it } from 'vitest';
import { type AccessUser, canAccessDocument, canAccessPath, type DocumentAction, satisfiesTags } from './document-access.ts';

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

  it('passes read||write when either passes', () => {
    const doc = { tags: { read: [['r']], write: [['w']] } };
    expect(canAccessDocument(manager(['r']), doc, 'read||write')).toBe(true);
    expect(canAccessDocument(manager(['w']), doc, 'read||write')).toBe(true);
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
