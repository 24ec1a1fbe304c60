/** The theme choices: follow the system's `prefers-color-scheme`, or force one. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const KEY = 'hearth.theme';

/** The stored choice ('system' when none, or when storage is unreadable). */
export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(KEY);
    return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Applies a choice to the page: `data-theme` on <html> sets CSS `color-scheme`, from which
 * every colour (`light-dark()` custom properties in styles.css) follows.
 */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** Applies and remembers a choice. */
export function setTheme(theme: Theme): void {
  applyTheme(theme);
  try {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    // Storage refused (a private window's quota): the choice holds for this page only.
  }
}
