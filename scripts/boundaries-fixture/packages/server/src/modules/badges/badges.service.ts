import type { BuyerId } from '../buyers/buyers.types.ts';

export const badgesOf = (id: BuyerId): string[] => [id];
