import { describe, expect, it } from 'vitest';
import { detectAtomic } from '../../lambdas/core/cheap/qus/atomic.js';
import { parseStory } from '../../lambdas/core/cheap/qus/story-parts.js';
import { QusSettingsSchema } from '../../lambdas/core/schemas/qus.js';
import { ustaiStory } from '../support/ustai-stories.js';

const settings = QusSettingsSchema.parse({});
const meansOnly = QusSettingsSchema.parse({ atomicScope: 'means' });

/** Real stories from the UStAI fixture, with the label people gave them. */
const LABELLED = {
  /** conjunctions: two features joined in the means. */
  A1US2Ge:
    'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.',
  /** conjunctions: two verbs, one for each feature. */
  A4US2Ge:
    'As a cybersecurity expert, I want AI tools that can detect and respond to cyberattacks in real-time, protecting critical infrastructure and national security information.',
  /** conjunctions: in the role. */
  A1US4Ge:
    'As a blind or visually impaired person, I want an AV that can safely navigate me around town, giving me greater independence.',
  /** atomic: "search and rescue" is one operation. */
  A4US8O1:
    'As a field commander, I want AI-enabled drones to perform search and rescue operations, so that injured personnel can be located and evacuated swiftly.',
  /** atomic: "between A and B" is one relation. */
  A2US7Ge:
    'As a healthcare provider working with children with ADHD, I want a tool that can differentiate between ADHD-related hyperactivity and physical aggression so that I can provide the most appropriate treatment.',
  /** atomic: the conjunction is in the ends (the reason), not the means. */
  A4US3O1:
    'As a GIS specialist, I want drones integrated with GIS systems, so that they can utilize geospatial data for precise navigation and targeting.',
} as const;

describe('Function: detectAtomic', () => {
  it('quotes real stories from the fixture, with the labels it claims', () => {
    const labels = Object.values(LABELLED).map((story) => {
      const { id, atomic } = ustaiStory(story);
      return [id, atomic];
    });
    expect(labels).toEqual([
      ['A1US2Ge', 'conjunctions'],
      ['A4US2Ge', 'conjunctions'],
      ['A1US4Ge', 'conjunctions'],
      ['A4US8O1', 'atomic'],
      ['A2US7Ge', 'atomic'],
      ['A4US3O1', 'atomic'],
    ]);
  });

  it('fires on a conjunction joining features in the means, quoting the join', () => {
    expect(detectAtomic(parseStory(LABELLED.A1US2Ge), settings)).toEqual({
      criterion: 'atomic',
      evidence: 'uses AI and connected vehicles',
    });
    expect(detectAtomic(parseStory(LABELLED.A4US2Ge), settings)).toEqual({
      criterion: 'atomic',
      evidence: 'can detect and respond to',
    });
  });

  it('reads the role too by default (as AQUSA does), and only the means when told to', () => {
    expect(detectAtomic(parseStory(LABELLED.A1US4Ge), settings)?.evidence).toBe(
      'blind or visually impaired',
    );
    expect(detectAtomic(parseStory(LABELLED.A1US4Ge), meansOnly)).toBeNull();
  });

  it('stays silent on a fixed expression, a "between A and B" relation, and a conjunction in the ends', () => {
    expect(detectAtomic(parseStory(LABELLED.A4US8O1), settings)).toBeNull();
    expect(detectAtomic(parseStory(LABELLED.A2US7Ge), settings)).toBeNull();
    expect(detectAtomic(parseStory(LABELLED.A4US3O1), settings)).toBeNull();
  });

  it('counts "&", "and/or" and "as well as", and ignores a conjunction inside brackets', () => {
    const fires = (story: string) => detectAtomic(parseStory(story), settings)?.evidence;
    expect(fires('As a clerk, I want to print & email invoices.')).toBe(
      'to print & email invoices',
    );
    expect(fires('As a clerk, I want to print and/or email invoices.')).toBe(
      'to print and/or email invoices',
    );
    expect(fires('As a clerk, I want to print invoices as well as receipts.')).toBe(
      'print invoices as well as receipts',
    );
    expect(fires('As a clerk, I want invoices as PDF (print and email).')).toBeUndefined();
    expect(fires('As a clerk, I want to accept the terms and conditions.')).toBeUndefined();
  });

  it('does not read a conjunction inside a word ("brand", "order", "Oregon")', () => {
    expect(
      detectAtomic(parseStory('As a brand manager, I want to order stock in Oregon.'), settings),
    ).toBeNull();
  });
});
