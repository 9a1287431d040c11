import { loadConfigReport } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import type { Command } from 'commander';
import { printError, printJson, type WorkdirFlags, workdirOf, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { terminalSafe } from '../render/terminal-safe.ts';
import { describe } from './descriptions.ts';
import { count, type DoctorCheck, type DoctorModel, warn } from './doctor-check.ts';
import { endpointCheck, modelCheck } from './doctor-model.ts';
import { projectConfigCheck, workdirCheck } from './doctor-project.ts';
import { gitCheck, nodeCheck, runtimeHomeCheck, storeCheck } from './doctor-system.ts';
import { toolCallingCheck } from './doctor-tool-calling.ts';
import { languageServersCheck, sandboxCheck } from './doctor-tools.ts';

interface DoctorFlags extends WorkdirFlags {
  json?: boolean;
}

/** `keel doctor`: what a run needs, checked one by one, each not ok with what to do. Exit 1 when one fails. */
export function registerDoctor(program: Command, io: CliIo): void {
  workdirOption(program.command('doctor'))
    .description(describe('doctor'))
    .option('--json', 'print JSON: { checks: [{ name, status, detail, fix?, server?, models? }] }')
    .action(async (flags: DoctorFlags) => {
      try {
        const checks = await doctorChecks(io, workdirOf(io, flags));
        if (flags.json) printJson(io, { checks });
        else io.out.write(terminalSafe(formatChecks(checks)));
        io.exitCode = checks.some((check) => check.status === 'fail') ? 1 : 0;
      } catch (error) {
        printError(io, error);
        io.exitCode = 1;
      }
    });
}

/**
 * Every check, in the order shown. The configuration is read once, as a run reads it (the project file over
 * the global one, its security keys only when trusted): the model, sandbox, language servers and store are
 * judged by what a run in `workdir` would use. Checks that start programs or ask the network run together.
 */
export async function doctorChecks(io: CliIo, workdir: string): Promise<DoctorCheck[]> {
  const env = readEnv(io.env);
  let report: ReturnType<typeof loadConfigReport> | Error;
  try {
    report = loadConfigReport(env.home, workdir);
  } catch (error) {
    report = error instanceof Error ? error : new Error(String(error));
  }
  const config = report instanceof Error ? undefined : report.config;
  const unread = (name: string) =>
    warn(
      name,
      'not checked: the configuration cannot be read (see project-config).',
      'Fix the configuration first.',
    );
  // First: the store check opens a database in it.
  const home = await runtimeHomeCheck(env.home);
  return [
    nodeCheck(),
    ...(
      await Promise.all([
        gitCheck(),
        home,
        config ? storeCheck(io.env, env.home, workdir, config) : unread('store'),
        workdirCheck(workdir),
        projectConfigCheck(report),
        config ? modelCheck(config, env) : unread('model'),
        config ? endpointChecks(config, env) : [unread('model-endpoint'), unread('tool-calling')],
        config ? sandboxCheck(config, io.env, env.home) : unread('sandbox'),
        config ? languageServersCheck(config, io.env) : unread('language-servers'),
      ])
    ).flat(),
  ];
}

/** The endpoint's models, then whether the configured model calls tools there (only once it was found). */
async function endpointChecks(
  config: NonNullable<Parameters<typeof endpointCheck>[0]>,
  env: ReturnType<typeof readEnv>,
): Promise<DoctorCheck[]> {
  const found = await endpointCheck(config, env);
  return [found.check, await toolCallingCheck(found)];
}

/** How many of an endpoint's models the text output lists. */
const shownModels = 20;

/** The lines under a check that lists models: each with its context length and tool support where known. */
function modelLines(models: readonly DoctorModel[], indent: string): string[] {
  const width = Math.max(...models.slice(0, shownModels).map((model) => model.id.length)) + 2;
  const lines = models.slice(0, shownModels).map((model) => {
    const said = [
      ...(model.context_length === undefined ? [] : [`context ${model.context_length} tokens`]),
      ...(model.tools === undefined ? [] : [model.tools ? 'tools' : 'no tools']),
    ].join(', ');
    return `${indent}· ${said ? model.id.padEnd(width) + said : model.id}`;
  });
  const more = models.length - shownModels;
  return more > 0 ? [...lines, `${indent}… and ${count(more, 'more model')}`] : lines;
}

/** One line per check (`ok    name   detail`), its fix and an endpoint's models indented below, then a summary. */
export function formatChecks(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((check) => check.name.length)) + 2;
  const indent = ' '.repeat(6 + width);
  const lines = checks.flatMap((check) => [
    `${check.status.padEnd(6)}${check.name.padEnd(width)}${check.detail}`,
    ...(check.fix ? [`${indent}→ ${check.fix}`] : []),
    ...(check.models?.length ? modelLines(check.models, indent) : []),
  ]);
  const failed = checks.filter((check) => check.status === 'fail').length;
  const warned = checks.filter((check) => check.status === 'warn').length;
  const summary =
    failed + warned === 0
      ? 'Everything Keel needs is in place.'
      : `${count(failed, 'failure')}, ${count(warned, 'warning')}.`;
  return `${lines.join('\n')}\n\n${summary}\n`;
}
