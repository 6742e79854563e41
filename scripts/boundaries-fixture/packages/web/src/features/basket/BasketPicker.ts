// Allowed: a feature uses the ground and ui/.
import { fetchPath } from '../../ground/fetch/fetch.ts';
import { Chip } from '../../ui/Chip.ts';

export const BasketPicker = () => fetchPath(Chip);
