// The dealer price file both import benches read: its columns and the data model it is checked against.

export const COLUMNS = [
  'dealerCode',
  'partNumber',
  'description',
  'brand',
  'quantity',
  'unitPrice',
  'vatRate',
  'currency',
  'validFrom',
  'email',
] as const;

export const DATA_MODEL = {
  type: 'object',
  required: ['dealerCode', 'partNumber', 'description', 'quantity', 'unitPrice', 'currency'],
  additionalProperties: false,
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    partNumber: { type: 'string', pattern: '^[A-Z0-9]{3}-[0-9]{5}$' },
    description: { type: 'string', minLength: 1, maxLength: 200 },
    brand: { type: 'string', enum: ['', 'Renault', 'Dacia', 'Alpine', 'Nissan', 'Mitsubishi'] },
    quantity: { type: 'integer', minimum: 0 },
    unitPrice: { type: 'number', minimum: 0 },
    vatRate: { type: 'number', minimum: 0, maximum: 1 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    validFrom: { type: 'string', format: 'date' },
    email: { type: 'string', format: 'email' },
  },
};
