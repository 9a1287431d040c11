export { AnswerHeaders } from './answer-headers.ts';
export { nodeHttp, nodeHttps, nodeZlib } from './builtins.ts';
export { decodedBody } from './decoded-body.ts';
