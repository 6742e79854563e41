import { z } from 'zod';
import { versionedDocumentFields } from '../components/versioned-document.ts';

/** A data model (schema document) version (spec 001 §3). */
export const schemaDocumentSchema = z.object({
  ...versionedDocumentFields,
  name: z.string(),
  jsonSchema: z.record(z.string(), z.unknown()),
});

export type SchemaDocument = z.infer<typeof schemaDocumentSchema>;
