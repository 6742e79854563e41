// Allowed: the top wires the modules.
import { stock } from './modules/stock/stock.service.ts';

export const app = { stock };
