export { DynamicForm } from './DynamicForm.tsx';
export { FormPreview } from './FormPreview.tsx';
