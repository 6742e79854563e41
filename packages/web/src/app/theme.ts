import type { ThemeConfig } from 'antd';

/**
 * Colours that meet WCAG 2.2 AA on white (text 4.5:1, focus ring and icons 3:1), in place of
 * antd's defaults that do not: white on #1677ff is 4.1:1, the greys #8c8c8c and #bfbfbf 3.4:1
 * and 1.8:1, error red #ff4d4f 3.3:1, the focus ring #91caff 1.7:1.
 */
export const COLORS = {
  /** antd blue-7: white text on it 6.2:1. */
  primary: '#0958d9',
  primaryHover: '#003eb3',
  primaryActive: '#002c8c',
  /** Red-7: 5.6:1. */
  error: '#cf1322',
  /** Green-8: 5.6:1. */
  success: '#237804',
  /** Orange-8: 5.4:1. */
  warning: '#ad4e00',
  /** A selected table row under the pointer: links 5.3:1 and secondary text 4.5:1 on it. */
  selectedHover: '#dcefff',
  /** Secondary and placeholder text: black at 55 % on white is #737373, 4.7:1. */
  grey: 'rgba(0, 0, 0, 0.55)',
} as const;

/** The theme of every screen; `motion` follows the system's reduced-motion setting. */
export function appTheme(motion: boolean): ThemeConfig {
  return {
    token: {
      motion,
      colorPrimary: COLORS.primary,
      colorInfo: COLORS.primary,
      colorLink: COLORS.primary,
      // Derived from colorLink, the hover colour of links and link buttons would be #579df2, 2.9:1.
      colorLinkHover: COLORS.primaryHover,
      colorLinkActive: COLORS.primaryActive,
      colorPrimaryTextHover: COLORS.primaryHover,
      // antd draws its focus ring in this colour: the light default is 1.7:1 on white.
      colorPrimaryBorder: COLORS.primary,
      colorError: COLORS.error,
      colorSuccess: COLORS.success,
      colorWarning: COLORS.warning,
      colorTextTertiary: COLORS.grey,
      colorTextQuaternary: COLORS.grey,
      colorTextPlaceholder: COLORS.grey,
      colorTextDescription: COLORS.grey,
    },
    components: {
      Button: { colorPrimaryHover: COLORS.primaryHover, colorPrimaryActive: COLORS.primaryActive },
      // A selected row under the pointer: antd's #bae0ff leaves links at 4.5:1 and grey text at 4.4:1.
      Table: { rowSelectedHoverBg: COLORS.selectedHover },
    },
  };
}
