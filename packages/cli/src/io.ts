/** What a command reads and writes, injectable so tests can run the CLI in process. */
export interface CliIo {
  /** Standard input (default: process.stdin), for commands that read lines, such as `keel chat`. */
  in?: NodeJS.ReadableStream;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Set by a command; main returns it. */
  exitCode: number;
}
