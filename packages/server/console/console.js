// The Keel browser console: a page over the runtime API (no build step, no framework). It lists runs
// and pending approvals, starts runs, follows one live over SSE and steers it, all through the same
// endpoints any client uses.
const $ = (id) => document.getElementById(id);
const state = { key: localStorage.getItem('keel.apiKey') ?? '', selected: null, follow: null };

/** Calls the API; a 401 asks for the key. Resolves to the parsed body, throws an Error with its message. */
async function api(method, path, body) {
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  if (state.key) headers.authorization = `Bearer ${state.key}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await response.json().catch(() => ({}));
  if (response.status === 401) $('key-form').hidden = false;
  if (!response.ok) throw new Error(parsed.error?.message ?? `${method} ${path}: ${response.status}`);
  return parsed;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, onClick, className) {
  const node = element('button', className, label);
  node.type = 'button';
  node.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick();
  });
  return node;
}

async function refreshRuns() {
  const { runs } = await api('GET', '/runtime/runs?limit=30');
  const list = $('runs');
  list.replaceChildren(
    ...runs.map((run) => {
      const item = element('li', run.id === state.selected ? 'selected' : '');
      item.dataset.runId = run.id;
      item.append(element('span', `status ${run.status}`, run.status), ' ', element('span', 'muted', run.id));
      item.append(element('span', 'prompt', run.prompt));
      item.addEventListener('click', () => select(run.id));
      return item;
    }),
  );
}

async function refreshApprovals() {
  const { approvals } = await api('GET', '/runtime/approvals?status=pending');
  $('approvals').replaceChildren(
    ...(approvals.length ? approvals.map(approvalItem) : [element('li', 'muted', 'Nothing to decide.')]),
  );
}

function approvalItem(approval) {
  const item = element('li');
  item.dataset.approvalId = approval.id;
  item.append(element('span', 'prompt', approval.prompt), element('span', 'muted', approval.run_id), ' ');
  item.append(...decisionButtons(approval));
  item.addEventListener('click', () => select(approval.run_id));
  return item;
}

/** Approve and Reject for a tool approval; an answer box for a question. */
function decisionButtons(approval) {
  const decide = (path, body) => async () => {
    try {
      const { approval: decided } = await api('POST', `/runtime/approvals/${approval.id}/${path}`, body);
      markDecided(decided);
      await Promise.all([refreshApprovals(), refreshRuns()]);
    } catch (error) {
      $('run-error').textContent = error.message;
    }
  };
  if (approval.kind === 'question') {
    const answer = element('input');
    answer.placeholder = (approval.options ?? []).join(' / ') || 'Your answer';
    return [answer, button('Answer', () => decide('answer', { answer: answer.value })())];
  }
  return [button('Approve', decide('approve', {})), button('Reject', decide('reject', {}), 'secondary')];
}

/** Replaces the buttons of a request in the transcript with what was decided. */
function markDecided(approval) {
  const ask = document.querySelector(`#transcript .ask[data-request-id="${approval.id}"]`);
  if (!ask) return;
  ask.replaceChildren(
    `? ${approval.prompt} `,
    element('span', 'muted', `(${approval.status}${approval.answer ? `: ${approval.answer}` : ''})`),
  );
}

async function select(runId) {
  state.selected = runId;
  state.follow?.abort();
  const follow = new AbortController();
  state.follow = follow;
  $('detail-empty').hidden = true;
  $('run').hidden = false;
  $('run-error').textContent = '';
  $('transcript').replaceChildren();
  await refreshHeader();
  await refreshRuns();
  followEvents(runId, follow.signal).catch((error) => {
    if (!follow.signal.aborted) $('run-error').textContent = error.message;
  });
}

async function refreshHeader() {
  if (!state.selected) return;
  const run = await api('GET', `/runtime/runs/${state.selected}`);
  $('run-title').textContent = run.prompt;
  $('run-status').textContent = run.orphaned ? `${run.status} (orphaned)` : run.status;
  $('run-status').className = `status ${run.status}`;
  $('run-usage').textContent =
    `${run.id} · attempt ${run.attempt} · ${run.usage.total_tokens} tokens · $${run.cost_usd.toFixed(4)}`;
  const can = {
    pause: ['queued', 'running'],
    resume: ['paused', 'waiting'],
    cancel: ['queued', 'running', 'waiting', 'paused'],
    retry: ['failed', 'cancelled'],
  };
  for (const control of document.querySelectorAll('#controls button')) {
    control.disabled = !can[control.dataset.control].includes(run.status);
  }
}

