export type { Widget, WidgetProps } from './context.ts';
export { DynamicForm, type DynamicFormHandle, type DynamicFormProps } from './DynamicForm.tsx';
export { analyze, ExpressionError, evaluate } from './expression.ts';
export { FormPreview, type FormPreviewProps } from './FormPreview.tsx';
export { formLanguage, randomId } from './form-names.ts';
export { type Rule, registerRules } from './rules.ts';
export { normaliseSchema } from './schema.ts';
