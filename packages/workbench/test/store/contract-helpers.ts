import { expect } from 'vitest';
import { WorkbenchError, type WorkbenchErrorCode } from '../../src/errors.ts';
import type { WorkbenchStore } from '../../src/store/index.ts';

/** What a dialect hands the contract suite for each test: a store on a fresh database. */
export interface WorkbenchStoreUnderTest {
  store: WorkbenchStore;
  /** Removes the database; called after the suite has closed `store`. */
  cleanup: () => Promise<void>;
}

/** The WorkbenchError a promise rejects with, checked against the expected code. */
export async function rejection(
  promise: Promise<unknown>,
  code: WorkbenchErrorCode,
): Promise<WorkbenchError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  if (!WorkbenchError.is(caught))
    throw new Error(`Expected a WorkbenchError ${code}, got ${String(caught)}.`);
  expect(caught.code).toBe(code);
  return caught;
}

/** A project with one repository, as the service makes them. */
export async function aProject(store: WorkbenchStore, name = 'p') {
  return store.projects.create({
    name,
    description: `${name} project`,
    repositories: [{ path: `/repos/${name}`, type: 'custom', name }],
    default_runner: null,
  });
}

let taskCount = 0;

/** A task of `projectId` with one image. */
export async function aTask(store: WorkbenchStore, projectId: string) {
  taskCount += 1;
  return store.tasks.create({
    id: `task_contract_${String(taskCount).padStart(4, '0')}_${Date.now()}`,
    project_id: projectId,
    description: 'add a button',
    prd_links: [],
    images: [{ media_type: 'image/png', data: 'aGVsbG8=', filename: 'a.png' }],
    runner: null,
    branch: `feature/${taskCount}`,
  });
}

export const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
