import { spawn } from 'node:child_process';
import { access, constants, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { createSandbox, type RuntimeConfig, type Sandbox, sandboxStatus } from '@keel/runtime';
import { findExecutable, lspLanguages, serverDefinition } from '@keel/runtime/internal';
import { type DoctorCheck, fail, messageOf, ok, warn } from './doctor-check.ts';
import { firstLine } from './doctor-system.ts';

/** How long the sandbox's test command (or the container engine) may take. */
const probeTimeoutMs = 10_000;
const turnOff = 'keel config set sandbox.enabled false';

/**
 * The sandbox a run would confine commands in (create-sandbox.ts decides, from config `sandbox` and this
 * machine), and whether it works: bubblewrap and Seatbelt run a test command confined; a container engine
 * is asked for its version; the remote backend needs its token.
 */
export async function sandboxCheck(
  config: RuntimeConfig,
  env: NodeJS.ProcessEnv,
  home: string,
): Promise<DoctorCheck> {
  const settings = config.sandbox;
  // As a run's tool context sets it up (runs/tool-context.ts).
  const environment = {
    searchPath: env.PATH ?? '',
    env,
    strictReadBoundary: config.security?.strict_read_boundary ?? true,
    hiddenPaths: [home],
  };
  const status = sandboxStatus(settings, environment);
  if (settings?.enabled === false) {
    return warn(
      'sandbox',
      status.reason,
      'To confine commands again: keel config set sandbox.enabled null (Keel then uses the backend this machine has).',
    );
  }
  let sandbox: Sandbox | undefined;
  try {
    sandbox = createSandbox(settings, environment);
  } catch (error) {
    return fail(
      'sandbox',
      messageOf(error),
      'Correct the sandbox settings (keel config show lists them; keel config set sandbox.<key> <value>).',
    );
  }
  if (sandbox === undefined) {
    return fail(
      'sandbox',
      status.reason,
      process.platform === 'linux'
        ? `Install bubblewrap (apt-get install bubblewrap), or run commands unconfined on purpose: ${turnOff}.`
        : `Use a container backend (keel config set sandbox.backend docker), or run commands unconfined on purpose: ${turnOff}.`,
    );
  }
  if (sandbox.name === 'remote') {
    const token = settings?.remote?.token_env;
    return token && !env[token]
      ? fail(
          'sandbox',
          `remote: ${token} (sandbox.remote.token_env) is not set, so commands will be refused.`,
          `export ${token}=<the provider's token>.`,
        )
      : ok(
          'sandbox',
          `remote, at sandbox.remote.url (the provider was not asked; network: ${status.network})`,
        );
  }
  const problem = await probe(sandbox, env);
  if (problem !== undefined) {
    return fail('sandbox', `${sandbox.name}: ${problem.what}`, problem.fix);
  }
  return ok('sandbox', `${sandbox.name} confines commands (network: ${status.network})`);
}

/** Why the sandbox does not work here, or undefined when it does (or cannot be tried without a provider). */
async function probe(
  sandbox: Sandbox,
  env: NodeJS.ProcessEnv,
): Promise<{ what: string; fix: string } | undefined> {
  const searchPath = env.PATH ?? '';
  if (sandbox.name === 'docker' || sandbox.name === 'podman') {
    if ((await findExecutable(sandbox.name, searchPath)) === undefined) {
      return {
        what: `${sandbox.name} is not on PATH.`,
        fix: `Install ${sandbox.name}, or choose another backend: keel config set sandbox.backend auto.`,
      };
    }
    const run = await collect([sandbox.name, 'version'], env);
    return run.code === 0
      ? undefined
      : {
          what: `${sandbox.name} version failed: ${run.why}`,
          fix: `Start the ${sandbox.name} service (and make sure you may use it), or: keel config set sandbox.backend auto.`,
        };
  }
  // bubblewrap or Seatbelt: a test command, confined as a run's would be, in a folder of its own.
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'keel-doctor-')));
  try {
    let argv: string[];
    try {
      argv = await sandbox.wrap({ argv: ['true'], cwd: dir, writableRoots: [dir] });
    } catch (error) {
      return {
        what: messageOf(error),
        fix:
          sandbox.name === 'bubblewrap'
            ? `Install it (Debian/Ubuntu: apt-get install bubblewrap), or run commands unconfined on purpose: ${turnOff}.`
            : `Check that sandbox-exec runs here, or run commands unconfined on purpose: ${turnOff}.`,
      };
    }
    const run = await collect(argv, env);
    return run.code === 0
      ? undefined
      : {
          what: `a test command failed in the sandbox: ${run.why}`,
          fix:
            sandbox.name === 'bubblewrap'
              ? `bubblewrap needs unprivileged user namespaces (kernel.unprivileged_userns_clone=1; in a container, allow them), or run commands unconfined on purpose: ${turnOff}.`
              : `Check that sandbox-exec runs here, or run commands unconfined on purpose: ${turnOff}.`,
        };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The language servers the lsp_* tools would start (tools/lsp/server-definitions.ts): the built-in ones
 * where their npm package is installed, or the command config `lsp.servers` names, found on PATH.
 */
export async function languageServersCheck(
  config: RuntimeConfig,
  env: NodeJS.ProcessEnv,
): Promise<DoctorCheck> {
  const found: string[] = [];
  const missing: string[] = [];
  for (const language of lspLanguages) {
    const definition = serverDefinition(language, config.lsp);
    if (definition.problem !== undefined) {
      missing.push(definition.problem);
      continue;
    }
    const command = definition.command;
    // A name is looked up on PATH when the server starts; a path is used as it is.
    const present = command.includes(sep)
      ? await isExecutable(command)
      : (await findExecutable(command, env.PATH ?? '')) !== undefined;
    if (present) found.push(`${language} (${definition.name})`);
    else
      missing.push(
        `lsp.servers.${language}.command is ${command}, which is not on PATH: install it or correct the setting.`,
      );
  }
  if (found.length === 0) {
    return warn(
      'language-servers',
      `none found: the lsp_* tools (diagnostics, definitions, references) cannot be used.`,
      missing.join(' '),
    );
  }
  const rest = missing.length > 0 ? `; not found: ${missing.join(' ')}` : '';
  return ok('language-servers', `${found.join(', ')}${rest}`);
}

/** Runs `argv` to its end (at most probeTimeoutMs): its exit code and, when it failed, why in a line. */
function collect(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; why: string }> {
  return new Promise((resolve) => {
    const [program, ...args] = argv as [string, ...string[]];
    const child = spawn(program, args, {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: probeTimeoutMs,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.on('error', (error) => resolve({ code: null, why: error.message }));
    child.on('close', (code, signal) =>
      resolve({
        code,
        why:
          firstLine(stderr) ||
          (signal ? `stopped by ${signal} (no answer in ${probeTimeoutMs / 1000} s)` : `exit ${code}`),
      }),
    );
  });
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
