// The pure parts of the language-server tools: positions, languages, settings, definitions, the text of
// diagnostics and the wait for published diagnostics. The servers themselves are exercised by the other
// files of this folder.
import { describe, expect, test } from 'vitest';
import { diagnosticsText } from '../../../src/tools/lsp/diagnostics-text.ts';
import { languageOf } from '../../../src/tools/lsp/languages.ts';
import { lspTimeouts, mergeLspConfig } from '../../../src/tools/lsp/lsp-config.ts';
import { fromLspPosition, symbolColumn, textLines, toLspPosition } from '../../../src/tools/lsp/positions.ts';
import { PublishedDiagnostics } from '../../../src/tools/lsp/published-diagnostics.ts';
import { serverDefinition } from '../../../src/tools/lsp/server-definitions.ts';
import { settingsSection } from '../../../src/tools/lsp/server-handshake.ts';

describe('positions', () => {
  const lines = textLines('const a = 1;\r\nconst 🎉 = "x"; const b = a;\n');

  test('1-based character columns become 0-based UTF-16 offsets and back', () => {
    expect(lines).toEqual(['const a = 1;', 'const 🎉 = "x"; const b = a;', '']);
    // `b` is the 22nd character of line 2, but the 23rd UTF-16 unit (the emoji takes two).
    expect(toLspPosition(lines, 2, 22, 'f.ts')).toEqual({ line: 1, character: 22 });
    expect(fromLspPosition({ line: 1, character: 22 }, lines[1])).toEqual({ line: 2, column: 22 });
    // Without the line's text, the offset is taken as it is.
    expect(fromLspPosition({ line: 1, character: 22 }, undefined)).toEqual({ line: 2, column: 23 });
    // The end of a line is a position too.
    expect(toLspPosition(lines, 1, 13, 'f.ts')).toEqual({ line: 0, character: 12 });
  });

  test('positions off the text are refused with what the file has', () => {
    expect(() => toLspPosition(lines, 3, 1, 'f.ts')).toThrow(
      'Line 3 is past the end of f.ts, which has 2 lines.',
    );
    expect(() => toLspPosition(lines, 1, 14, 'f.ts')).toThrow(
      'Column 14 is past the end of line 1 of f.ts, which has 12 characters: "const a = 1;".',
    );
    expect(() => toLspPosition(textLines(''), 1, 1, 'empty.ts')).not.toThrow();
  });

  test('a symbol is found as a whole word, after emoji too', () => {
    expect(symbolColumn(lines[1] ?? '', 'b', 2, 'f.ts')).toBe(22);
    expect(symbolColumn('const ab = a;', 'a', 1, 'f.ts')).toBe(12);
    expect(symbolColumn('x.$el = $el2 + $el', '$el', 1, 'f.ts')).toBe(3);
    expect(() => symbolColumn('const ab = 1;', 'a', 1, 'f.ts')).toThrow(
      '\'a\' does not appear as a name on line 1 of f.ts: "const ab = 1;".',
    );
  });
});

describe('languages, settings and server definitions', () => {
  test('languages by extension', () => {
    expect(languageOf('/p/a.tsx', 'a.tsx')).toEqual({
      language: 'typescript',
      languageId: 'typescriptreact',
    });
    expect(languageOf('/p/a.MJS', 'a.MJS')).toEqual({ language: 'typescript', languageId: 'javascript' });
    expect(languageOf('/p/stubs.pyi', 'stubs.pyi')).toEqual({ language: 'python', languageId: 'python' });
    expect(() => languageOf('/p/a.rs', 'a.rs')).toThrow(
      'No language server for a.rs: it has the extension .rs.',
    );
  });

  test('workspace/configuration answers by dotted section', () => {
    const settings = { python: { analysis: { typeCheckingMode: 'strict' } } };
    expect(settingsSection(settings, 'python.analysis')).toEqual({ typeCheckingMode: 'strict' });
    expect(settingsSection(settings, 'python.missing')).toBeNull();
    expect(settingsSection(settings, undefined)).toBe(settings);
  });

  test('config lsp: defaults, and an embedder’s settings over the files’ by language', () => {
    expect(lspTimeouts(undefined)).toEqual({
      idleMs: 300_000,
      startMs: 30_000,
      requestMs: 30_000,
      diagnosticsMs: 30_000,
    });
    const merged = mergeLspConfig(
      { idle_timeout_ms: 1_000, servers: { python: { command: 'pylsp' }, typescript: { command: 'tls' } } },
      { start_timeout_ms: 5, servers: { python: { command: 'pyright-langserver', args: ['--stdio'] } } },
    );
    expect(merged).toEqual({
      idle_timeout_ms: 1_000,
      start_timeout_ms: 5,
      servers: {
        python: { command: 'pyright-langserver', args: ['--stdio'] },
        typescript: { command: 'tls' },
      },
    });
  });

  test('the built-in servers run on this Node from their packages; a command replaces them', () => {
    const typescript = serverDefinition('typescript', undefined);
    expect(typescript).toMatchObject({
      name: 'typescript-language-server',
      command: process.execPath,
      args: [expect.stringMatching(/typescript-language-server[/\\]lib[/\\]cli\.mjs$/), '--stdio'],
      settings: { diagnostics: { eagerClear: true } },
      initializationOptions: {
        disableAutomaticTypingAcquisition: true,
        tsserver: { fallbackPath: expect.stringMatching(/typescript[/\\]lib[/\\]tsserver\.js$/) },
      },
    });
    expect(typescript.problem).toBeUndefined();
    expect(serverDefinition('python', undefined).args[0]).toMatch(/pyright[/\\]langserver\.index\.js$/);
    const custom = serverDefinition('python', {
      servers: { python: { command: '/opt/bin/pylsp', env: { A: '1' }, settings: { pylsp: {} } } },
    });
    expect(custom).toMatchObject({ name: 'pylsp', command: '/opt/bin/pylsp', args: [], env: { A: '1' } });
    expect(custom.settings).toEqual({ pylsp: {} });
  });
});

