// Breaks ground-stays-down: the ground reaches up into a widget.
import { Chip } from '../../ui/Chip.ts';

export const fetchPath = (path: string) => `${Chip}:${path}`;
