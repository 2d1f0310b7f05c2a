/** How closely the cheap mode tracks the judge, artefact by artefact. */
import { quadraticWeightedKappa } from './kappa.js';
import type { ArtefactGap } from './pairing.js';
import { spearman } from './spearman.js';
import { mean } from '../shared/stats.js';

export interface Agreement {
  /** Mean absolute error; `null` with no artefact. */
  mae: number | null;
  /** Spearman's rho; `null` below two artefacts or with a constant mode. */
  spearman: number | null;
  /** Quadratic-weighted kappa on the 1–5 scale; see `quadraticWeightedKappa` for `null`. */
  qwk: number | null;
}

/**
 * MAE, Spearman's rho and quadratic-weighted kappa between the two modes.
 *
 * @example
 * measureAgreement(pairResults(cheap, expensive).pairs);
 * // { mae: 0.35, spearman: 0.9, qwk: 0.82 }
 */
export function measureAgreement(pairs: readonly ArtefactGap[]): Agreement {
  const expensive = pairs.map((pair) => pair.expensive);
  const cheap = pairs.map((pair) => pair.cheap);
  return {
    mae: mean(pairs.map((pair) => Math.abs(pair.gap))),
    spearman: spearman(expensive, cheap),
    qwk: quadraticWeightedKappa(expensive, cheap),
  };
}
