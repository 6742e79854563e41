export type BuyerId = string;
