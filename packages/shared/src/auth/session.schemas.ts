import { z } from 'zod';

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(100),
  password: z.string().min(1, 'Password is required').max(200),
});

export const accessTokenSchema = z.object({ value: z.string(), expireAt: z.number() });

export const tfaChallengeSchema = z.object({
  _id: z.string(),
  secret: z.string().optional(),
  qrcode: z.string().optional(),
});

export const loginAnswerSchema = z.object({
  token: accessTokenSchema.nullable(),
  refreshToken: z.string().nullable(),
  tfa: tfaChallengeSchema.nullable(),
  goNocode: z.boolean(),
});

export const refreshBodySchema = z.object({ refreshToken: z.string().min(1).max(200) });
export const refreshAnswerSchema = z.object({ token: accessTokenSchema, refreshToken: z.string() });

export const sessionUserSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  userName: z.string(),
  email: z.string(),
  avatar: z.string(),
  role: z.string(),
  roles: z.array(z.object({ name: z.string() })),
  tags: z.array(z.string()),
  unrestrictedUpload: z.boolean(),
  isNoCode: z.boolean(),
});

export const userInfoSchema = z.object({
  user: sessionUserSchema,
  mimetypes: z.record(z.string(), z.array(z.string())),
});

export type LoginBody = z.infer<typeof loginBodySchema>;
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export type RefreshAnswer = z.infer<typeof refreshAnswerSchema>;
export type SessionUser = z.infer<typeof sessionUserSchema>;
export type UserInfo = z.infer<typeof userInfoSchema>;
