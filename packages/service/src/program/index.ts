export {
  collect,
  type Listening,
  runServiceProgram,
  type ServeFlags,
  type ServiceProgram,
  serveUntilStopped,
} from './service-program.ts';
