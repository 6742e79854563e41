// Breaks feature-not-to-feature: a feature takes another feature's component.
import { BasketPicker } from '../basket/BasketPicker.ts';

export const CheckoutPage = () => BasketPicker();
