import {
  type CreatePasswordBody,
  type ForgottenBody,
  type TfaAnswer,
  type TfaBody,
  tfaAnswerSchema,
} from '@gdb/shared/auth/account.schemas';
import { type LoginAnswer, type LoginBody, loginAnswerSchema } from '@gdb/shared/auth/session.schemas';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';

/** POST /users/login: the tokens, or the two-factor challenge. */
export function login(body: LoginBody): Promise<LoginAnswer> {
  return api.post('/users/login', body, loginAnswerSchema, { auth: false });
}

/** POST /users/tfa: the session for a valid code, and the recovery codes after the first setup. */
export function verifyTfa(body: TfaBody): Promise<TfaAnswer> {
  return api.post('/users/tfa', body, tfaAnswerSchema, { auth: false });
}

/** POST /users/create-password: sets the password of the link's account. */
export async function createPassword(body: CreatePasswordBody): Promise<void> {
  await api.post('/users/create-password', body, z.null(), { auth: false });
}

/** POST /users/forgotten: asks for a recovery link (the answer never says whether the address exists). */
export async function forgotten(body: ForgottenBody): Promise<void> {
  await api.post('/users/forgotten', body, z.null(), { auth: false });
}
