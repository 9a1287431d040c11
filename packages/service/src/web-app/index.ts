export { type BuiltAppOptions, builtAppRoutes, findBuiltApp } from './built-app.ts';
