/**
 * TEMPORARY placeholder so that the share-import handler compiles before the branch that
 * writes receiving a bundle is merged; that branch's file replaces this one whole.
 */
import type { ReceiveReport } from '../schemas/sharing.js';
import type { LearningStore } from '../../learning-ports.js';
import type { Clock } from '../../ports.js';
import type { Quarantine, SignatureCheck, TrustStore } from '../../sharing-ports.js';

export function receiveBundle(
  _deps: {
    learning: LearningStore;
    trust: TrustStore;
    quarantine: Quarantine;
    check: SignatureCheck;
    clock: Clock;
  },
  _envelopeBytes: Uint8Array,
  _origin: string,
): Promise<ReceiveReport> {
  return Promise.reject(new Error('not merged yet'));
}
