import type { ContextBudget } from '../context/index.ts';
import { KeelError } from '../errors/index.ts';
import { defaultModelBaseUrl, type ModelClient } from '../model/index.ts';

/**
 * Context windows servers named when they refused a conversation as too long, by endpoint and model, for
 * the life of the process: each run makes its own client, and none should overflow the same window again.
 */
const learned = new Map<string, number>();

const keyOf = (client: ModelClient) =>
  `${client.settings.baseURL ?? defaultModelBaseUrl}\n${client.settings.model}`;

/**
 * A model error saying the request does not fit the model's context window (map-error.ts recognises each
 * server's words), with the window when the server named it; null for any other error.
 */
export function contextOverflow(error: unknown): { window: number | undefined } | null {
  if (!KeelError.is(error) || error.code !== 'MODEL_ERROR') return null;
  if (error.details?.reason !== 'context_length') return null;
  const window = error.details.window;
  return { window: typeof window === 'number' && window > 0 ? window : undefined };
}

/** Remembers the window a server named for this client's endpoint and model (the smallest one named). */
export function rememberWindow(client: ModelClient, window: number): void {
  const key = keyOf(client);
  learned.set(key, Math.min(window, learned.get(key) ?? window));
}

/**
 * The budget to keep the context in: the configured one, its window lowered to what the server said it
 * is when that is smaller (the server is the judge; the configuration or the built-in table may be wrong).
 */
export function withLearnedWindow(budget: ContextBudget | null, client: ModelClient): ContextBudget | null {
  const window = learned.get(keyOf(client));
  return budget && window !== undefined && window < budget.window ? { ...budget, window } : budget;
}
