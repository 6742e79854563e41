/** File groups a data source's contentType names, each with the MIME types and extensions it accepts. */
export const MIME_GROUPS = {
  csv: { mimeTypes: ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'], extensions: ['.csv', '.txt'] },
  excel: {
    mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel'],
    extensions: ['.xlsx', '.xls'],
  },
  xml: { mimeTypes: ['application/xml', 'text/xml'], extensions: ['.xml'] },
  json: { mimeTypes: ['application/json', 'application/x-ndjson', 'text/plain'], extensions: ['.json', '.jsonl', '.ndjson'] },
} as const;

export type MimeGroup = keyof typeof MIME_GROUPS;

/** The group → MIME list map that `/users/info` answers as `mimetypes`. */
export function mimetypesMap(): Record<MimeGroup, string[]> {
  return {
    csv: [...MIME_GROUPS.csv.mimeTypes],
    excel: [...MIME_GROUPS.excel.mimeTypes],
    xml: [...MIME_GROUPS.xml.mimeTypes],
    json: [...MIME_GROUPS.json.mimeTypes],
  };
}