describe('the text of diagnostics', () => {
  const lines = ['let a = 1', 'let b: string = 2'];
  const range = (line: number, from: number, to: number) => ({
    start: { line, character: from },
    end: { line, character: to },
  });

  test('counts by severity, entries in position order, hints only when asked', () => {
    const diagnostics = [
      { range: range(1, 4, 5), severity: 1, code: 2322, source: 'ts', message: 'Bad type.\n  Details here.' },
      { range: range(0, 4, 5), severity: 4, code: 6133, source: 'ts', message: "'a' is unused." },
      { range: range(0, 0, 3), severity: 2, message: 'Prefer const.' },
    ];
    expect(diagnosticsText({ shown: 'x.ts', lines, diagnostics, server: 'srv', includeHints: false })).toBe(
      [
        'x.ts: 1 error, 1 warning, 1 hint (srv) (1 hint not listed: call again with include_hints true to see them)',
        'x.ts:1:1-1:4 warning: Prefer const.',
        '    1 | let a = 1',
        'x.ts:2:5-2:6 error ts(2322): Bad type.',
        '      Details here.',
        '    2 | let b: string = 2',
      ].join('\n'),
    );
    expect(
      diagnosticsText({ shown: 'x.ts', lines, diagnostics, server: 'srv', includeHints: true }),
    ).toContain("x.ts:1:5-1:6 hint ts(6133): 'a' is unused.");
    expect(
      diagnosticsText({
        shown: 'x.ts',
        lines,
        diagnostics: [diagnostics[1]!],
        server: 'srv',
        includeHints: false,
      }),
    ).toBe('No problems in x.ts (srv). (1 hint not listed: call again with include_hints true to see them)');
  });
});

describe('waiting for published diagnostics', () => {
  const uri = 'file:///p/a.ts';
  const never = new Promise<never>(() => {});
  const wait = (
    published: PublishedDiagnostics,
    extra: Partial<Parameters<PublishedDiagnostics['forText']>[0]>,
  ) =>
    published.forText({
      uri,
      version: 2,
      after: published.mark,
      sentAt: Date.now(),
      timeoutMs: 5_000,
      signal: new AbortController().signal,
      stopped: never,
      ...extra,
    });
  const message = (text: string) => [
    { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: text },
  ];

  test('with versions: the publication for the version sent, older ones ignored', async () => {
    const published = new PublishedDiagnostics();
    const waiting = wait(published, {});
    published.record({ uri, version: 1, diagnostics: message('old') });
    published.record({ uri, version: 2, diagnostics: message('new') });
    expect((await waiting)?.diagnostics[0]?.message).toBe('new');
  });

  test('without versions: the first publication after the mark, once the server has gone quiet', async () => {
    const published = new PublishedDiagnostics();
    published.record({ uri, diagnostics: message('before the change') });
    const waiting = wait(published, {});
    published.record({ uri, diagnostics: [] });
    setTimeout(() => published.record({ uri, diagnostics: message('types, a moment later') }), 50);
    expect((await waiting)?.diagnostics[0]?.message).toBe('types, a moment later');
  });

  test('nothing in time, a cancellation, and a server that stops each end the wait', async () => {
    const published = new PublishedDiagnostics();
    expect(await wait(published, { timeoutMs: 50 })).toBeUndefined();
    const controller = new AbortController();
    const cancelled = wait(published, { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    let stop: (error: Error) => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    const dying = wait(published, { stopped });
    stop(new Error('the server exited'));
    await expect(dying).rejects.toThrow('the server exited');
  });
});
