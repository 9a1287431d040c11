export {
  collect,
  type Listening,
  positiveInt,
  runServiceProgram,
  type ServeFlags,
  type ServiceProgram,
  serveUntilStopped,
} from './service-program.ts';
