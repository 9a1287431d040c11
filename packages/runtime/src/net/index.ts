export { decodedBody } from './decoded-body.ts';
