import '../../test/dom.ts';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { appTheme, COLORS } from './theme.ts';

/** Relative luminance of an sRGB colour given as #rrggbb or rgba(0, 0, 0, a) over white. */
function luminance(color: string): number {
  const alpha = /^rgba\(0, 0, 0, ([\d.]+)\)$/.exec(color);
  const hex = alpha ? null : /^#([\da-f]{2})([\da-f]{2})([\da-f]{2})$/i.exec(color);
  const channels = alpha
    ? [0, 1, 2].map(() => 255 * (1 - Number(alpha[1])))
    : hex
      ? [hex[1], hex[2], hex[3]].map((h) => Number.parseInt(h ?? '0', 16))
      : null;
  if (!channels) throw new Error(`cannot read ${color}`);
  const [r = 0, g = 0, b = 0] = channels.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
};

describe('theme colours (WCAG 2.2 AA)', () => {
  it('gives text 4.5:1 on white, and white text 4.5:1 on the primary colour', () => {
    for (const c of [COLORS.primary, COLORS.primaryHover, COLORS.primaryActive, COLORS.error, COLORS.success, COLORS.warning])
      expect(contrast(c, '#ffffff'), c).toBeGreaterThanOrEqual(4.5);
    expect(contrast(COLORS.grey, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('is what antd derives its tokens from: primary, greys, error and the focus ring', () => {
    const token = theme.getDesignToken(appTheme(false));
    expect(contrast(token.colorPrimary, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(token.colorError, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // Secondary text is black at 55 % over the row: on the selected row under the pointer too.
    const row = COLORS.selectedHover;
    const greyOnRow = `#${[1, 3, 5]
      .map((i) =>
        Math.round(Number.parseInt(row.slice(i, i + 2), 16) * 0.45)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    expect(contrast(token.colorLink, row)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(greyOnRow, row)).toBeGreaterThanOrEqual(4.5);
    for (const state of [token.colorLinkHover, token.colorLinkActive, token.colorPrimaryTextHover])
      expect(contrast(state, '#ffffff'), state).toBeGreaterThanOrEqual(4.5);
    expect(contrast(token.colorPrimaryBorder, '#ffffff')).toBeGreaterThanOrEqual(3);
    for (const grey of [
      token.colorTextTertiary,
      token.colorTextQuaternary,
      token.colorTextPlaceholder,
      token.colorTextDescription,
    ])
      expect(contrast(grey, '#ffffff'), grey).toBeGreaterThanOrEqual(4.5);
  });
});
