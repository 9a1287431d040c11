export { type NavigationVerdict, navigationVerdict } from './navigation.ts';
export {
  type DesktopWindow,
  type OpenWindowOptions,
  startWindowProcess,
  type WindowEvents,
  type WindowProcess,
} from './window.ts';
