// Breaks modules-not-to-top: a module reaches up to what builds the app.
import { app } from '../../app.ts';

export const routes = () => app.stock.count();
