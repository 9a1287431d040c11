import { errorOf, type RawRequest, rawRequest } from './hostile.ts';

/** A name an attacker's DNS points at 127.0.0.1 (DNS rebinding): no Keel service may answer it. */
export const reboundHost = 'rebind.attacker.example';

/** An origin no Keel service trusts: a hostile web page the user has open. */
export const evilOrigin = 'http://evil.example:8000';

/** The spellings of a rebound Host header a guard must refuse, port or none, case and trailing dot. */
export function reboundHosts(port: number): string[] {
  return [
    `${reboundHost}:${port}`,
    reboundHost,
    `${reboundHost.toUpperCase()}.:${port}`,
    `x@127.0.0.1:${port}`,
  ];
}

export interface AttackAnswer {
  /** `METHOD path with Host …`: what a failed expectation names. */
  label: string;
  status: number;
  body: string;
  error: ReturnType<typeof errorOf>;
}

/** Each request of `attacks` sent over a real socket under every rebound Host, with what came back. */
export async function reboundAnswers(
  port: number,
  attacks: readonly Pick<RawRequest, 'method' | 'path' | 'body'>[],
): Promise<AttackAnswer[]> {
  const answers: AttackAnswer[] = [];
  for (const attack of attacks) {
    for (const host of reboundHosts(port)) {
      const answer = await rawRequest(port, {
        method: attack.method,
        path: attack.path,
        headers: { host, 'content-type': 'application/json' },
        ...(attack.body ? { body: attack.body } : {}),
      });
      answers.push({
        label: `${attack.method} ${attack.path} with Host ${host}`,
        status: answer.status,
        body: answer.body,
        error: errorOf(answer),
      });
    }
  }
  return answers;
}
