import { z } from 'zod';

export const loginBodySchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(100)
    .describe('The user name, firstname.lastname; sent trimmed.'),
  password: z.string().min(1, 'Password is required').max(200).describe('The password.'),
});

export const accessTokenSchema = z.object({
  value: z.string().describe('The access token, sent back in the X-Token header.'),
  expireAt: z.number().describe('When the access token expires, in milliseconds since 1970.'),
});

export const tfaChallengeSchema = z.object({
  _id: z.string().describe('Single-use handle of this sign-in, sent back with the code to POST /users/tfa.'),
  secret: z.string().optional().describe('On a first setup only: the TOTP secret (base32), to type in by hand.'),
  qrcode: z.string().optional().describe('On a first setup only: the secret as a QR image (data URL).'),
});

export const loginAnswerSchema = z.object({
  token: accessTokenSchema.nullable().describe('The access token; null while a two-factor code is still needed.'),
  refreshToken: z.string().nullable().describe('Token that gets a new access token; null while a two-factor code is needed.'),
  tfa: tfaChallengeSchema.nullable().describe('Present when a two-factor code must follow: send it to POST /users/tfa.'),
  goNocode: z.boolean().describe('True when the browser should open the no-code app (/nocode/) instead.'),
});

export const refreshBodySchema = z.object({
  refreshToken: z.string().min(1).max(200).describe('The refresh token of the session; each one works once.'),
});
export const refreshAnswerSchema = z.object({
  token: accessTokenSchema.describe('A new access token.'),
  refreshToken: z.string().describe('The next refresh token; the one sent is used up.'),
});

export const sessionUserSchema = z.object({
  _id: z.string().describe('User id.'),
  firstName: z.string().describe('First name.'),
  lastName: z.string().describe('Last name.'),
  userName: z.string().describe('User name, firstname.lastname.'),
  email: z.string().describe('E-mail address.'),
  avatar: z.string().describe('Address of the avatar image; empty when none.'),
  role: z.string().describe('The role names joined by a comma, as the navbar shows them.'),
  roles: z.array(z.object({ name: z.string().describe('Role name.') })).describe('The roles: user, manager, admin, super-admin.'),
  tags: z.array(z.string()).describe('Ids of the project badges the user holds.'),
  unrestrictedUpload: z.boolean().describe('For the role user: false limits the pipelines to the dealer datakind.'),
  isNoCode: z.boolean().describe('Whether the user may use the no-code app.'),
});

export const userInfoSchema = z.object({
  user: sessionUserSchema.describe('The signed-in user.'),
  mimetypes: z
    .record(z.string(), z.array(z.string()))
    .describe("Each content type group (csv, excel, xml, json) and its MIME types; a data source's contentType names a group."),
  formCheckUrls: z
    .array(z.string())
    .describe("URL prefixes of the check services a form's ajax rule may ask (with a GET, without the token); none by default."),
});

export type LoginBody = z.infer<typeof loginBodySchema>;
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export type RefreshAnswer = z.infer<typeof refreshAnswerSchema>;
export type SessionUser = z.infer<typeof sessionUserSchema>;
export type UserInfo = z.infer<typeof userInfoSchema>;
