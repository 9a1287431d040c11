import { z } from 'zod';

// The window process and the shell talk in JSON lines over the window process's stdin and stdout.

/** What the shell tells the window. */
export const toWindow = z.discriminatedUnion('type', [
  /** The first line: what to show, where WebKit keeps its data, and the key the page needs, if any. */
  z.object({
    type: z.literal('open'),
    url: z.string().url(),
    data_dir: z.string(),
    api_key: z.string().optional(),
  }),
  /** Bring the window to the front; with `url` (a page of the service), show it. */
  z.object({ type: z.literal('focus'), url: z.string().url().optional() }),
  /** How many tasks wait for the user: the window title starts with it. */
  z.object({ type: z.literal('attention'), count: z.number().int().min(0) }),
  z.object({ type: z.literal('close') }),
]);
export type ToWindow = z.infer<typeof toWindow>;

/** What the window tells the shell. */
export const fromWindow = z.discriminatedUnion('type', [
  /** No window can be shown here (no display, the libraries missing): why, in words. */
  z.object({ type: z.literal('unavailable'), reason: z.string() }),
  /** The window is on screen. */
  z.object({ type: z.literal('shown') }),
  /** The page rendered its first heading (the SPA is up), and its title. */
  z.object({ type: z.literal('page'), heading: z.string(), title: z.string() }),
  z.object({ type: z.literal('focused') }),
  /** A link the window does not load: open it in the user's browser. */
  z.object({ type: z.literal('external'), url: z.string() }),
  /** The page's own "Notify me when work ends" choice, at each page load and whenever it changes. */
  z.object({ type: z.literal('notify_choice'), on: z.boolean() }),
  /** The user closed the window. */
  z.object({ type: z.literal('closed') }),
]);
export type FromWindow = z.infer<typeof fromWindow>;
