/** A command to start inside a sandbox. */
export interface SandboxCommand {
  /** The program and its arguments as they would run without a sandbox. */
  argv: readonly string[];
  /** Directory to start in (inside one of `writableRoots`). */
  cwd: string;
  /**
   * Directories the command may write: the workdir first, then the allowed roots (real paths). Everything
   * else is read-only, and so are the protected paths inside them (`.git/config`, `.git/hooks`, `.runtime/`…).
   */
  writableRoots: readonly string[];
}

/** An OS-level sandbox that confines the commands `exec_command` runs. */
export interface Sandbox {
  /** Its name in messages, e.g. `bubblewrap`. */
  readonly name: string;
  /** The argv that runs the command confined. Throws a ToolError when this machine cannot sandbox it. */
  wrap(command: SandboxCommand): Promise<string[]>;
  /**
   * Variables the wrapped program needs on top of the command's environment, which keeps credentials out:
   * the remote backend's token for its client program (which does not pass it on to the command).
   */
  environment?(): Record<string, string>;
}
