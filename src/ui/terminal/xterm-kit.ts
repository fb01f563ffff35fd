// xterm.js is loaded on demand (it is ~300 kB): only when a terminal panel first mounts.

import type { ITheme, Terminal } from '@xterm/xterm';
import type { FitAddon } from '@xterm/addon-fit';

export type XtermKit = {
  createTerminal(options: { readOnly: boolean; theme: ITheme; fontFamily: string }): { terminal: Terminal; fit: FitAddon };
};

/** Loads xterm.js, its fit addon and its stylesheet. */
export async function loadXterm(): Promise<XtermKit> {
  const [xterm, fitAddon] = await Promise.all([
    import('@xterm/xterm'),
    import('@xterm/addon-fit'),
    import('@xterm/xterm/css/xterm.css'),
  ]);
  return {
    createTerminal({ readOnly, theme, fontFamily }) {
      const terminal = new xterm.Terminal({
        disableStdin: readOnly,
        cursorBlink: !readOnly,
        cursorStyle: readOnly ? 'underline' : 'block',
        cursorInactiveStyle: readOnly ? 'none' : 'outline',
        fontFamily,
        fontSize: 13,
        scrollback: 5000,
        theme,
      });
      const fit = new fitAddon.FitAddon();
      terminal.loadAddon(fit);
      return { terminal, fit };
    },
  };
}

/** The app's monospace font (its `--font-mono` variable), or a system one. */
export function monospaceFontFor(element: HTMLElement): string {
  const font = getComputedStyle(element).getPropertyValue('--font-mono').trim();
  return font || 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';
}

/** A terminal theme matching the element's resolved colours, so the app's light or dark theme carries over. */
export function themeFor(element: HTMLElement): ITheme {
  const background = opaqueBackgroundOf(element);
  const foreground = getComputedStyle(element).color || '#1d1d1b';
  const light = isLight(background);
  return {
    background,
    foreground,
    cursor: foreground,
    cursorAccent: background,
    selectionBackground: light ? 'rgba(37, 99, 235, 0.25)' : 'rgba(96, 165, 250, 0.35)',
    ...(light ? LIGHT_ANSI : DARK_ANSI),
  };
}

// A transparent panel shows whatever is behind it; the terminal canvas needs that colour explicitly.
function opaqueBackgroundOf(element: HTMLElement): string {
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    const color = getComputedStyle(node).backgroundColor;
    if (color && !isTransparent(color)) return color;
  }
  return matchMedia('(prefers-color-scheme: dark)').matches ? '#1e1e1c' : '#ffffff';
}

function isTransparent(color: string): boolean {
  return color === 'transparent' || /^rgba\(.*,\s*0\)$/.test(color);
}

// xterm's default palette is made for dark backgrounds; yellow and white vanish on white.
const LIGHT_ANSI: ITheme = {
  black: '#1f1f1f',
  red: '#c4262e',
  green: '#1d7f2d',
  yellow: '#8a6100',
  blue: '#1f5fbf',
  magenta: '#a2339c',
  cyan: '#0f7a86',
  white: '#6b6b6b',
  brightBlack: '#5c5c5c',
  brightRed: '#d8353d',
  brightGreen: '#248a36',
  brightYellow: '#9a6d00',
  brightBlue: '#2a6fd6',
  brightMagenta: '#b23fac',
  brightCyan: '#138894',
  brightWhite: '#3a3a3a',
};

// On dark backgrounds only the grey needs lifting: xterm's default bright black reads at under 3:1.
const DARK_ANSI: ITheme = { brightBlack: '#9a9a92' };

function isLight(color: string): boolean {
  const match = /rgba?\((\d+)[,\s]+(\d+)[,\s]+(\d+)/.exec(color);
  if (!match) return true;
  const [r, g, b] = match.slice(1, 4).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140;
}
