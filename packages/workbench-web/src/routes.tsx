import type { ComponentType } from 'react';
import { matchRoutes } from 'react-router';
import { preloadable } from './components/lazy.tsx';
import { Loading } from './components/status.tsx';

function page(load: () => Promise<{ default: ComponentType }>) {
  const { Component, preload } = preloadable(load, <Loading what="page" />);
  return { Page: Component, preload };
}

/** The workbench's pages by path (the router's table): the first load carries the shell only. */
export const pages = [
  { path: '/', ...page(() => import('./pages/projects-page.tsx')) },
  { path: '/projects', ...page(() => import('./pages/projects-page.tsx')) },
  { path: '/projects/:id', ...page(() => import('./pages/project-page.tsx')) },
  { path: '/tasks', ...page(() => import('./pages/tasks-page.tsx')) },
  { path: '/tasks/new', ...page(() => import('./pages/new-task-page.tsx')) },
  { path: '/tasks/:id', ...page(() => import('./pages/task-page.tsx')) },
  { path: '/conversations', ...page(() => import('./pages/conversations-page.tsx')) },
  { path: '/conversations/:id', ...page(() => import('./pages/conversation-page.tsx')) },
  { path: '/skills', ...page(() => import('./pages/skills-page.tsx')) },
  { path: '/settings', ...page(() => import('./pages/settings-page.tsx')) },
  { path: '*', ...page(() => import('./pages/not-found-page.tsx')) },
];

/** Loads the code of the page at `pathname`, so that the first render shows it without a fallback. */
export async function preloadPage(pathname: string): Promise<void> {
  const match = matchRoutes(pages, pathname)?.at(-1)?.route;
  await match?.preload().catch(() => undefined);
}