/** Reads the run's SSE stream (fetch, so the API key can go in a header) and renders each event. */
async function followEvents(runId, signal) {
  const headers = state.key ? { authorization: `Bearer ${state.key}` } : {};
  const response = await fetch(`/runtime/runs/${runId}/events`, { headers, signal });
  if (!response.ok) throw new Error(`Cannot follow ${runId}: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer.slice(0, end).match(/^data: (.*)$/m)?.[1];
      buffer = buffer.slice(end + 2);
      if (data && state.selected === runId) render(JSON.parse(data));
      end = buffer.indexOf('\n\n');
    }
  }
  if (state.selected === runId) await Promise.all([refreshHeader(), refreshRuns()]);
}

let textBlock = null;
function render(event) {
  const transcript = $('transcript');
  const add = (className, text) => {
    textBlock = null;
    const item = element('li', className, text);
    transcript.append(item);
    return item;
  };
  switch (event.type) {
    case 'text_delta':
      if (!textBlock) {
        textBlock = element('li', 'text');
        transcript.append(textBlock);
      }
      textBlock.textContent += event.content;
      break;
    case 'tool_call':
      add('tool', `● ${event.tool_name}(${JSON.stringify(event.args).slice(0, 120)})`);
      break;
    case 'tool_result':
      add('result', `  ↳ ${event.result.split('\n').slice(0, 4).join('\n    ')}`);
      break;
    case 'interaction_request': {
      const item = add('ask', `? ${event.prompt} `);
      item.dataset.requestId = event.request_id;
      item.append(...decisionButtons({ id: event.request_id, kind: event.kind, options: event.options }));
      // Replaying a decided request shows its decision, not buttons.
      void api('GET', `/runtime/approvals/${event.request_id}`)
        .then((approval) => approval.status !== 'pending' && markDecided(approval))
        .catch(() => undefined);
      void refreshApprovals();
      break;
    }
    case 'user_input_received':
      add('user', `» you: ${event.content}`);
      break;
    case 'retry':
      add('muted', `↻ retry ${event.attempt}/${event.max_attempts}: ${event.error}`);
      break;
    case 'circuit_breaker':
      add('bad', `⛔ circuit breaker: ${event.reason}`);
      break;
    case 'error':
      add('bad', `Error [${event.error.code}]: ${event.error.message}`);
      break;
    case 'cancelled':
      add('muted', 'Cancelled.');
      break;
    case 'done':
      add('muted', `Done · ${event.usage.total_tokens} tokens`);
      break;
  }
  void refreshHeader();
}

$('start-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('start-error').textContent = '';
  try {
    const run = await api('POST', '/runtime/runs', {
      prompt: $('prompt').value,
      workdir: $('workdir').value,
    });
    $('prompt').value = '';
    await select(run.id);
  } catch (error) {
    $('start-error').textContent = error.message;
  }
});

for (const control of document.querySelectorAll('#controls button')) {
  control.addEventListener('click', async () => {
    try {
      const run = await api('POST', `/runtime/runs/${state.selected}/${control.dataset.control}`);
      // resume and retry queue the run again: follow it from the start of the new stream.
      if (run.status === 'queued') await select(run.id);
      else await refreshHeader();
    } catch (error) {
      $('run-error').textContent = error.message;
    }
  });
}

$('input-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await api('POST', `/runtime/runs/${state.selected}/input`, { content: $('input-text').value });
    $('input-text').value = '';
  } catch (error) {
    $('run-error').textContent = error.message;
  }
});

$('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  state.key = $('key-input').value;
  localStorage.setItem('keel.apiKey', state.key);
  $('key-form').hidden = true;
  await start();
});

async function start() {
  try {
    const info = await api('GET', '/console/info');
    $('server-info').textContent = `v${info.version} · ${info.workdir}`;
    if (!$('workdir').value) $('workdir').value = info.workdir;
    await Promise.all([refreshRuns(), refreshApprovals()]);
  } catch {
    // A 401 showed the key form; anything else shows on the next refresh.
  }
}

setInterval(() => {
  if (!$('key-form').hidden) return;
  void refreshRuns().catch(() => undefined);
  void refreshApprovals().catch(() => undefined);
}, 2000);
void start();
