export const stockRows = (): string[] => [];
