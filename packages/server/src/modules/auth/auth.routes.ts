import { envelope } from '@gdb/shared/api/envelope';
import { createPasswordBodySchema, forgottenBodySchema, tfaAnswerSchema, tfaBodySchema } from '@gdb/shared/auth/account.schemas';
import { FORGOTTEN_MESSAGES, PASSWORD_MESSAGES } from '@gdb/shared/auth/password-rules';
import {
  loginAnswerSchema,
  loginBodySchema,
  refreshAnswerSchema,
  refreshBodySchema,
  userInfoSchema,
} from '@gdb/shared/auth/session.schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { AccountService } from './account.service.ts';
import type { AuthService, ClientInfo } from './auth.service.ts';

const client = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

export function authRoutes(auth: AuthService, accounts: AccountService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['account'];
    app.post(
      '/users/login',
      { schema: { tags, body: loginBodySchema, response: { 200: envelope(loginAnswerSchema) } } },
      async (req) => ok(await auth.login(req.body.username, req.body.password, client(req))),
    );
    app.post('/users/tfa', { schema: { tags, body: tfaBodySchema, response: { 200: envelope(tfaAnswerSchema) } } }, async (req) =>
      ok(await auth.verifyTfa(req.body._id, req.body.code, client(req))),
    );
    app.post(
      '/users/refresh-token',
      { schema: { tags, body: refreshBodySchema, response: { 200: envelope(refreshAnswerSchema) } } },
      async (req) => ok(await auth.refresh(req.body.refreshToken)),
    );
    app.post('/users/logout', { schema: { tags, response: { 200: envelope(z.null()) } } }, async (req) => {
      await auth.logout(requireAuth(req).sessionId);
      return ok(null);
    });
    app.get('/users/info', { schema: { tags, response: { 200: envelope(userInfoSchema) } } }, async (req) =>
      ok(await auth.info(requireAuth(req))),
    );
    app.post(
      '/users/create-password',
      { schema: { tags, body: createPasswordBodySchema, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await accounts.createPassword(req.body.token, req.body.password);
        return ok(null, PASSWORD_MESSAGES.set);
      },
    );
    app.post(
      '/users/forgotten',
      { schema: { tags, body: forgottenBodySchema, response: { 200: envelope(z.null()) } } },
      async (req) => {
        await accounts.forgotten(req.body.email, client(req));
        return ok(null, FORGOTTEN_MESSAGES.asked);
      },
    );
  };
}
