import { z } from 'zod';
import { TFA_CODE_MAX, TFA_CODE_MIN } from './login-rules.ts';
import { FORGOTTEN_MESSAGES } from './password-rules.ts';
import { accessTokenSchema } from './session.schemas.ts';

export const createPasswordBodySchema = z.object({
  password: z
    .string()
    .max(200)
    .describe(
      'The new password: 8 to 128 characters with a lowercase and an uppercase letter, a digit and a special, without the user name or a part of it.',
    ),
  token: z.string().min(1, 'The token is required').max(200).describe('The token of the e-mailed link (its query t).'),
});

export const forgottenBodySchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, FORGOTTEN_MESSAGES.emailRequired)
    .max(254)
    .describe('The e-mail address of the account; the answer is the same whether it exists or not.'),
});

export const tfaBodySchema = z.object({
  _id: z.string().min(1).max(200).describe('The tfa._id of the sign-in answer.'),
  code: z
    .string()
    .trim()
    .min(TFA_CODE_MIN, 'The code must have 6 to 10 characters')
    .max(TFA_CODE_MAX, 'The code must have 6 to 10 characters')
    .describe('The 6-digit code of the authenticator app, or a 10-character recovery code.'),
});

/** The answer to a valid two-factor code: the session, and the recovery codes once, after the first setup. */
export const tfaAnswerSchema = z.object({
  token: accessTokenSchema.describe('The access token.'),
  refreshToken: z.string().describe('Token that gets a new access token.'),
  recoveryCodes: z
    .array(z.string())
    .nullable()
    .describe('After the first setup only: single-use codes that stand in for the app; shown once. Otherwise null.'),
  goNocode: z.boolean().describe('True when the browser should open the no-code app (/nocode/) instead.'),
});

export type CreatePasswordBody = z.infer<typeof createPasswordBodySchema>;
export type ForgottenBody = z.infer<typeof forgottenBodySchema>;
export type TfaBody = z.infer<typeof tfaBodySchema>;
export type TfaAnswer = z.infer<typeof tfaAnswerSchema>;
