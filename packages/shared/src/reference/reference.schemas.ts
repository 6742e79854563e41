import { z } from 'zod';

export const brandSchema = z.object({ _id: z.string().describe('Brand id.'), name: z.string().describe('Brand name.') });
export const localeSchema = z.object({
  _id: z.string().describe('Locale id.'),
  language: z.string().describe('Language code, such as fr.'),
  country: z.string().describe('Country code, such as FR.'),
  name: z.string().describe('Name, such as French (France).'),
});
export const productLineSchema = z.object({
  _id: z.string().describe('Product line id.'),
  name: z.string().describe('Product line name.'),
});
export const datakindSchema = z.object({
  _id: z.string().describe('Datakind id.'),
  name: z.string().describe('Datakind name.'),
  isDealer: z.boolean().describe('True for the dealer kind, the only one the role user sees without unrestrictedUpload.'),
});

export type Brand = z.infer<typeof brandSchema>;
export type Locale = z.infer<typeof localeSchema>;
export type ProductLine = z.infer<typeof productLineSchema>;
export type Datakind = z.infer<typeof datakindSchema>;

/** How a locale reads in filters: language-country. */
export function localeLabel(locale: Pick<Locale, 'language' | 'country'>): string {
  return `${locale.language}-${locale.country}`;
}
