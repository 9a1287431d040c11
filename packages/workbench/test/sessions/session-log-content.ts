/** The text of session log entry `seq` in the crash test: varied lengths, multi-byte characters, its seq. */
export function entryContent(seq: number): string {
  return `${seq}:${'é✓ab'.repeat((seq * 7919) % 97)}:${seq}`;
}
