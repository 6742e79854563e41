// Breaks platform-not-to-modules: the platform reaches up into a module.
import { stock } from '../../modules/stock/stock.service.ts';

export const busCount = () => stock.count();
