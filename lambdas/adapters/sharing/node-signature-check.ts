/**
 * TEMPORARY placeholder so that the share-import handler compiles before the branch that
 * writes the node:crypto signature check is merged; that branch's file replaces this one.
 */
import type { SignatureCheck } from '../../sharing-ports.js';

export const nodeSignatureCheck: SignatureCheck = {
  verify() {
    throw new Error('not merged yet');
  },
};
