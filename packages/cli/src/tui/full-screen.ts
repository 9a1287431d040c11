import { render } from 'ink';
import React from 'react';
import type { TuiController } from './controller.ts';
import { App } from './view/app.ts';

/**
 * Shows the TUI in the terminal's alternate screen until the user quits, then cancels any run in progress
 * and restores the terminal (main screen, cooked mode, cursor), also on SIGTERM, SIGHUP or an outside SIGINT.
 */
export async function showFullScreen(controller: TuiController): Promise<void> {
  const instance = render(React.createElement(App, { controller }), {
    alternateScreen: true,
    // Ctrl-C is a key here (cancel, then quit), not a signal that kills the process mid-run.
    exitOnCtrlC: false,
    // Decided by the caller, who checked for a terminal: CI=true in the environment must not turn it off.
    interactive: true,
  });
  const onSignal = () => controller.quit();
  const signals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
  for (const signal of signals) process.on(signal, onSignal);
  try {
    await Promise.race([controller.quitRequested, instance.waitUntilExit()]);
    await controller.shutdown();
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    instance.unmount();
    await instance.waitUntilExit().catch(() => undefined);
  }
}
