export type StockLine = { item: string };
