// The folder explorer every authoring screen and the testing view stand on.
export { Explorer, type ExplorerProps, useFolderTree } from './Explorer.tsx';
export { LOADING_TREE } from './ExplorerTree.tsx';
