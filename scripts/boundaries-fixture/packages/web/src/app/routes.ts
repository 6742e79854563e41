// Allowed: the shell takes the features through their index.ts.
import { BasketPicker } from '../features/basket/index.ts';
import { CheckoutPage } from '../features/checkout/index.ts';

export const routes = [CheckoutPage, BasketPicker];
