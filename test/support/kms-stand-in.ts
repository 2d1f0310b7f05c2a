/**
 * KMS as the SDK meets it (the JSON 1.1 protocol: a signed POST naming the operation in
 * `X-Amz-Target: TrentService.<Operation>`, blobs in base64), answering `Sign` and
 * `GetPublicKey` for its P-256 keys. Like KMS: a RAW message over 4096 bytes, or a DIGEST
 * that is not 32 bytes for ECDSA_SHA_256, is a ValidationException; an unknown key is
 * NotFoundException; a call it was told to fail is a 500 KMSInternalException.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, type Listening } from '../../local/loopback/listen.js';
import { generateP256Key, type P256Key } from './p256-digest-signer.js';

export interface KmsStandIn extends Listening {
  /** The keys it holds, by ARN. */
  readonly keys: ReadonlyMap<string, P256Key>;
  /** Operations asked, in order: `Sign`, `GetPublicKey`. */
  readonly calls: readonly { operation: string; keyId: string; signed: boolean }[];
  /** Answers the next `count` requests with a 500. */
  failNext(count: number): void;
}

const MAX_RAW_MESSAGE = 4096;

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reply(response: ServerResponse, status: number, body: object, errorType?: string): void {
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  response.end(JSON.stringify(errorType ? { __type: errorType, ...body } : body));
}

interface KmsRequest {
  KeyId?: string;
  Message?: string;
  MessageType?: string;
  SigningAlgorithm?: string;
}

/** A KMS key ARN in the stand-in's account and region. */
export const standInKeyArn = (account = '111122223333') =>
  `arn:aws:kms:eu-west-1:${account}:key/${randomUUID()}`;

/** KMS holding one fresh P-256 SIGN_VERIFY key per ARN given. */
export async function startKmsStandIn(keyArns: readonly string[]): Promise<KmsStandIn> {
  const keys = new Map(keyArns.map((arn) => [arn, generateP256Key()]));
  const calls: { operation: string; keyId: string; signed: boolean }[] = [];
  let failures = 0;
  const answer = (operation: string, input: KmsRequest, response: ServerResponse) => {
    const key = keys.get(input.KeyId ?? '');
    if (!key)
      return reply(
        response,
        400,
        { message: `Key '${input.KeyId}' does not exist` },
        'NotFoundException',
      );
    if (operation === 'GetPublicKey')
      return reply(response, 200, {
        KeyId: input.KeyId,
        KeySpec: 'ECC_NIST_P256',
        KeyUsage: 'SIGN_VERIFY',
        PublicKey: key.publicKeyDer.toString('base64'),
        SigningAlgorithms: ['ECDSA_SHA_256'],
      });
    const message = Buffer.from(input.Message ?? '', 'base64');
    const digest = input.MessageType === 'DIGEST';
    if (input.SigningAlgorithm !== 'ECDSA_SHA_256')
      return reply(
        response,
        400,
        { message: 'ECC_NIST_P256 signs with ECDSA_SHA_256 only' },
        'InvalidKeyUsageException',
      );
    if (digest ? message.length !== 32 : message.length > MAX_RAW_MESSAGE)
      return reply(
        response,
        400,
        { message: `bad message length ${message.length}` },
        'ValidationException',
      );
    const hashed = digest ? message : createHash('sha256').update(message).digest();
    return reply(response, 200, {
      KeyId: input.KeyId,
      Signature: key.signDigest(hashed).toString('base64'),
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
  };
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      const operation = String(request.headers['x-amz-target'] ?? '').replace(
        /^TrentService\./,
        '',
      );
      const input = JSON.parse(text || '{}') as KmsRequest;
      const signed = /Credential=[^/]+\//.test(request.headers.authorization ?? '');
      calls.push({ operation, keyId: input.KeyId ?? '', signed });
      if (failures > 0) {
        failures -= 1;
        return reply(response, 500, { message: 'stand-in failure' }, 'KMSInternalException');
      }
      if (!signed || (operation !== 'Sign' && operation !== 'GetPublicKey'))
        return reply(
          response,
          400,
          { message: 'only signed Sign and GetPublicKey' },
          'UnsupportedOperationException',
        );
      answer(operation, input, response);
    });
  });
  const listening = await listenOnLoopback(server);
  return { ...listening, keys, calls, failNext: (count) => void (failures = count) };
}
