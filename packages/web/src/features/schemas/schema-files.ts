// The data model as a file and on the clipboard.
import { jsonText } from '@gdb/shared/schemas/schema-json';

/** Downloads the JSON schema as `{name}.json`, indented by 4 spaces. */
export function downloadJson(name: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([jsonText(value)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The file name without its extension: the name of a data model imported from it. */
export const baseName = (fileName: string): string => fileName.replace(/\.[^.]+$/, '') || fileName;
