// Breaks feature-not-to-feature too: a feature's index.ts is for the shell, not other features.
import { BasketPicker } from '../basket/index.ts';

export { CheckoutPage } from './CheckoutPage.ts';
export const picker = BasketPicker;
