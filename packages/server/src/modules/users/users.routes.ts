import { envelope } from '@gdb/shared/api/envelope';
import { USER_MESSAGES } from '@gdb/shared/users/user-rules';
import {
  idQuerySchema,
  idsAnswerSchema,
  idsQuerySchema,
  managedUserSchema,
  pipelinesForAnswerSchema,
  savedUserSchema,
  splitIds,
  toggleUsersBodySchema,
  userIdBodySchema,
  userSaveBodySchema,
  usersQuerySchema,
} from '@gdb/shared/users/users.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import { saveMessage, type UserAdminService } from './user-admin.service.ts';

export function usersRoutes(admin: UserAdminService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['users'];
    app.get(
      '/users',
      { schema: { tags, querystring: usersQuerySchema, response: { 200: envelope(z.array(managedUserSchema)) } } },
      async (req) => ok(await admin.list(requireAuth(req), req.query.search)),
    );
    app.post(
      '/users',
      { schema: { tags, body: userSaveBodySchema, response: { 200: envelope(savedUserSchema) } } },
      async (req) => {
        const { user, created, passwordMail } = await admin.save(requireAuth(req), req.body);
        return ok(passwordMail ? { ...user, passwordMail } : user, saveMessage(created));
      },
    );
    app.post(
      '/users/toggle',
      { schema: { tags, body: toggleUsersBodySchema, response: { 200: envelope(idsAnswerSchema) } } },
      async (req) => {
        const ids = await admin.toggle(requireAuth(req), req.body.ids, req.body.enabled);
        return ok({ ids }, req.body.enabled ? USER_MESSAGES.activated : USER_MESSAGES.deactivated);
      },
    );
    app.delete(
      '/users',
      { schema: { tags, querystring: idsQuerySchema, response: { 200: envelope(idsAnswerSchema) } } },
      async (req) => {
        const ids = await admin.remove(requireAuth(req), splitIds(req.query.ids));
        return ok({ ids }, ids.length > 1 ? USER_MESSAGES.deletedMany : USER_MESSAGES.deletedOne);
      },
    );
    app.post(
      '/users/reset-password',
      { schema: { tags, body: userIdBodySchema, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await admin.resetPassword(requireAuth(req), req.body._id);
        return ok(null, USER_MESSAGES.passwordReset);
      },
    );
    app.post(
      '/users/reset-tfa',
      { schema: { tags, body: userIdBodySchema, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await admin.resetTfa(requireAuth(req), req.body._id);
        return ok(null, USER_MESSAGES.tfaReset);
      },
    );
    app.get(
      '/users/pipelinesFor',
      { schema: { tags, querystring: idQuerySchema, response: { 200: envelope(pipelinesForAnswerSchema) } } },
      async (req) => ok(await admin.pipelinesFor(requireAuth(req), req.query.id)),
    );
  };
}
