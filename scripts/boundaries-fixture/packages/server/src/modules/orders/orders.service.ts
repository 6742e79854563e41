// Allowed: another module's service and public types.

// Breaks module-through-its-face: another module's repository.
import { stockRows } from '../stock/stock.repo.ts';
import { stock } from '../stock/stock.service.ts';
import type { StockLine } from '../stock/stock.types.ts';

export const lines = (): StockLine[] => stockRows().map((item) => ({ item }));
export const count = () => stock.count();
