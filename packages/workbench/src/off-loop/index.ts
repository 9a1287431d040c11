// Work that would hold the service's event loop (a scan of 100,000 paths, git runs whose spawn alone can
// block for tens of milliseconds on a loaded machine) runs in one worker thread instead, so /health and
// every other request keep being answered meanwhile (issue #44).

export { closeOffLoop, offLoop, offLoopThreadId, prewarmOffLoop } from './off-loop.ts';
