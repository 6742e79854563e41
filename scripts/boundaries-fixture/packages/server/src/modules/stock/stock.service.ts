import { stockRows } from './stock.repo.ts';

export const stock = { count: () => stockRows().length };
