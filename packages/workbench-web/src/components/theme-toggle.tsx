import { useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';

// One preference for both Keel apps: it is a look, not a secret. index.html applies it before the first paint.
const storageName = 'keel-theme';

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(storageName);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Sets `data-theme` on <html> (kit.css switches `color-scheme` on it) and remembers the choice. */
export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    if (theme === 'system') localStorage.removeItem(storageName);
    else localStorage.setItem(storageName, theme);
  } catch {
    // Storage refused (private mode): the theme lasts until the page reloads.
  }
}

/** Light, dark, or whatever the system prefers. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  return (
    <label className="theme-toggle">
      <span className="sr-only">Theme</span>
      <select
        value={theme}
        onChange={(event) => {
          const next = event.target.value as Theme;
          applyTheme(next);
          setTheme(next);
        }}
      >
        <option value="system">◐ System theme</option>
        <option value="light">☀ Light</option>
        <option value="dark">☾ Dark</option>
      </select>
    </label>
  );
}
