/** What the model double records of each request, for tests to assert on. */
import type { IncomingHttpHeaders } from 'node:http';
import type { SigV4Scope } from './bedrock-protocol.js';
import type { ModelProtocol } from './request.js';

/** What the server was sent, in arrival order (including requests it refused). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the text as received when it is not JSON. */
  body: unknown;
  /** The status the server answered with; undefined for a dropped or abandoned request. */
  status?: number;
  /** Undefined for a path neither API serves. */
  protocol?: ModelProtocol;
  /** Bedrock: the model id of the path, decoded. */
  modelId?: string;
  /** Bedrock: the scope of the SigV4 `authorization` header, when the request was signed. */
  sigV4?: SigV4Scope;
}
