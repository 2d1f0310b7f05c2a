/**
 * What the Sharing construct (lib/) shares with the share-import function: where bundles
 * and refused envelopes are kept, who is trusted and how that is written, and the event
 * that announces a bundle. Re-exports only, so that lib/ imports this one file.
 */
export { sharingKeys } from '../../core/shared/sharing-keys.js';
export {
  parseTrustedPublishers,
  TrustedPublisherSchema,
  type TrustedPublisher,
} from './trusted-publishers.js';
export { BUNDLE_PUBLISHED } from '../../core/schemas/sharing.js';
