export { SlidingWindowLimiter, type SlidingWindowOptions, type WindowDecision } from './sliding-window.ts';
