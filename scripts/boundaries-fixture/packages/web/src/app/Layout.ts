// Breaks shell-through-feature-index: the shell reaches past a feature's index.ts.
import { BasketPicker } from '../features/basket/BasketPicker.ts';

export const Layout = () => BasketPicker();
