// Breaks no-folder-cycle with badges/: buyers → badges → buyers, each through a service or public types.
import { badgesOf } from '../badges/badges.service.ts';

export const buyers = { badges: (id: string) => badgesOf(id) };
