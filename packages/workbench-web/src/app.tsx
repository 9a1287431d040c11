import { NavLink, Route, Routes } from 'react-router';
import { api } from './api/client.ts';
import { CheckBanner } from './components/check-banner.tsx';
import { ConnectionBanner } from './components/connection-banner.tsx';
import { KeyPrompt } from './components/key-prompt.tsx';
import { Shortcuts } from './components/shortcuts.tsx';
import { ThemeToggle } from './components/theme-toggle.tsx';
import { pages } from './routes.tsx';

export function App() {
  return (
    <div className="shell">
      {/* The first stop of the keyboard: past the navigation, straight to the page's content. */}
      <a href="#main" className="skip-link">
        Skip to the content
      </a>
      <Shortcuts />
      <header className="topbar">
        <NavLink to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ⎈
          </span>
          Keel <span className="brand-sub">workbench</span>
        </NavLink>
        <nav className="nav" aria-label="Main">
          <NavLink to="/projects">Projects</NavLink>
          <NavLink to="/tasks">Tasks</NavLink>
          <NavLink to="/conversations">Conversations</NavLink>
          <NavLink to="/skills">Skills</NavLink>
          <NavLink to="/settings">Settings</NavLink>
        </nav>
        <a className="nav-docs" href="/docs" target="_blank" rel="noreferrer">
          API docs ↗
        </a>
        <button
          type="button"
          className="button-quiet shortcuts-hint"
          aria-keyshortcuts="?"
          onClick={() => window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }))}
        >
          Shortcuts <kbd>?</kbd>
        </button>
        <ThemeToggle />
      </header>
      <ConnectionBanner />
      <KeyPrompt
        label="Workbench API key"
        title="This workbench needs its API key"
        hint={
          <>
            The service runs with <code>WORKBENCH_AUTH_API_KEY</code>. The key stays in this browser.
          </>
        }
        check={api.settings.check}
      />
      <CheckBanner compact />
      <main className="main" id="main" tabIndex={-1}>
        <Routes>
          {pages.map(({ path, Page }) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
        </Routes>
      </main>
    </div>
  );
}
