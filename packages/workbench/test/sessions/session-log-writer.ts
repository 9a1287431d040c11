// A process appending to one session log until it is killed (session-log-crash.test.ts): what the
// workbench does while a runner streams. Arguments: the log directory and the session id. It opens the
// log as a restarted workbench would (repairing a torn tail), prints the seq it starts after, then appends
// entries whose content is a function of their seq, so a reader can tell a torn or doubled line.
import { join } from 'node:path';
import { SessionLog } from '../../src/sessions/session-log.ts';
import { entryContent } from './session-log-content.ts';

const [dir, sessionId] = process.argv.slice(2) as [string, string];
const log = new SessionLog((id) => join(dir, `${id}.jsonl`));
const after = await log.lastSeq(sessionId);
process.stdout.write(`after ${after}\n`);
// Small batches between turns of the event loop, as a runner's events arrive (the log writes what queued
// meanwhile in one write); the test kills it anywhere.
// At most `cap` entries per start, then it idles until killed: on a busy machine the kill can come seconds
// late, and an unbounded writer grew the log past what the test can read back (over 512 MB).
const cap = 20_000;
let written = 0;
const batch = (): void => {
  for (let i = 0; i < 20; i++) {
    // Appends land in order, none fails: this one's seq is the next.
    const seq = after + written + i + 1;
    void log.append(sessionId, { type: 'text_delta', content: entryContent(seq) });
  }
  written += 20;
  if (written < cap) setImmediate(batch);
  else setInterval(() => {}, 60_000);
};
batch();
