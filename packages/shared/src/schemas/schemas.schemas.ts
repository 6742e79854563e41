import { z } from 'zod';
import { versionedDocumentFields } from '../components/versioned-document.ts';

/** A data model (schema document) version (docs/product.md §18.2). */
export const schemaDocumentSchema = z.object({
  ...versionedDocumentFields,
  name: z.string().describe('Name.'),
  jsonSchema: z.record(z.string(), z.unknown()).describe('The JSON schema rows or port values must satisfy.'),
});

export type SchemaDocument = z.infer<typeof schemaDocumentSchema>;
