/** A document opened in an editor, as its breadcrumb shows it. */
export interface OpenedCrumb {
  id: string;
  familyId: string;
  name: string;
}

/** The breadcrumb keeps the last documents opened, at most this many. */
const MAX_CRUMBS = 10;

/**
 * The breadcrumb once `doc` is open: a document already in it takes the place it had (with the
 * version and name now open), another one comes last.
 */
export function withOpened(trail: readonly OpenedCrumb[], doc: { _id: string; familyId: string; name: string }): OpenedCrumb[] {
  const crumb = { id: doc._id, familyId: doc.familyId, name: doc.name };
  const at = trail.findIndex((c) => c.familyId === doc.familyId);
  if (at >= 0) return trail.map((c, i) => (i === at ? crumb : c));
  return [...trail, crumb].slice(-MAX_CRUMBS);
}
