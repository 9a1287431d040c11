// Settings `prd_links` over the API, and what the plan prompt says of a refused link: the plan goes on.
import { describe, expect, test } from 'vitest';
import { page, startFakeWeb } from '../../../runtime/test/tools/web/fake-web.ts';
import {
  type Api,
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

/** A READY project of one repository. */
async function readyProject(api: Api, path: string): Promise<Body> {
  const project = (
    await api('POST', '/api/projects', { name: 'p', repositories: [{ path, type: 'custom' }] })
  ).body;
  await api('POST', `/api/projects/${project.id}/init`);
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'READY',
  );
  return project;
}

/** A task with `prd_links`, through init to its first plan (drafted by itself); answers the plan prompt the model got. */
async function planPromptOf(
  wb: Awaited<ReturnType<typeof startWorkbench>>,
  projectId: string,
  links: string[],
): Promise<string> {
  const { api } = wb;
  const task = (
    await api('POST', '/api/tasks', { project_id: projectId, description: 'A task', prd_links: links })
  ).body;
  // Initialization, and after the confirmation the first draft, start by themselves.
  await eventually(
    async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
    'init',
  );
  expect((await api('POST', `/api/tasks/${task.id}/confirm-init`)).status).toBe(200);
  await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'plan.md');
  const requests = wb.model.chatRequests.filter((request) =>
    JSON.stringify(request.messages).includes(`A task`),
  );
  return JSON.stringify(requests.at(-1)?.messages);
}

describe('settings prd_links', () => {
  test('default refuses private addresses; a refused link is reported in the plan prompt; opting in reads it', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('prd'), 'app', { 'a.txt': 'a\n' });
    await using web = await startFakeWeb({ '/prd.md': page('text/markdown', 'The greeting must say hi.') });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nDo it.', repeat: true },
    ]);
    const { api } = wb;
    expect((await api('GET', '/api/settings')).body.prd_links).toEqual({
      allow_private_network: false,
      allowed_hosts: [],
    });
    const bad = await api('PUT', '/api/settings', { prd_links: { allowed_hosts: ['http://wiki/'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('Invalid entry "http://wiki/" in prd_links.allowed_hosts'),
    });
    const project = await readyProject(api, repo.dir);

    const refused = await planPromptOf(wb, project.id, [`${web.base}/prd.md`]);
    expect(refused).toContain(
      `(could not be read: Refused to fetch ${web.base}/prd.md: 127.0.0.1 is a loopback`,
    );
    expect(refused).toContain(
      'set \\"prd_links\\": {\\"allow_private_network\\": true} with PUT /api/settings',
    );
    expect(refused).not.toContain('The greeting must say hi.');
    expect(web.requests).toEqual([]);

    const opened = await api('PUT', '/api/settings', { prd_links: { allowed_hosts: ['127.0.0.1'] } });
    expect(opened.status).toBe(200);
    expect(opened.body.prd_links).toEqual({ allow_private_network: false, allowed_hosts: ['127.0.0.1'] });
    expect(await planPromptOf(wb, project.id, [`${web.base}/prd.md`])).toContain('The greeting must say hi.');
  });
});

describe('unreadable PRD links', () => {
  test('are recorded on the task and in the plan session log, in words; the plan is written without them', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('prd-errors'), 'app', { 'a.txt': 'a\n' });
    await using web = await startFakeWeb({ '/prd.md': page('text/markdown', 'The greeting must say hi.') });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nDo it.' },
    ]);
    const { api } = wb;
    await api('PUT', '/api/settings', { prd_links: { allowed_hosts: ['127.0.0.1'] } });
    const project = await readyProject(api, repo.dir);
    const links = [`${web.base}/prd.md`, `${web.base}/missing`];
    const task = (
      await api('POST', '/api/tasks', { project_id: project.id, description: 'A task', prd_links: links })
    ).body;
    expect(task.prd_link_errors).toEqual([]);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
      'init',
    );
    await api('POST', `/api/tasks/${task.id}/confirm-init`);
    await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'plan.md');

    const view = (await api('GET', `/api/tasks/${task.id}`)).body;
    expect(view.prd_link_errors).toEqual([{ url: `${web.base}/missing`, message: 'HTTP 404 Not Found' }]);
    const entries = (await api('GET', `/api/sessions/${view.plan_session_id}/logs`)).body.entries as Body[];
    const steps = entries.filter((entry) => entry.event.type === 'step').map((entry) => entry.event);
    expect(steps).toEqual([
      { type: 'step', step: 'prd_link', status: 'done', detail: `Read ${web.base}/prd.md.` },
      {
        type: 'step',
        step: 'prd_link',
        status: 'failed',
        detail: `Could not read ${web.base}/missing: HTTP 404 Not Found; the plan was written without it.`,
        error: { code: 'PRD_LINK_UNREADABLE', message: 'HTTP 404 Not Found' },
      },
    ]);
  });
});
