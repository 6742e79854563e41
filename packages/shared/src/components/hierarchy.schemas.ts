import { z } from 'zod';
import { COMPONENT_KINDS } from './components.schemas.ts';

/** Where the editors open a document: a component, a pipeline. */
export const componentUrl = (id: string) => `/manage/components?id=${encodeURIComponent(id)}`;
export const pipelineUrl = (id: string) => `/manage/pipeline?id=${encodeURIComponent(id)}`;

/**
 * How a node of the hierarchy stands to the component asked: `selected` (the component itself),
 * `dependency` (run by it, at any depth below), `user` (a component running it, at any depth above).
 */
export const HIERARCHY_CLASSES = ['selected', 'dependency', 'user'] as const;

/** A component version in the dependency hierarchy (docs/product.md §16.6). */
export const hierarchyComponentSchema = z.object({
  key: z.string().describe('Id of the component version: the key dependencies name.'),
  name: z.string().describe('Component name.'),
  class_name: z
    .enum(HIERARCHY_CLASSES)
    .describe('selected: the component asked; dependency: one it runs, at any depth; user: one running it, at any depth.'),
  version: z.number().describe('Version number.'),
  vLocked: z.boolean().describe('True for a locked (production) version.'),
  type: z.enum(COMPONENT_KINDS).describe('Its kind: workflow, forEach, instruction or function.'),
  sources: z
    .array(z.string())
    .describe('Keys of the components of the hierarchy whose instances run this one (the arrows that reach it).'),
});

/** A pipeline version whose component is in the hierarchy (the component asked, or one running it). */
export const hierarchyPipelineSchema = z.object({
  key: z.string().describe('Id of the pipeline version.'),
  name: z.string().describe('Pipeline name.'),
  version: z.number().describe('Version number.'),
  vLocked: z.boolean().describe('True for a locked (production) version.'),
  component: z.string().describe('Key of the component it invokes.'),
});

/** GET /components/{id}/dependencies: the components and pipelines around a component version. */
export const componentHierarchySchema = z.object({
  components: z
    .array(hierarchyComponentSchema)
    .describe('The component asked, every component it runs (at any depth) and every component running it (at any depth).'),
  pipelines: z
    .array(hierarchyPipelineSchema)
    .describe('The pipeline versions invoking the component asked or a component running it.'),
  dependencies: z
    .array(z.object({ from: z.string().describe('Key of the component running…'), to: z.string().describe('…this one.') }))
    .describe('One arrow per component running another through an instance, from the user to the used.'),
  bottomComponents: z.array(z.string()).describe('Keys of the components below which there is nothing (they run no instance).'),
  component: z.string().describe('Key of the component asked.'),
});

export type HierarchyComponent = z.infer<typeof hierarchyComponentSchema>;
export type HierarchyPipeline = z.infer<typeof hierarchyPipelineSchema>;
export type ComponentHierarchy = z.infer<typeof componentHierarchySchema>;

/** A document using a component or an SDK function ('Usages'): name, version and where to open it. */
export const usageSchema = z.object({
  _id: z.string().describe('Id of the version that uses it.'),
  type: z
    .enum(['component', 'pipeline'])
    .describe('What uses it: a component (through an instance or its SDK list) or a pipeline.'),
  name: z.string().describe('Its name.'),
  version: z.number().describe('Its version number.'),
  vLocked: z.boolean().describe('True for a locked (production) version.'),
  url: z.string().describe('Where the editor opens it: /manage/components?id={id} or /manage/pipeline?id={id}.'),
});

export type Usage = z.infer<typeof usageSchema>;

/** POST /components/test-file: the formats the 'Load ...' dialog reads. */
export const TEST_FILE_FORMATS = ['csv', 'xlsx', 'xls', 'json'] as const;

/** The rows of a test file, as the 'Load ...' dialog puts them into ctx.input. */
export const testFileRowsSchema = z.object({
  fileName: z.string().describe('The file name as sent.'),
  format: z.enum(TEST_FILE_FORMATS).describe('How it was read (told apart by its bytes): csv, xlsx, xls or json.'),
  fields: z.array(z.string()).describe('The header: field names in file order.'),
  rowCount: z.number().describe('Rows the file holds.'),
  rows: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      "The rows as objects by field: CSV values as text, a sheet's cells as it holds them (dates as ISO text), JSON values as parsed; integers past 2^53 as text.",
    ),
});

export type TestFileRows = z.infer<typeof testFileRowsSchema>;

/** A usage entry of a component or pipeline version that names the document. */
export function usageOf(doc: {
  _id: string;
  kind: 'component' | 'pipeline';
  name: string;
  version: number;
  vLocked: boolean;
}): Usage {
  const url = doc.kind === 'component' ? componentUrl(doc._id) : pipelineUrl(doc._id);
  return { _id: doc._id, type: doc.kind, name: doc.name, version: doc.version, vLocked: doc.vLocked, url };
}
