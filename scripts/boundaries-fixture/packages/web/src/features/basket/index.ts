export { BasketPicker } from './BasketPicker.ts';
