import { lazy, Suspense } from 'react';
import { NavLink, Route, Routes } from 'react-router';
import { api } from './api/client.ts';
import { CheckBanner } from './components/check-banner.tsx';
import { KeyPrompt } from './components/key-prompt.tsx';
import { Loading } from './components/status.tsx';
import { ThemeToggle } from './components/theme-toggle.tsx';

// Every page is its own chunk: the first load carries the shell only.
const SettingsPage = lazy(() => import('./pages/settings-page.tsx'));
const ProjectsPage = lazy(() => import('./pages/projects-page.tsx'));
const ProjectPage = lazy(() => import('./pages/project-page.tsx'));
const TasksPage = lazy(() => import('./pages/tasks-page.tsx'));
const NewTaskPage = lazy(() => import('./pages/new-task-page.tsx'));
const TaskPage = lazy(() => import('./pages/task-page.tsx'));
const SkillsPage = lazy(() => import('./pages/skills-page.tsx'));
const ConversationsPage = lazy(() => import('./pages/conversations-page.tsx'));
const ConversationPage = lazy(() => import('./pages/conversation-page.tsx'));
const NotFoundPage = lazy(() => import('./pages/not-found-page.tsx'));

export function App() {
  return (
    <div className="shell">
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
        <ThemeToggle />
      </header>
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
      <main className="main">
        <Suspense fallback={<Loading what="page" />}>
          <Routes>
            <Route path="/" element={<ProjectsPage />} />
            <Route path="/projects" element={<ProjectsPage />} />
            <Route path="/projects/:id" element={<ProjectPage />} />
            <Route path="/tasks" element={<TasksPage />} />
            <Route path="/tasks/new" element={<NewTaskPage />} />
            <Route path="/tasks/:id" element={<TaskPage />} />
            <Route path="/conversations" element={<ConversationsPage />} />
            <Route path="/conversations/:id" element={<ConversationPage />} />
            <Route path="/skills" element={<SkillsPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </main>
    </div>
  );
}
