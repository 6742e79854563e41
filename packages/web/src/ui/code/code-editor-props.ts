/** What a code editor takes: the text, where edits go, and how it is drawn. */
export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Its accessible name. */
  label: string;
  readOnly: boolean;
  /** The id a form label points at. */
  id?: string;
  invalid?: boolean;
  /** small: a form field; large: a dialog's column. */
  height?: 'small' | 'large';
}
