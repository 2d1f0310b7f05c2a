/**
 * The prd.json `ralph init` writes: Ralph's format, with one example story for the person
 * to replace with their own.
 */
import { PrdSchema, type Prd } from '../../schemas/prd.js';

/**
 * `ralph/<slug of the project name>`, or `ralph/start` when the name has nothing a branch
 * name can use.
 *
 * @example
 * starterBranchName('My App!'); // 'ralph/my-app'
 */
export function starterBranchName(project: string): string {
  const slug = project
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `ralph/${slug === '' ? 'start' : slug}`;
}

/** A valid prd.json (checked by PrdSchema) for `project`, with one example story. */
export function starterPrd(project: string): Prd {
  const name = project.trim() === '' ? 'project' : project.trim();
  return PrdSchema.parse({
    project: name,
    branchName: starterBranchName(name),
    description: `What this run should achieve in ${name}: replace with your feature.`,
    userStories: [
      {
        id: 'US-001',
        title: 'Replace this example story with your first task',
        description:
          'As a <user>, I want <something> so that <benefit>. One small story an agent can finish in one iteration.',
        acceptanceCriteria: [
          'A criterion the gates or a reader can check',
          'The gates in ralph.config.json pass',
        ],
        priority: 1,
        passes: false,
        notes: '',
      },
    ],
  });
}
