import '../../../test/dom.ts';
import { EditorView } from '@codemirror/view';
import { render, screen, waitFor } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { LazyCodeEditor } from './LazyCodeEditor.tsx';

describe('LazyCodeEditor', () => {
  it("shows the code in CodeMirror, its style element carrying the page's CSP nonce, and reports edits", async () => {
    const onChange = vi.fn();
    render(
      <ConfigProvider csp={{ nonce: 'n0nce42' }}>
        <LazyCodeEditor label="Code" value="return 1;" onChange={onChange} readOnly={false} />
      </ConfigProvider>,
    );
    const content = await waitFor(() => {
      const found = document.querySelector('.cm-content');
      if (!found) throw new Error('not loaded yet');
      return found as HTMLElement;
    });
    expect(content.getAttribute('aria-label')).toBe('Code');
    expect(content.textContent).toBe('return 1;');
    const styles = [...document.querySelectorAll('style')].filter((s) => s.textContent?.includes('.cm-'));
    expect(styles.length).toBeGreaterThan(0);
    expect(styles.every((s) => s.getAttribute('nonce') === 'n0nce42')).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Code' }).getAttribute('contenteditable')).toBe('true');
    EditorView.findFromDOM(content)?.dispatch({ changes: { from: 0, insert: '// one\n' } });
    expect(onChange).toHaveBeenLastCalledWith('// one\nreturn 1;');
  });

  it('takes no edits when read-only, and stays reachable by the keyboard to read and copy', async () => {
    render(<LazyCodeEditor label="Locked code" value="x" onChange={() => {}} readOnly />);
    await waitFor(() => expect(document.querySelector('.cm-content')?.getAttribute('aria-readonly')).toBe('true'));
    const content = document.querySelector('.cm-content') as HTMLElement;
    expect(content.getAttribute('contenteditable')).toBe('true');
    expect(EditorView.findFromDOM(content)?.state.readOnly).toBe(true);
  });
});
