/**
 * A run's learning snapshot on the emulators: taken once at its start from the project's
 * active rules and the registry of the project and the organisation, and what every plan of
 * the run reads afterwards, whatever the stores hold by then.
 */
import { describe, expect, it } from 'vitest';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import { learningContext } from '../../lambdas/core/steps/learning-context.js';
import { freezeLearning, readSnapshot } from '../../lambdas/core/steps/learning-snapshot.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { loopDepsOver, useEmulatorStores } from '../support/emulator-stores.js';
import { makeRegistryPattern, makeRule, nextId } from '../support/learning-stores.js';
import { makeRun, makeTask } from '../support/records.js';

const NOW = new Date('2026-11-27T09:00:00.000Z');

let deps: LoopDeps;
useEmulatorStores((stores) => {
  deps = loopDepsOver(stores, { now: () => NOW });
});

/** A project with one active and one deprecated rule, a pattern of its own and one of the organisation. */
async function seededProject() {
  const projectId = nextId('shop');
  const active = makeRule({ projectId, ruleId: 'r-active', category: 'feature' });
  await deps.learning.saveRule(active, undefined);
  await deps.learning.saveRule(
    makeRule({ projectId, ruleId: 'r-old', category: 'feature', status: 'deprecated' }),
    undefined,
  );
  const own = makeRegistryPattern({ scope: `project:${projectId}`, patternId: nextId('own') });
  await deps.learning.savePattern(own, undefined);
  const shared = makeRegistryPattern({ scope: 'org', patternId: nextId('shared') });
  await deps.learning.savePattern(shared, undefined);
  return { projectId, active, own, shared };
}

describe('the learning snapshot', () => {
  it('holds the active rules and both registries as they were at the start', async () => {
    // Prepare
    const { projectId, active, own, shared } = await seededProject();
    const run = makeRun({ runId: nextId('run'), projectId });

    // Act
    await freezeLearning(deps, run);
    const snapshot = await readSnapshot(deps, run.runId);

    // Assess
    expect(snapshot?.takenAt).toBe(NOW.toISOString());
    expect(snapshot?.rules.map((rule) => rule.ruleId)).toEqual([active.ruleId]);
    const ids = snapshot?.patterns.map((pattern) => pattern.patternId);
    expect(ids).toContain(own.patternId);
    expect(ids).toContain(shared.patternId);
  });

  it('is frozen: a rule promoted and a pattern learned meanwhile reach the next run, not this one', async () => {
    // Prepare: the run started; then another run's end adds a rule and a pattern.
    const { projectId } = await seededProject();
    const run = makeRun({ runId: nextId('run'), projectId });
    await freezeLearning(deps, run);
    const before = await deps.artefacts.getText(
      artefactKeys.runArtefact(run.runId, 'learning-snapshot.json'),
    );
    await deps.learning.saveRule(
      makeRule({ projectId, ruleId: 'r-later', category: 'feature' }),
      undefined,
    );

    // Act: a later segment freezes again, and a plan is made.
    await freezeLearning(deps, { ...run, segment: 2 });
    const context = await learningContext(deps, run, [], undefined);
    const task = makeTask({ runId: run.runId, title: 'Cart page' });
    const planned = context?.learningOf(task, run);

    // Assess
    expect(
      await deps.artefacts.getText(artefactKeys.runArtefact(run.runId, 'learning-snapshot.json')),
    ).toBe(before);
    expect(planned?.rules.map((rule) => rule.ruleId)).toEqual(['r-active']);
    const next = makeRun({ runId: nextId('run'), projectId });
    await freezeLearning(deps, next);
    expect((await readSnapshot(deps, next.runId))?.rules.map((rule) => rule.ruleId).sort()).toEqual(
      ['r-active', 'r-later'],
    );
  });

  it('is not taken when learning is off, and a run without one plans with nothing learned', async () => {
    // Prepare
    const { projectId } = await seededProject();
    const run = makeRun({
      runId: nextId('run'),
      projectId,
      config: { learning: { enabled: false } },
    });

    // Act
    await freezeLearning(deps, run);

    // Assess
    expect(
      await deps.artefacts.exists(artefactKeys.runArtefact(run.runId, 'learning-snapshot.json')),
    ).toBe(false);
    expect(await learningContext(deps, run, [], undefined)).toBeUndefined();
    const on = makeRun({ runId: nextId('run'), projectId });
    const planned = (await learningContext(deps, on, [], undefined))?.learningOf(
      makeTask({ runId: on.runId, title: 'Cart page' }),
      on,
    );
    expect(planned).toMatchObject({ rules: [], patterns: [] });
  });
});
