// The folder explorer every authoring screen and the testing view stand on.
export { Explorer } from './Explorer.tsx';
