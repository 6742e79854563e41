import { z } from 'zod';

export const brandSchema = z.object({ _id: z.string(), name: z.string() });
export const localeSchema = z.object({ _id: z.string(), language: z.string(), country: z.string(), name: z.string() });
export const productLineSchema = z.object({ _id: z.string(), name: z.string() });
export const datakindSchema = z.object({ _id: z.string(), name: z.string(), isDealer: z.boolean() });

export type Brand = z.infer<typeof brandSchema>;
export type Locale = z.infer<typeof localeSchema>;
export type ProductLine = z.infer<typeof productLineSchema>;
export type Datakind = z.infer<typeof datakindSchema>;

/** How a locale reads in filters: language-country. */
export function localeLabel(locale: Pick<Locale, 'language' | 'country'>): string {
  return `${locale.language}-${locale.country}`;
}
