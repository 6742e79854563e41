export const Chip = 'chip';
