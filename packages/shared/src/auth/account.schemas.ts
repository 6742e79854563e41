import { z } from 'zod';
import { TFA_CODE_MAX, TFA_CODE_MIN } from './login-rules.ts';
import { FORGOTTEN_MESSAGES } from './password-rules.ts';
import { accessTokenSchema } from './session.schemas.ts';

export const createPasswordBodySchema = z.object({
  password: z.string().max(200),
  token: z.string().min(1, 'The token is required').max(200),
});

export const forgottenBodySchema = z.object({
  email: z.string().trim().min(1, FORGOTTEN_MESSAGES.emailRequired).max(254),
});

export const tfaBodySchema = z.object({
  _id: z.string().min(1).max(200),
  code: z
    .string()
    .trim()
    .min(TFA_CODE_MIN, 'The code must have 6 to 10 characters')
    .max(TFA_CODE_MAX, 'The code must have 6 to 10 characters'),
});

/** The answer to a valid two-factor code: the session, and the recovery codes once, after the first setup. */
export const tfaAnswerSchema = z.object({
  token: accessTokenSchema,
  refreshToken: z.string(),
  recoveryCodes: z.array(z.string()).nullable(),
  goNocode: z.boolean(),
});

export type CreatePasswordBody = z.infer<typeof createPasswordBodySchema>;
export type ForgottenBody = z.infer<typeof forgottenBodySchema>;
export type TfaBody = z.infer<typeof tfaBodySchema>;
export type TfaAnswer = z.infer<typeof tfaAnswerSchema>;
