/**
 * The DSSE envelope of a shared learning bundle (envelope.md): made around a payload and its
 * signature, and opened on receipt far enough to check the signature, no further. The
 * payload is not read as a bundle here: that waits until the signature holds.
 */
import {
  DsseEnvelopeSchema,
  SHARE_PAYLOAD_TYPE,
  type DsseEnvelope,
  type QuarantineReason,
} from '../schemas/sharing.js';
import { formatZodIssues } from '../shared/validation.js';
import { pae } from './pae.js';

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
export const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/** A key's signature over a payload's PAE. */
export interface SignatureOf {
  keyId: string;
  signature: Uint8Array;
}

/**
 * @example
 * const payload = new TextEncoder().encode(JSON.stringify(bundle));
 * envelopeOf(payload, { keyId: signer.keyId, signature: await signer.sign(pae(SHARE_PAYLOAD_TYPE, payload)) });
 */
export function envelopeOf(payload: Uint8Array, ...signatures: SignatureOf[]): DsseEnvelope {
  return {
    payloadType: SHARE_PAYLOAD_TYPE,
    payload: toBase64(payload),
    signatures: signatures.map(({ keyId, signature }) => ({
      keyid: keyId,
      sig: toBase64(signature),
    })),
  };
}

/** The bytes to sign or verify for `payload` as a shared bundle. */
export const signedBytesOf = (payload: Uint8Array) => pae(SHARE_PAYLOAD_TYPE, payload);

/** An envelope whose signatures can be checked: its payload (unread) and what was signed. */
export interface OpenedEnvelope {
  ok: true;
  envelope: DsseEnvelope;
  payload: Uint8Array;
  /** The PAE of the envelope's payload type and payload: what each signature covers. */
  signed: Uint8Array;
}

export interface Refusal {
  ok: false;
  reason: QuarantineReason;
  detail: string;
}

/**
 * Reads the envelope, checks its payload type and that it carries a signature. Never reads
 * the payload: a bundle's content is looked at only once a trusted key's signature holds.
 *
 * @example
 * const opened = openEnvelope(await readFile('bundle.dsse.json'));
 * if (!opened.ok) await quarantine.put({ ...opened, digest, origin, at }, bytes);
 */
export function openEnvelope(bytes: Uint8Array): OpenedEnvelope | Refusal {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    return refuse('malformed', `not a JSON DSSE envelope (${(error as Error).message})`);
  }
  const parsed = DsseEnvelopeSchema.safeParse(value);
  if (!parsed.success)
    return refuse(
      'malformed',
      `not a DSSE envelope: ${formatZodIssues(parsed.error, DsseEnvelopeSchema).join('; ')}`,
    );
  const envelope = parsed.data;
  if (envelope.payloadType !== SHARE_PAYLOAD_TYPE)
    return refuse(
      'wrong_payload_type',
      `payloadType is ${JSON.stringify(envelope.payloadType)}, not ${SHARE_PAYLOAD_TYPE}`,
    );
  if (envelope.signatures.length === 0)
    return refuse('unsigned', 'the envelope carries no signature');
  const payload = fromBase64(envelope.payload);
  return { ok: true, envelope, payload, signed: pae(envelope.payloadType, payload) };
}

const refuse = (reason: QuarantineReason, detail: string): Refusal => ({
  ok: false,
  reason,
  detail,
});
