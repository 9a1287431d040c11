// A fake GitHub REST API (GHES-style, under /api/v3) over real HTTP, with an in-memory model a test
// drives: pulls, their head commits, check runs and comments. Every body it sends is validated against
// GitHub's OpenAPI description first; a body that breaks it is answered as 500 and kept as a violation,
// and `close()` then fails, so the fake cannot quietly drift from the real API's shapes.
import type { FakeCheckRun, FakeComment, FakePull, Place } from './github-objects.ts';
import {
  checkAnnotation,
  checkRun,
  checkRunId,
  fakeSha,
  issueComment,
  pullRequest,
  reviewComment,
} from './github-objects.ts';
import type { SchemaViolation } from './github-openapi.ts';
import { githubSchemaValidator } from './github-openapi.ts';
import type { JsonReply, RecordedRequest } from './json-server.ts';
import { startJsonServer } from './json-server.ts';

export type { FakeAnnotation, FakeCheckRun, FakePull } from './github-objects.ts';
export type { SchemaViolation } from './github-openapi.ts';

export interface FakeGitHubOptions {
  /** The one token the fake accepts (as `Authorization: Bearer …` or `token …`). */
  token: string;
  /** The head commit of a newly opened pull; a stable hash of the branch unless given. */
  headSha?: (owner: string, repo: string, branch: string) => string;
  now?: () => Date;
}

