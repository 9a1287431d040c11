/**
 * A shell command that waits until a file named `name` exists in its working directory, then prints
 * `word` (default `ready`). Scripted as the model's `exec_command`, it holds a run inside a tool batch
 * until the test creates the file: a deterministic window for doing something "while the run is running",
 * however slow the machine. A word of its own per gate lets a script tell the runs waiting on different
 * gates apart by the tool result they last got. A shell loop of `[`, `sleep` and `echo`, which the
 * default command policy allows.
 */
export function waitForFileCommand(name = 'go', word = 'ready'): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return `until [ -e ${quote(name)} ]; do sleep 0.02; done; echo ${quote(word)}`;
}
