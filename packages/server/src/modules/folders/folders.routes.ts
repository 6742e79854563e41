import { envelope } from '@gdb/shared/api/envelope';
import {
  documentMoveAnswerSchema,
  type FolderKind,
  folderCreateBodySchema,
  folderDeleteAnswerSchema,
  folderDeleteBodySchema,
  folderRenameBodySchema,
  folderSchema,
  folderTreeQuerySchema,
  reparentBodySchema,
  treeNodeSchema,
} from '@gdb/shared/folders/folders.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { FoldersService } from './folders.service.ts';

/** Where each kind's documents are moved into a folder (docs/product.md §18.3). */
const REPARENT_PATHS: Readonly<Record<FolderKind, string>> = {
  schema: '/schemas/reparent',
  component: '/components/reparent',
  pipeline: '/pipelines/reparent',
  sdk: '/sdk/reparent',
};

/** The folder calls and the documents' reparent calls (docs/product.md §18.3). */
export function foldersRoutes(folders: FoldersService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['folders'];
    app.get(
      '/folders/tree',
      { schema: { tags, querystring: folderTreeQuerySchema, response: { 200: envelope(z.array(treeNodeSchema)) } } },
      async (req) => ok(await folders.tree(requireAuth(req), req.query.kind)),
    );
    app.post(
      '/folders',
      { schema: { tags, body: folderCreateBodySchema, response: { 200: envelope(folderSchema) } } },
      async (req) => ok(await folders.create(requireAuth(req), req.body)),
    );
    app.delete(
      '/folders',
      { schema: { tags, body: folderDeleteBodySchema, response: { 200: envelope(folderDeleteAnswerSchema) } } },
      async (req) => ok(await folders.remove(requireAuth(req), req.body)),
    );
    app.post(
      '/folders/rename',
      { schema: { tags, body: folderRenameBodySchema, response: { 200: envelope(folderSchema) } } },
      async (req) => ok(await folders.rename(requireAuth(req), req.body)),
    );
    app.post(
      '/folders/reparent',
      { schema: { tags, body: reparentBodySchema, response: { 200: envelope(folderSchema) } } },
      async (req) => ok(await folders.reparent(requireAuth(req), req.body)),
    );
    for (const [kind, path] of Object.entries(REPARENT_PATHS) as [FolderKind, string][]) {
      app.post(
        path,
        { schema: { tags, body: reparentBodySchema, response: { 200: envelope(documentMoveAnswerSchema) } } },
        async (req) => ok(await folders.moveDocument(requireAuth(req), kind, req.body)),
      );
    }
  };
}
