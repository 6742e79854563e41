// Breaks sandbox-stands-alone: the isolate's library reaches for a Node API and for the platform.
import { Buffer } from 'node:buffer';
import { busCount } from '../../platform/bus/bus.ts';
import { cell } from './cells.ts';

export const library = (text: string) => Buffer.from(cell(text)).length + busCount();
