import { describe, expect, it } from 'vitest';
import { outsideCitations } from './check-references.mjs';

describe('the references check', () => {
  it('finds citations of the specification and design notes kept outside the repository', () => {
    const text = [
      '// the rule of spec 000 §2.6',
      '// see DESIGN §4 for the layout',
      '/** as 001 §5 says */',
      '// read DESIGN.md first',
    ].join('\n');
    expect(outsideCitations(text).map((l: { line: number }) => l.line)).toEqual([1, 2, 3, 4]);
  });

  it('lets citations inside the repository and ordinary numbers through', () => {
    const text = ['// docs/product.md §10.3', '// docs/decisions.md, "Folders"', 'const port = 5000;', '// HTTP 404 § none'].join(
      '\n',
    );
    expect(outsideCitations(text)).toEqual([]);
  });
});
