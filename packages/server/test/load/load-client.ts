// A second process that loads a server: `node load-client.ts '<json options>'`. Sends `requests` GETs
// over `paths` with `concurrency` in flight, and prints one JSON array with what each answer said.
const { base, token, requests, concurrency, paths } = JSON.parse(process.argv[2] ?? '{}') as {
  base: string;
  token: string;
  requests: number;
  concurrency: number;
  paths: string[];
};

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  retryAfter: string | null;
  code: string | null;
}

const answers: Answer[] = new Array(requests);
let next = 0;
async function worker(): Promise<void> {
  while (next < requests) {
    const index = next++;
    const response = await fetch(`${base}${paths[index % paths.length]}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { error?: { code?: string } };
    answers[index] = {
      status: response.status,
      limit: response.headers.get('x-ratelimit-limit'),
      remaining: response.headers.get('x-ratelimit-remaining'),
      retryAfter: response.headers.get('retry-after'),
      code: body.error?.code ?? null,
    };
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
process.stdout.write(JSON.stringify(answers));