export interface FakeGitHub {
  /** e.g. http://127.0.0.1:PORT/api/v3 */
  apiUrl: string;
  /** e.g. http://127.0.0.1:PORT (pulls' html_url live under it) */
  webUrl: string;
  pulls: FakePull[];
  requests: RecordedRequest[];
  violations: SchemaViolation[];
  /** Rewrites a body before it is validated and sent: lets a test prove drift is caught. */
  tamper: ((template: string | null, body: unknown) => unknown) | null;
  /**
   * Answers a request (after the token is checked) instead of the model when it returns a reply, e.g. a
   * 500 for one endpoint; the reply is validated like any other.
   */
  intercept: ((request: RecordedRequest) => JsonReply | null) | null;
  openPull(
    owner: string,
    repo: string,
    fields: { head: string; base: string; title: string; body?: string },
  ): FakePull;
  /** The branch moved: the pull's head commit is now `sha`. */
  setHead(owner: string, repo: string, number: number, sha: string): void;
  /** The check runs of commit `sha`, each with its output and annotations. */
  setChecks(owner: string, repo: string, sha: string, runs: FakeCheckRun[]): void;
  addReviewComment(
    owner: string,
    repo: string,
    number: number,
    comment: { body: string; path: string; line?: number | null; author?: string },
  ): number;
  addIssueComment(
    owner: string,
    repo: string,
    number: number,
    comment: { body: string; author?: string },
  ): number;
  merge(owner: string, repo: string, number: number): void;
  closePull(owner: string, repo: string, number: number): void;
  /** Returns the recorded violations and forgets them (for a test that provokes one on purpose). */
  takeViolations(): SchemaViolation[];
  /** Stops the server; rejects when a response broke the OpenAPI description. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const docs = 'https://docs.github.com/rest';

export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const validator = githubSchemaValidator();
  const now = () => (options.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const pulls: FakePull[] = [];
  const checks = new Map<string, FakeCheckRun[]>();
  const comments = new Map<string, FakeComment[]>();
  const violations: SchemaViolation[] = [];
  let nextComment = 1001;
  let place: Place = { web: '', api: '' };

  const find = (owner: string, repo: string, number: number): FakePull | undefined =>
    pulls.find((pull) => pull.owner === owner && pull.repo === repo && pull.number === number);
  const mustFind = (owner: string, repo: string, number: number): FakePull => {
    const pull = find(owner, repo, number);
    if (!pull) throw new Error(`the fake GitHub has no pull ${owner}/${repo}#${number}`);
    return pull;
  };
  const commentsOf = (pull: FakePull) => comments.get(`${pull.owner}/${pull.repo}#${pull.number}`) ?? [];
  const addComment = (pull: FakePull, comment: Omit<FakeComment, 'id' | 'created_at' | 'commit_id'>) => {
    const id = nextComment++;
    const key = `${pull.owner}/${pull.repo}#${pull.number}`;
    comments.set(key, [...commentsOf(pull), { ...comment, id, commit_id: pull.head_sha, created_at: now() }]);
    pull.updated_at = now();
    return id;
  };

  const fake = {
    apiUrl: '',
    webUrl: '',
    pulls,
    requests: [] as RecordedRequest[],
    violations,
    tamper: null as FakeGitHub['tamper'],
    intercept: null as FakeGitHub['intercept'],
    openPull(
      owner: string,
      repo: string,
      fields: { head: string; base: string; title: string; body?: string },
    ) {
      const branch = fields.head.includes(':')
        ? fields.head.slice(fields.head.indexOf(':') + 1)
        : fields.head;
      const number = pulls.filter((pull) => pull.owner === owner && pull.repo === repo).length + 1;
      const pull: FakePull = {
        owner,
        repo,
        number,
        id: 2_000_000 + pulls.length,
        title: fields.title,
        body: fields.body ?? null,
        head: fields.head,
        base: fields.base,
        head_sha: options.headSha?.(owner, repo, branch) ?? fakeSha(`${owner}/${repo}:${branch}`),
        base_sha: fakeSha(`${owner}/${repo}:${fields.base}`),
        state: 'open',
        merged_at: null,
        merge_commit_sha: null,
        created_at: now(),
        updated_at: now(),
        closed_at: null,
        author: owner,
      };
      pulls.push(pull);
      return pull;
    },
    setHead(owner: string, repo: string, number: number, sha: string) {
      const pull = mustFind(owner, repo, number);
      pull.head_sha = sha;
      pull.updated_at = now();
    },
    setChecks(owner: string, repo: string, sha: string, runs: FakeCheckRun[]) {
      checks.set(`${owner}/${repo}@${sha}`, runs);
    },
    addReviewComment(
      owner: string,
      repo: string,
      number: number,
      comment: { body: string; path: string; line?: number | null; author?: string },
    ) {
      const pull = mustFind(owner, repo, number);
      const { body, path } = comment;
      return addComment(pull, {
        kind: 'review',
        author: comment.author ?? 'reviewer',
        body,
        path,
        line: comment.line ?? null,
      });
    },
    addIssueComment(owner: string, repo: string, number: number, comment: { body: string; author?: string }) {
      const pull = mustFind(owner, repo, number);
      return addComment(pull, {
        kind: 'issue',
        author: comment.author ?? 'reviewer',
        body: comment.body,
        path: null,
        line: null,
      });
    },
    merge(owner: string, repo: string, number: number) {
      const pull = mustFind(owner, repo, number);
      Object.assign(pull, { state: 'closed', merged_at: now(), closed_at: now(), updated_at: now() });
      pull.merge_commit_sha = fakeSha(`merge:${pull.head_sha}`);
    },
    closePull(owner: string, repo: string, number: number) {
      Object.assign(mustFind(owner, repo, number), { state: 'closed', closed_at: now(), updated_at: now() });
    },
    takeViolations() {
      return violations.splice(0);
    },
    close: async () => {},
    [Symbol.asyncDispose]: () => fake.close(),
  };

  function route(request: RecordedRequest): JsonReply {
    const auth = request.headers.authorization ?? '';
    if (auth !== `Bearer ${options.token}` && auth !== `token ${options.token}`) {
      return { status: 401, body: { message: 'Bad credentials', documentation_url: docs, status: '401' } };
    }
    const intercepted = fake.intercept?.(request);
    if (intercepted) return intercepted;
    const notFound: JsonReply = {
      status: 404,
      body: { message: 'Not Found', documentation_url: docs, status: '404' },
    };
    const parts = request.path
      .replace(/^\/api\/v3/, '')
      .split('/')
      .slice(1)
      .map(decodeURIComponent);
    if (parts[0] !== 'repos' || parts.length < 4) return notFound;
    const [, owner = '', repo = '', area, ...rest] = parts;
    const key = `${request.method} ${area}/${rest.map((part, index) => (index === 0 ? '*' : part)).join('/')}`;
    if (key === 'POST pulls/') return create(owner, repo, request.body);
    if (key === 'GET commits/*/check-runs') {
      const runs = checks.get(`${owner}/${repo}@${rest[0]}`) ?? [];
      const at = now();
      const items = runs.map((run) => checkRun(place, owner, repo, rest[0] ?? '', run, at));
      return { status: 200, body: { total_count: items.length, check_runs: items } };
    }
    if (key === 'GET check-runs/*/annotations') {
      const found = findRun(owner, repo, Number(rest[0]));
      if (!found) return notFound;
      const perPage = Number(request.query.get('per_page') ?? 30);
      const items = (found.run.annotations ?? []).slice(0, perPage);
      return {
        status: 200,
        body: items.map((item) => checkAnnotation(place, owner, repo, found.sha, item)),
      };
    }
    const pull = find(owner, repo, Number(rest[0]));
    if (!pull) return notFound;
    const all = commentsOf(pull);
    const counts = {
      comments: all.filter((comment) => comment.kind === 'issue').length,
      review_comments: all.filter((comment) => comment.kind === 'review').length,
    };
    if (key === 'GET pulls/*') return { status: 200, body: pullRequest(place, pull, counts) };
    if (key === 'GET pulls/*/comments') {
      const items = all.filter((comment) => comment.kind === 'review');
      return { status: 200, body: items.map((comment) => reviewComment(place, pull, comment)) };
    }
    if (key === 'GET issues/*/comments') {
      const items = all.filter((comment) => comment.kind === 'issue');
      return { status: 200, body: items.map((comment) => issueComment(place, pull, comment)) };
    }
    return notFound;
  }

  function findRun(owner: string, repo: string, id: number): { run: FakeCheckRun; sha: string } | null {
    const prefix = `${owner}/${repo}@`;
    for (const [key, runs] of checks) {
      if (!key.startsWith(prefix)) continue;
      const sha = key.slice(prefix.length);
      const run = runs.find((item) => checkRunId(owner, repo, sha, item.name) === id);
      if (run) return { run, sha };
    }
    return null;
  }

  // GitHub's validation error for a refused pull: `{message, errors: [{resource, code, field?, message?}]}`.
  function create(owner: string, repo: string, body: unknown): JsonReply {
    const fields = (body ?? {}) as { head?: unknown; base?: unknown; title?: unknown; body?: unknown };
    const refuse = (error: Record<string, string>): JsonReply => ({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'PullRequest', ...error }],
        documentation_url: `${docs}/pulls/pulls#create-a-pull-request`,
        status: '422',
      },
    });
    for (const field of ['head', 'base', 'title'] as const) {
      if (typeof fields[field] !== 'string' || !fields[field])
        return refuse({ field, code: 'missing_field' });
    }
    const head = fields.head as string;
    const qualified = head.includes(':') ? head : `${owner}:${head}`;
    const open = pulls.find(
      (pull) =>
        pull.owner === owner &&
        pull.repo === repo &&
        pull.state === 'open' &&
        (pull.head.includes(':') ? pull.head : `${owner}:${pull.head}`) === qualified,
    );
    if (open) return refuse({ code: 'custom', message: `A pull request already exists for ${qualified}.` });
    const pull = fake.openPull(owner, repo, {
      head,
      base: fields.base as string,
      title: fields.title as string,
      ...(typeof fields.body === 'string' ? { body: fields.body } : {}),
    });
    return { status: 201, body: pullRequest(place, pull, { comments: 0, review_comments: 0 }) };
  }

  // Validates (after any tampering) what `route` answers; a violation becomes a loud 500.
  function answer(request: RecordedRequest): JsonReply {
    const reply = route(request);
    const apiPath = request.path.replace(/^\/api\/v3/, '');
    const template = request.path.startsWith('/api/v3/') ? validator.template(request.method, apiPath) : null;
    const body = fake.tamper ? fake.tamper(template, reply.body) : reply.body;
    const violation = validator.validate(request.method, template, reply.status, body);
    if (!violation) return { ...reply, body };
    violations.push(violation);
    return {
      status: 500,
      body: { message: `the fake GitHub broke the OpenAPI description: ${violation.errors.join('; ')}` },
    };
  }

  const server = await startJsonServer(answer);
  place = { web: server.origin, api: `${server.origin}/api/v3` };
  fake.apiUrl = place.api;
  fake.webUrl = place.web;
  fake.requests = server.requests;
  fake.close = async () => {
    await server.close();
    if (violations.length > 0) {
      const lines = violations.map(
        (item) => `${item.method} ${item.path} ${item.status}: ${item.errors.join('; ')}`,
      );
      throw new Error(
        `the fake GitHub sent bodies that break GitHub's OpenAPI description:\n${lines.join('\n')}`,
      );
    }
  };
  return fake;
}
