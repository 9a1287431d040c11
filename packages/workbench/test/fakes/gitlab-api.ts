// A fake GitLab REST API (under /api/v4) over real HTTP, with an in-memory model a test drives: merge
// requests, their head commit, pipelines with jobs, and discussion notes.
import type { FakeJob, FakeMergeRequest, FakeNote, FakePipeline } from './gitlab-objects.ts';
import { discussions, fakeSha, job, mergeRequest, pipeline } from './gitlab-objects.ts';
import type { JsonReply, RecordedRequest } from './json-server.ts';
import { startJsonServer } from './json-server.ts';

export type { FakeJob, FakeMergeRequest } from './gitlab-objects.ts';

export interface FakeGitLabOptions {
  /** The one token the fake accepts, as `PRIVATE-TOKEN` (or `Authorization: Bearer …`). */
  token: string;
  now?: () => Date;
}

export interface FakeGitLab {
  /** e.g. http://127.0.0.1:PORT/api/v4 */
  apiUrl: string;
  /** e.g. http://127.0.0.1:PORT (merge requests' web_url live under it) */
  webUrl: string;
  mergeRequests: FakeMergeRequest[];
  requests: RecordedRequest[];
  /** Answers a request (after the token is checked) instead of the model when it returns a reply, e.g. a 500. */
  intercept: ((request: RecordedRequest) => JsonReply | null) | null;
  createMergeRequest(
    projectPath: string,
    fields: { source_branch: string; target_branch: string; title: string },
  ): { iid: number; web_url: string };
  /**
   * Sets the pipeline of the head commit (a new one when the head has none yet); answers its id. A job's
   * `trace` is what its trace endpoint answers.
   */
  setPipeline(projectPath: string, iid: number, pipeline: { status: string; jobs: FakeJob[] }): number;
  addNote(
    projectPath: string,
    iid: number,
    note: { body: string; path?: string; line?: number; author?: string; system?: boolean },
  ): number;
  /** The source branch moved: the head commit is now `sha`. */
  setSha(projectPath: string, iid: number, sha: string): void;
  merge(projectPath: string, iid: number): void;
  closeMergeRequest(projectPath: string, iid: number): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function startFakeGitLab(options: FakeGitLabOptions): Promise<FakeGitLab> {
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const mergeRequests: FakeMergeRequest[] = [];
  const projects = new Map<string, number>();
  let nextId = 500;
  let web = '';

  const mustFind = (project: string, iid: number): FakeMergeRequest => {
    const mr = mergeRequests.find((item) => item.project === project && item.iid === iid);
    if (!mr) throw new Error(`the fake GitLab has no merge request ${project}!${iid}`);
    return mr;
  };
  const touch = (mr: FakeMergeRequest, changes: Partial<FakeMergeRequest>) =>
    Object.assign(mr, { ...changes, updated_at: now() });

  const fake: FakeGitLab = {
    apiUrl: '',
    webUrl: '',
    mergeRequests,
    requests: [],
    intercept: null,
    createMergeRequest(project, fields) {
      if (!projects.has(project)) projects.set(project, 100 + projects.size);
      const iid = mergeRequests.filter((item) => item.project === project).length + 1;
      const mr: FakeMergeRequest = {
        id: nextId++,
        iid,
        project_id: projects.get(project) ?? 0,
        project,
        ...fields,
        state: 'opened',
        sha: fakeSha(`${project}:${fields.source_branch}`),
        base_sha: fakeSha(`${project}:${fields.target_branch}`),
        created_at: now(),
        updated_at: now(),
        merged_at: null,
        closed_at: null,
        pipelines: [],
        notes: [],
      };
      mergeRequests.push(mr);
      return { iid, web_url: `${web}/${project}/-/merge_requests/${iid}` };
    },
    setPipeline(project, iid, spec) {
      const mr = mustFind(project, iid);
      let current = mr.pipelines.findLast((item) => item.sha === mr.sha);
      if (!current) {
        current = { id: nextId++, sha: mr.sha, status: spec.status, jobs: [], created_at: now() };
        mr.pipelines.push(current);
      }
      current.status = spec.status;
      current.jobs = spec.jobs.map((entry) => ({ ...entry, id: nextId++ }));
      return current.id;
    },
    addNote(project, iid, note) {
      const mr = mustFind(project, iid);
      const id = nextId++;
      const entry: FakeNote = {
        id,
        discussion: fakeSha(`discussion:${id}`),
        author: note.author ?? 'reviewer',
        body: note.body,
        path: note.path ?? null,
        line: note.line ?? null,
        system: note.system ?? false,
        created_at: now(),
      };
      mr.notes.push(entry);
      touch(mr, {});
      return id;
    },
    setSha(project, iid, sha) {
      touch(mustFind(project, iid), { sha });
    },
    merge(project, iid) {
      touch(mustFind(project, iid), { state: 'merged', merged_at: now() });
    },
    closeMergeRequest(project, iid) {
      touch(mustFind(project, iid), { state: 'closed', closed_at: now() });
    },
    close: async () => {},
    [Symbol.asyncDispose]: () => fake.close(),
  };

  function route(request: RecordedRequest): JsonReply {
    const token = request.headers['private-token'] ?? request.headers.authorization?.replace(/^Bearer /, '');
    if (token !== options.token) return { status: 401, body: { message: '401 Unauthorized' } };
    const intercepted = fake.intercept?.(request);
    if (intercepted) return intercepted;
    // GitLab's own wording: `404 Project Not Found` for a project, `404 Not found` otherwise.
    const notFound = (message = '404 Not found'): JsonReply => ({ status: 404, body: { message } });
    if (request.method !== 'GET') return { status: 405, body: { error: '405 Method Not Allowed' } };
    const parts = request.path.split('/').slice(1).map(decodeURIComponent);
    if (parts[0] !== 'api' || parts[1] !== 'v4' || parts[2] !== 'projects') return notFound();
    const [, , , projectRef = '', area, number, tail, ...rest] = parts;
    const project = [...projects].find(([path, id]) => path === projectRef || String(id) === projectRef)?.[0];
    if (!project) return notFound('404 Project Not Found');
    // GitLab answers a job's log as text/plain, empty while the job has none.
    if (area === 'jobs' && tail === 'trace' && rest.length === 0) {
      const found = mergeRequests
        .filter((item) => item.project === project)
        .flatMap((item) => item.pipelines.flatMap((each) => each.jobs))
        .find((entry) => String(entry.id) === number);
      if (!found) return notFound();
      return {
        status: 200,
        body: null,
        text: found.trace ?? '',
        headers: {
          'content-type': 'text/plain',
          'content-disposition': `infile; filename="${found.id}.log"`,
        },
      };
    }
    if (area === 'pipelines' && tail === 'jobs' && rest.length === 0) {
      for (const mr of mergeRequests.filter((item) => item.project === project)) {
        const found = mr.pipelines.find((item) => String(item.id) === number);
        if (found) return { status: 200, body: found.jobs.map((entry) => job(web, mr, found, entry)) };
      }
      return notFound();
    }
    if (area !== 'merge_requests' || rest.length > 0) return notFound();
    const mr = mergeRequests.find((item) => item.project === project && String(item.iid) === number);
    if (!mr) return notFound();
    if (tail === undefined) return { status: 200, body: mergeRequest(web, mr) };
    if (tail === 'pipelines') {
      const newestFirst = [...mr.pipelines].reverse() as FakePipeline[];
      return { status: 200, body: newestFirst.map((item) => pipeline(web, mr, item)) };
    }
    if (tail === 'discussions') return { status: 200, body: discussions(web, mr) };
    return notFound();
  }

  const server = await startJsonServer(route);
  web = server.origin;
  fake.apiUrl = `${web}/api/v4`;
  fake.webUrl = web;
  fake.requests = server.requests;
  fake.close = () => server.close();
  return fake;
}
