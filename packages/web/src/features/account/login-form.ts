import { loginBodySchema } from '@gdb/shared/auth/session.schemas';
import { z } from 'zod';

const PASSWORD_TOO_SHORT = 'The password can not be less than 6 digits';

/** The sign-in form (docs/product.md §4.1): username required and trimmed, password at least 6 characters. */
export const loginFormSchema = z.object({
  username: loginBodySchema.shape.username,
  password: z.string().min(6, PASSWORD_TOO_SHORT).max(200),
});

export type LoginForm = z.infer<typeof loginFormSchema>;

/** An antd form rule that checks one field with its zod schema and shows the first message. */
export function zodRule(schema: z.ZodType) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
    },
  };
}
