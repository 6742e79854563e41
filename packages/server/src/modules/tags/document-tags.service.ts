import {
  DOCUMENT_TAG_MESSAGES,
  type DocumentTagsAnswer,
  type DocumentTagTarget,
  type UpdateDocumentTagsBody,
} from '@gdb/shared/tags/document-tags.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { invalid } from '../../platform/http/errors.ts';
import { tagsRepo } from './tags.repo.ts';

/** Where the badges land: the folders and documents, which check who may change them. */
export interface BadgedDocuments {
  setBadges(
    auth: AuthContext,
    type: DocumentTagTarget,
    id: string,
    badges: { tags: { read: string[][]; write: string[][] }; metadataTags: string[] },
  ): Promise<number>;
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** The badges of folders and documents (docs/product.md §18.4): every id a badge, read and write made of project badges. */
export function documentTagsService(ctx: AppContext, documents: BadgedDocuments) {
  const repo = tagsRepo(ctx.db.kysely);

  async function validate(body: UpdateDocumentTagsBody) {
    const expressions = unique([...body.tags.read.flat(), ...body.tags.write.flat()]);
    const all = unique([...expressions, ...body.metadataTags]);
    const found = new Map((await repo.byIds(all)).map((t) => [t.id, t]));
    const unknown = all.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      const message = DOCUMENT_TAG_MESSAGES.unknown(unknown);
      throw invalid(message, [{ path: 'tags', message }]);
    }
    const groupBadges = expressions.flatMap((id) => {
      const tag = found.get(id);
      return tag && tag.type !== 'project' ? [tag.name] : [];
    });
    if (groupBadges.length > 0) {
      const message = DOCUMENT_TAG_MESSAGES.notProject(groupBadges);
      throw invalid(message, [{ path: 'tags', message }]);
    }
  }

  return {
    /** Sets the read, write and metadata badges of a folder or of every version of a document; empty groups are dropped. */
    async update(auth: AuthContext, body: UpdateDocumentTagsBody): Promise<DocumentTagsAnswer> {
      await validate(body);
      const groups = (g: string[][]) => g.map(unique).filter((group) => group.length > 0);
      const tags = { read: groups(body.tags.read), write: groups(body.tags.write) };
      const metadataTags = unique(body.metadataTags);
      const versions = await documents.setBadges(auth, body.type, body.id, { tags, metadataTags });
      return { id: body.id, type: body.type, tags, metadataTags, versions };
    },
  };
}

export type DocumentTagsService = ReturnType<typeof documentTagsService>;
