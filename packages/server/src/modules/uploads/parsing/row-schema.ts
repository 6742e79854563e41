/** The schema each row must satisfy: the items of an array data model, else the model itself. */
export function rowSchemaOf(dataModel: Record<string, unknown>): Record<string, unknown> {
  const items = dataModel.items;
  if (dataModel.type === 'array' && items && typeof items === 'object' && !Array.isArray(items)) {
    return Object.fromEntries(Object.entries(items));
  }
  return dataModel;
}
