/**
 * What differs between the two APIs the model double speaks (the Messages API and
 * Bedrock's InvokeModel): how a request is checked, how a scripted error is shaped, and
 * the headers of an answer. The rest of an exchange, the script and the answer's body, is
 * the same for both.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SigV4Scope } from './bedrock-protocol.js';
import type { HttpAnswer } from './http.js';
import type { Usage } from './message-answer.js';
import type { MessagesRequestBody, ModelProtocol } from './request.js';
import type { ErrorStep } from './script.js';

/**
 * A request as the API checked it: the body to answer, or the refusal to send; and, for
 * a SigV4-signed Bedrock request that got past the signature check, its scope.
 */
export type Admission = { sigV4?: SigV4Scope } & (
  { admitted: true; body: MessagesRequestBody } | { admitted: false; refusal: HttpAnswer }
);

/** One API the double speaks, for one route. */
export interface ModelApi {
  readonly protocol: ModelProtocol;
  /** Bedrock: the model id of the path, decoded. */
  readonly modelId?: string;
  /** Checks the request as the API does before a model sees it. */
  admit(headers: IncomingHttpHeaders, body: unknown): Admission;
  /** A scripted error, in this API's statuses and error shape. */
  scriptedError(step: ErrorStep): HttpAnswer;
  /** The headers of a successful answer. */
  answerHeaders(usage: Usage): Record<string, string>;
}
