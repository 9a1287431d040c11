/**
 * An abort signal for Ctrl-C and SIGTERM, for the length of a command. Disposing it removes the
 * listeners, so an in-process caller running many commands does not collect them.
 */
export function interruptSignal(): { signal: AbortSignal } & Disposable {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    [Symbol.dispose]() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
